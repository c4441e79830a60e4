extension IIOContext {
    /// The accelerometers on this context, in context order, with what tiltd
    /// knows about each (scale, offset, mount matrix and their sources, rates,
    /// buffer and trigger).
    ///
    /// - Throws: `IIOError` when attributes cannot be read (permissions),
    ///   `DeviceAttributeError` when one holds nonsense.
    public func accelerometers() throws -> [AccelerometerInfo] {
        try AccelerometerDiscovery(context: self).accelerometers().map(\.info)
    }

    /// How many IIO devices (triggers excluded) the context has.
    public var deviceCount: Int {
        LibIIO.devices(pointer).filter { !LibIIO.isTrigger($0) }.count
    }
}
