import Motion

/// What `tiltd list` shows: the IIO accelerometers and the game pads'
/// motion sensors, which of them `tiltd run` would read without
/// `Setting.device` (the display accelerometer, never one in the base, else the
/// first pad), and why none is chosen when so; as text blocks (Jobs adds the
/// JSON array of `tiltd list` with `Setting.json`).
public struct DeviceListing: Sendable {
    public var accelerometers: [AccelerometerInfo]
    public var pads: [MotionPadInfo]
    /// The index in `accelerometers` that `tiltd run` reads, if any.
    public var chosenAccelerometer: Int?
    /// The index in `pads` that `tiltd run` reads (only without a usable accelerometer).
    public var chosenPad: Int?
    /// Why no accelerometer is chosen (none found, only one in the base, …).
    public var noAccelerometerReason: String?

    /// Chooses as `tiltd run` would.
    ///
    /// - Parameter deviceCount: how many IIO devices the context holds (for the selector's message).
    public init(accelerometers: [AccelerometerInfo], pads: [MotionPadInfo], uri: String, deviceCount: Int) {
        self.accelerometers = accelerometers
        self.pads = pads
        do {
            chosenAccelerometer = try AccelerometerSelector().choose(from: accelerometers, uri: uri,
                                                                     deviceCount: deviceCount)
        } catch {
            noAccelerometerReason = "\(error)"
        }
        chosenPad = chosenAccelerometer == nil && !pads.isEmpty ? 0 : nil
    }

    /// Looks at the libiio context `uri` and, for `local:`, the evdev motion
    /// sensors (only nodes udev marks ID_INPUT_ACCELEROMETER=1 are opened).
    ///
    /// - Parameter skipped: receives one message per device that could not be read.
    /// - Throws: the context's error when it cannot be opened and no pad was found either.
    public static func discover(uri: String, skipped: inout [String]) throws -> DeviceListing {
        var padsSkipped: [any Error] = []
        let pads = uri == "local:" ? MotionPadDiscovery().pads(skipped: &padsSkipped) : []
        skipped += padsSkipped.map { "skipping a motion sensor: \($0)" }
        var found: [AccelerometerInfo] = []
        var deviceCount = 0
        do {
            let context = try IIOContext(uri: uri)
            var accelerometersSkipped: [any Error] = []
            found = try context.accelerometers(skipped: &accelerometersSkipped)
            skipped += accelerometersSkipped.map { "skipping an accelerometer: \($0)" }
            deviceCount = context.deviceCount
        } catch {
            if pads.isEmpty { throw error }
        }
        return DeviceListing(accelerometers: found, pads: pads, uri: uri, deviceCount: deviceCount)
    }

    /// Nothing to read at all.
    public var isEmpty: Bool { accelerometers.isEmpty && pads.isEmpty }

    /// The reason worth telling the user after the list: why nothing can be
    /// read, or why none of the accelerometers found is used (not when a pad
    /// stands in for an absent accelerometer).
    public var problem: String? {
        guard let noAccelerometerReason else { return nil }
        return isEmpty || !accelerometers.isEmpty ? noAccelerometerReason : nil
    }

    /// The human-readable blocks, the chosen device marked with `*`.
    public func text() -> String {
        accelerometers.enumerated().map { DeviceListEntry(info: $0.element, chosen: $0.offset == chosenAccelerometer).text() }
            .joined()
            + pads.enumerated().map { PadListEntry(info: $0.element, chosen: $0.offset == chosenPad).text() }.joined()
    }
}
