/// What a slot says about the controller in it: the 11 bytes every ports-info
/// and data packet carries at byte 20.
public struct DSUController: Equatable, Sendable {
    /// Whether a controller sits in the slot.
    public enum State: UInt8, Sendable {
        case notConnected = 0
        case connected = 2
    }

    /// What the controller can sense.
    public enum Model: UInt8, Sendable {
        case none = 0
        case accelerometerOnly = 1
        case fullGyro = 2
    }

    /// How the controller is attached (tiltd's devices: not applicable).
    public enum Connection: UInt8, Sendable {
        case notApplicable = 0
        case usb = 1
        case bluetooth = 2
    }

    /// The battery as the protocol grades it.
    public enum Battery: UInt8, Sendable {
        case notApplicable = 0x00
        case dying = 0x01
        case low = 0x02
        case medium = 0x03
        case high = 0x04
        case full = 0x05
        case charging = 0xEE
        case charged = 0xEF

        /// Grades a battery's charge: charging and charged win, then the
        /// percentage in five steps (below 10 % dying … 90 % and above full).
        public init(percentage: Double, charging: Bool, fullyCharged: Bool) {
            if fullyCharged { self = .charged; return }
            if charging { self = .charging; return }
            switch percentage {
            case ..<10: self = .dying
            case ..<30: self = .low
            case ..<60: self = .medium
            case ..<90: self = .high
            default: self = .full
            }
        }
    }

    public var slot: UInt8
    public var state: State
    public var model: Model
    public var connection: Connection
    public var mac: DSUMAC
    public var battery: Battery

    public init(slot: UInt8, state: State, model: Model, connection: Connection = .notApplicable,
                mac: DSUMAC, battery: Battery = .notApplicable) {
        self.slot = slot
        self.state = state
        self.model = model
        self.connection = connection
        self.mac = mac
        self.battery = battery
    }

    /// An empty slot: all zeros but its number.
    public static func empty(slot: UInt8) -> DSUController {
        DSUController(slot: slot, state: .notConnected, model: .none, mac: .zero)
    }
}
