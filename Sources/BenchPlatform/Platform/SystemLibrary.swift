// The one place the harness names the C library (glibc or musl on Linux, libSystem on Apple
// platforms). BenchPlatform re-exports it, so the layers above call the POSIX functions every OS
// has alike (`open`, `read`, `poll`, `fstat`, `rename`, `nanosleep`…) through BenchPlatform and
// import no libc module of their own (`scripts/check-layers` fails when one does). What one OS
// has and another has not, or has differently, is a capability of this layer, implemented side by
// side in `X+Linux.swift` and `X+Darwin.swift` (`PlatformCapabilities` lists them, and a run says
// in run.json which it could not measure).
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
