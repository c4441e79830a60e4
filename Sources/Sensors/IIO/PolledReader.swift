import Motion
/// Reads `in_<kind>_{x,y,z}_raw` on demand (polled capture; `kind` is
/// "accel", or "anglvel" for a gyroscope).
struct PolledReader {
    let axes: [OpaquePointer]
    let shownName: String
    var kind = "accel"

    /// The raw counts of x, y, z.
    ///
    /// - Throws: `IIOError` (ENOENT/ENODEV when the device vanished),
    ///   `AttributeTextError` when a value is not an integer.
    func read() throws -> SIMD3<Double> {
        var raw = SIMD3<Double>()
        for index in 0..<3 {
            switch LibIIO.readChannelAttribute(axes[index], "raw") {
            case .success(let text):
                let file = "in_\(kind)_\(["x", "y", "z"][index])_raw"
                raw[index] = Double(try AttributeText.integer(text, attribute: "\(shownName) \(file)"))
            case .failure(let errno):
                let file = LibIIO.channelAttributeFile(axes[index], "raw") ?? "raw"
                throw IIOError("reading \(file)", on: shownName, errno: errno)
            }
        }
        return raw
    }
}
