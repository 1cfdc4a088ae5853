/// The path of this process's executable, which a child of the same binary is started from
/// (`ExecutablePath+Linux.swift`, `ExecutablePath+Darwin.swift`); nil where it cannot be read.
package enum ExecutablePath {}
