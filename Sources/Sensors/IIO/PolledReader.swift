import Motion
/// Reads `in_accel_{x,y,z}_raw` on demand (polled capture).
struct PolledReader {
    let axes: [OpaquePointer]
    let shownName: String

    /// The raw counts of x, y, z.
    ///
    /// - Throws: `IIOError` (ENOENT/ENODEV when the device vanished),
    ///   `AttributeTextError` when a value is not an integer.
    func read() throws -> SIMD3<Double> {
        var raw = SIMD3<Double>()
        for index in 0..<3 {
            switch LibIIO.readChannelAttribute(axes[index], "raw") {
            case .success(let text):
                let file = "in_accel_\(["x", "y", "z"][index])_raw"
                raw[index] = Double(try AttributeText.integer(text, attribute: "\(shownName) \(file)"))
            case .failure(let errno):
                let file = LibIIO.channelAttributeFile(axes[index], "raw") ?? "raw"
                throw IIOError("reading \(file)", on: shownName, errno: errno)
            }
        }
        return raw
    }
}
