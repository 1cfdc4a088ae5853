import Foundation

/// The one JSON encoder configuration of the harness: keys sorted and slashes unescaped, so the
/// same value always gives the same bytes (child requests, callgrind labels, a repetition's
/// outcome); `run.json` adds pretty printing and snake_case keys, as a file people read.
package enum HarnessJSON {
    package enum Style {
        /// One line, for messages between processes and labels.
        case compact
        /// Pretty-printed with snake_case keys, for `run.json`.
        case file
        /// Pretty-printed with the keys as they are: a file whose keys are written already
        /// (a run.json a driver merged, shard.json).
        case fileKeysAsWritten
    }

    package static func encoder(_ style: Style = .compact) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if style != .compact { encoder.outputFormatting.insert(.prettyPrinted) }
        if style == .file { encoder.keyEncodingStrategy = .convertToSnakeCase }
        return encoder
    }
}
