import Devices
import Motion
import Wording

extension CaptureConfiguration {
    /// The configuration the command line's device options describe
    /// (`Setting.uri`, `Setting.device`, `Setting.source`, `Setting.mode`, `Setting.rate`,
    /// `Setting.mountMatrix`; docs/devices.md), checked. `Setting.source` `auto` is
    /// decided here, by looking at the devices that exist now.
    ///
    /// - Parameters:
    ///   - mountMatrix: `Setting.mountMatrix` as given, `"x1, y1, z1; x2, y2, z2; x3, y3, z3"`.
    ///   - gyroEnabled: read the paired gyroscope too (false: `Setting.noGyro`).
    ///   - latencyMilliseconds: `Setting.latency`; nil for the default
    ///     (`CaptureLatency.defaultMilliseconds`).
    /// - Throws: `SettingError` naming the first option that cannot work.
    public init(uri: String, device: String?, source: CaptureSourceSetting, mode: CaptureMode,
                rateHertz: Double?, mountMatrix: String?, gyroEnabled: Bool,
                latencyMilliseconds: Double? = nil) throws(SettingError) {
        let matrix = try Self.check(uri: uri, device: device, source: source, rateHertz: rateHertz,
                                    mountMatrix: mountMatrix)
        try Self.checkLatency(milliseconds: latencyMilliseconds)
        let milliseconds = latencyMilliseconds ?? CaptureLatency.defaultMilliseconds
        self.init(uri: uri, device: device, mode: mode, rateHertz: rateHertz, mountMatrix: matrix,
                  gyroEnabled: gyroEnabled, source: source.resolve(device: device, uri: uri),
                  attitude: source == .rotation ? .rotation : .accelerometer,
                  latency: CaptureLatency(budgetSeconds: milliseconds / 1000))
    }

    /// The default `Setting.latency` as the help says it ("16").
    public static var defaultLatencyText: String { CaptureRate.attributeText(CaptureLatency.defaultMilliseconds) }

    /// Checks `Setting.latency`: 0 up to `CaptureLatency.maximumMilliseconds`.
    ///
    /// - Throws: `SettingError` naming `Setting.latency`.
    public static func checkLatency(milliseconds: Double?) throws(SettingError) {
        guard let milliseconds else { return }
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds <= CaptureLatency.maximumMilliseconds else {
            throw SettingError("\(.latency) \(milliseconds) is not a latency in ms: give a number from 0 "
                + "(one scan per wake-up) to \(CaptureRate.attributeText(CaptureLatency.maximumMilliseconds))")
        }
    }

    /// Checks the device options without looking at any device (so at
    /// parse time, before `Setting.source` `auto` is decided).
    ///
    /// - Returns: the parsed mount matrix, nil without one.
    /// - Throws: `SettingError` naming the first option that cannot work.
    @discardableResult
    public static func check(uri: String, device: String?, source: CaptureSourceSetting, rateHertz: Double?,
                             mountMatrix: String?) throws(SettingError) -> MountMatrix? {
        try checkURI(uri)
        if let rateHertz, !(rateHertz.isFinite && rateHertz > 0 && rateHertz <= 100_000) {
            throw SettingError("\(.rate) \(rateHertz) is not a rate in Hz: give a number above 0 and at most 100000")
        }
        var matrix: MountMatrix?
        if let mountMatrix {
            do { matrix = try MountMatrix(parsing: mountMatrix) } catch {
                throw SettingError("\(.mountMatrix): \(error)")
            }
        }
        if source == .iio || source == .rotation, let device, MotionPadSelector.isNode(device) {
            throw SettingError("\(.device) \(device) is an input node: use \(.source) evdev or auto")
        }
        if let device, device.isEmpty {
            throw SettingError("\(.device) is empty: give an id (iio:device0), a name, a label or display/base")
        }
        return matrix
    }

    /// Checks a libiio URI's scheme, so a typo fails before anything is opened.
    ///
    /// - Throws: `SettingError` naming `Setting.uri` and the forms it takes.
    public static func checkURI(_ uri: String) throws(SettingError) {
        let schemes = ["local:", "ip:", "usb:", "serial:"]
        guard schemes.contains(where: { uri.hasPrefix($0) }) else {
            throw SettingError("\(.uri) \(uri) is not a libiio context URI: use local:, ip:HOST[:PORT], "
                + "usb:BUS.DEV.INTF or serial:PORT")
        }
        if uri.hasPrefix("ip:") && uri.count == 3 {
            throw SettingError("\(.uri) ip: needs a host: ip:HOST[:PORT], e.g. ip:192.168.2.1")
        }
    }
}
