/// Consumes a value so that the optimiser cannot prove it unused and delete the work that produced it.
///
/// The function is opaque to the caller (`@inline(never)`, and `@_optimize(none)` so its own body is
/// not reduced to nothing). Call it once per sample with an accumulated checksum, not once per operation.
@inline(never)
@_optimize(none)
package func blackhole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
