/// A D-Bus value of one of the signatures net.tiltd.Tilt1 uses.
public enum BusValue: Sendable, Equatable {
    case bool(Bool)
    case string(String)
    case double(Double)
    case uint64(UInt64)
    /// a(dd): the shine layers as (rotation, opacity).
    case pairs([Pair])
    /// ad: a vector (the device motion's; empty when there is none).
    case doubles([Double])

    /// One (dd) structure.
    public struct Pair: Sendable, Equatable {
        public var first: Double
        public var second: Double
        public init(_ first: Double, _ second: Double) {
            self.first = first
            self.second = second
        }
    }

    /// Its D-Bus type signature.
    public var signature: String {
        switch self {
        case .bool: "b"
        case .string: "s"
        case .double: "d"
        case .uint64: "t"
        case .pairs: "a(dd)"
        case .doubles: "ad"
        }
    }
}
