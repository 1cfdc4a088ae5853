import Foundation

/// Runs a program found on PATH and returns its standard output and error (merged, trimmed) when it
/// exits with status 0; nil when it is missing, fails, or cannot be started.
package func commandOutput(_ program: String, _ arguments: [String], directory: String? = nil) -> String? {
    guard let path = findOnPath(program) else { return nil }
    let result = TemporaryFiles.withToolEnvironment { environment in
        try? runChildProcess(executable: path, arguments: arguments, environment: environment, directory: directory)
    }
    guard let result, result.status == 0 else { return nil }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
}
