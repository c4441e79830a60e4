import Commands
import Devices
import Motion
import Testing
import Wording

/// The command line's device options, checked before anything is opened.
@Suite(.timeLimit(.minutes(15))) struct CaptureOptionsTests {
    @Test(arguments: [
        ("usb", nil, CaptureSourceSetting.auto, nil, nil,
         "\(.uri) usb is not a libiio context URI: use local:, ip:HOST[:PORT], usb:BUS.DEV.INTF or serial:PORT"),
        ("ip:", nil, .auto, nil, nil, "\(.uri) ip: needs a host: ip:HOST[:PORT], e.g. ip:192.168.2.1"),
        ("local:", nil, .auto, 0, nil, "\(.rate) 0.0 is not a rate in Hz: give a number above 0 and at most 100000"),
        ("local:", nil, .auto, 200_000, nil, "\(.rate) 200000.0 is not a rate in Hz: give a number above 0 and at most 100000"),
        ("local:", "/dev/input/event5", .iio, nil, nil, "\(.device) /dev/input/event5 is an input node: use \(.source) evdev or auto"),
        ("local:", "", .auto, nil, nil, "\(.device) is empty: give an id (iio:device0), a name, a label or display/base"),
    ] as [(String, String?, CaptureSourceSetting, Double?, String?, SettingMessage)])
    func badOptionsAreNamed(uri: String, device: String?, source: CaptureSourceSetting, rate: Double?,
                            matrix: String?, message: SettingMessage) {
        #expect(throws: SettingError(message)) {
            try CaptureConfiguration.check(uri: uri, device: device, source: source, rateHertz: rate, mountMatrix: matrix)
        }
    }

    @Test func aBadMountMatrixSaysWhy() {
        let error = #expect(throws: SettingError.self) {
            try CaptureConfiguration.check(uri: "local:", device: nil, source: .auto, rateHertz: nil, mountMatrix: "1, 0")
        }
        #expect(error?.message.parts.first == .setting(.mountMatrix))
    }

    @Test func theCheckedConfigurationKeepsWhatWasGiven() throws {
        let capture = try CaptureConfiguration(uri: "ip:192.0.2.1", device: "display", source: .rotation, mode: .poll,
                                               rateHertz: 25, mountMatrix: "0, 1, 0; -1, 0, 0; 0, 0, 1",
                                               gyroEnabled: false)
        #expect(capture.source == .iio)
        #expect(capture.attitude == .rotation)
        #expect(capture.mode == .poll)
        #expect(capture.rateHertz == 25)
        #expect(capture.mountMatrix == (try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")))
        #expect(!capture.gyroEnabled)
        // An input node decides `auto` without looking at any device.
        let pad = try CaptureConfiguration(uri: "local:", device: "/dev/input/event5", source: .auto, mode: .auto,
                                           rateHertz: nil, mountMatrix: nil, gyroEnabled: true)
        #expect(pad.source == .evdev)
        #expect(pad.attitude == .accelerometer)
    }

    @Test func theLatencyIsCheckedAndDefaultsToOneFrame() throws {
        for bad in [-1.0, 1001, .nan, .infinity] {
            #expect(throws: SettingError("\(.latency) \(bad) is not a latency in ms: give a number from 0 (one scan per "
                                             + "wake-up) to 1000")) {
                try CaptureConfiguration.checkLatency(milliseconds: bad)
            }
        }
        func latency(_ milliseconds: Double?) throws -> CaptureLatency {
            try CaptureConfiguration(uri: "local:", device: nil, source: .iio, mode: .auto, rateHertz: nil,
                                     mountMatrix: nil, gyroEnabled: true, latencyMilliseconds: milliseconds).latency
        }
        #expect(try latency(nil) == CaptureLatency(budgetSeconds: 0.016))
        #expect(try latency(0) == .perSample)
        #expect(try latency(100) == CaptureLatency(budgetSeconds: 0.1))
    }
}
