import Motion

/// Reads `in_<kind>_{x,y,z}_raw` on demand (polled capture; `kind` is
/// "accel", or "anglvel" for a gyroscope).
///
/// On the local backend the three files stay open and each sample is three
/// `pread`s parsed in place (`SysfsAttributeFile`): libiio's attribute read
/// opens, reads and closes the file and builds a String every time, which
/// made a still device polled at 100 Hz cost 2.4 % of a core. Over iiod or
/// USB, or when a file cannot be opened directly, it reads through libiio.
/// libiio stays the one that discovers the device and its files.
final class PolledReader {
    let iio: any IIOBackend
    let axes: [IIOChannelHandle]
    let shownName: String
    let kind: String
    /// The open x, y, z files; nil when reading through libiio.
    private var files: [SysfsAttributeFile]?
    /// When the files were last checked against their paths.
    private var checkedNanoseconds: Int64
    /// How often the open files are checked for having been replaced.
    private static let staleCheckNanoseconds: Int64 = 100_000_000

    init(iio: any IIOBackend, axes: [IIOChannelHandle], shownName: String, kind: String = "accel") {
        self.iio = iio
        self.axes = axes
        self.shownName = shownName
        self.kind = kind
        checkedNanoseconds = MonotonicClock.nanoseconds()
        let paths = axes.prefix(3).compactMap { iio.localAttributePath($0, "raw") }
        if paths.count == 3 { files = try? paths.map { path throws(Errno) in try SysfsAttributeFile(path: path) } }
    }

    /// The raw counts of x, y, z.
    ///
    /// - Throws: `IIOError` (ENOENT/ENODEV when the device vanished),
    ///   `AttributeTextError` when a value is not an integer.
    func read() throws -> SIMD3<Double> {
        guard let files = try currentFiles() else { return try readThroughLibIIO() }
        var raw = SIMD3<Double>()
        try withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { buffer in
            for index in 0..<3 {
                let count: Int
                do throws(Errno) {
                    count = try files[index].read(into: buffer)
                } catch {
                    throw IIOError("reading \(fileName(index))", on: shownName, errno: error)
                }
                let text = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                raw[index] = Double(try PolledReader.integer(text) ?? AttributeText.integer(
                    String(decoding: text.prefix { $0 != 0 }, as: UTF8.self),
                    attribute: "\(shownName) \(fileName(index))"))
            }
        }
        return raw
    }

    /// The open files, reopened first when the file tree replaced or
    /// removed them (checked every 100 ms); nil to read through libiio.
    private func currentFiles() throws -> [SysfsAttributeFile]? {
        guard let open = files else { return nil }
        let now = MonotonicClock.nanoseconds()
        guard now - checkedNanoseconds >= PolledReader.staleCheckNanoseconds else { return open }
        checkedNanoseconds = now
        guard open.contains(where: \.isStale) else { return open }
        var reopened: [SysfsAttributeFile] = []
        for (index, file) in open.enumerated() {
            do throws(Errno) {
                reopened.append(try SysfsAttributeFile(path: file.path))
            } catch {
                throw IIOError("reading \(fileName(index))", on: shownName, errno: error)
            }
        }
        files = reopened
        return reopened
    }

    private func readThroughLibIIO() throws -> SIMD3<Double> {
        var raw = SIMD3<Double>()
        for index in 0..<3 {
            switch iio.readChannelAttribute(axes[index], "raw") {
            case .success(let text):
                raw[index] = Double(try AttributeText.integer(text, attribute: "\(shownName) \(fileName(index))"))
            case .failure(let errno):
                let file = iio.channelAttributeFile(axes[index], "raw") ?? "raw"
                throw IIOError("reading \(file)", on: shownName, errno: errno)
            }
        }
        return raw
    }

    private func fileName(_ index: Int) -> String {
        "in_\(kind)_\(["x", "y", "z"][index])_raw"
    }

    /// A decimal integer with optional sign and surrounding ASCII
    /// whitespace, ending at the text's end or a NUL; nil for anything else
    /// (then `AttributeText.integer` decides and words the error).
    static func integer(_ text: UnsafeRawBufferPointer) -> Int64? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var index = 0
        let end = text.firstIndex(of: 0) ?? text.count
        while index < end && isSpace(text[index]) { index += 1 }
        var negative = false
        if index < end && (text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+")) {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        var value: Int64 = 0
        var digits = 0
        while index < end, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
            let digit = Int64(text[index] - UInt8(ascii: "0"))
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdding) = negative ? scaled.subtractingReportingOverflow(digit)
                : scaled.addingReportingOverflow(digit)
            if overflow || overflowAdding { return nil }
            value = next
            digits += 1
            index += 1
        }
        while index < end && isSpace(text[index]) { index += 1 }
        return digits > 0 && index == end ? value : nil
    }
}
