/// A number for messages: integers without `.0`.
package func format(_ v: Double) -> String {
    if v.isFinite, v.rounded() == v, abs(v) < 1e15 { return String(Int(v)) }
    return String(v)
}
