import Motion
extension IIOContext {
    /// The accelerometers on this context, in context order, with what tiltd
    /// knows about each (scale, offset, mount matrix and their sources, rates,
    /// buffer and trigger).
    ///
    /// - Parameter skipped: receives the errors of accelerometers left out
    ///   because an attribute could not be read or made no sense.
    /// - Throws: `IIOError` (permissions) or `DeviceAttributeError` (nonsense)
    ///   when no accelerometer could be described at all.
    public func accelerometers(skipped: inout [any Error]) throws -> [AccelerometerInfo] {
        try AccelerometerDiscovery(context: self).accelerometers(skipped: &skipped).map(\.info)
    }

    /// How many IIO devices (triggers excluded) the context has.
    public var deviceCount: Int {
        iio.devices(handle).filter { !iio.isTrigger($0) }.count
    }
}
