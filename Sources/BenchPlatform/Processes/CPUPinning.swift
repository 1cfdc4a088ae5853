/// Pinning a child process to one core (compare-commits' duets: the two sides on two cores of
/// their own), where the OS offers it (`CPUPinning+Linux.swift`, `CPUPinning+Darwin.swift`).
package enum CPUPinning {}
