extension MotionPadInfo {
    /// The pad described as the accelerometer record the run loop, trace
    /// headers and messages use: id = the node, uri = "evdev", scale from
    /// `resolution`, no offset, the pad matrix.
    public var accelerometerInfo: AccelerometerInfo {
        let resolutions = accelerometerAxes.map { String($0.resolution) }.joined(separator: " ")
        return AccelerometerInfo(
            id: node, name: name, label: nil, udevLocation: nil, uri: "evdev", scale: accelerationScale,
            offset: SIMD3(repeating: 0), scaleSource: "resolution \(resolutions) units per g",
            offsetSource: "default 0", mountMatrix: mountMatrix, mountMatrixSource: mountMatrixSource,
            samplingFrequencyHertz: nil, availableFrequencies: nil, availableFrequenciesText: nil,
            bufferCapable: true, hasTimestamp: hasTimestamp, currentTrigger: nil, triggerCandidate: nil,
            timestampClock: hasTimestamp ? "MSC_TIMESTAMP" : nil)
    }
}
