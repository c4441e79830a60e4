extension DSUServer {
    /// Why the server could not start on its address.
    public enum Failure: Error, Sendable, Equatable {
        /// A step of making the UDP socket failed, with the system's reason.
        case socket(address: DSUAddress, step: Step, reason: String)
        /// SwiftNIO could not serve the bound socket, with its error.
        case serve(address: DSUAddress, reason: String)

        /// The step of making the socket that failed.
        public enum Step: Sendable, Equatable {
            /// socket(2) or SO_REUSEPORT.
            case makeSocket
            /// bind(2), the port held by another socket (EADDRINUSE).
            case bindPortInUse
            /// bind(2), for any other reason (an address not on this machine).
            case bind
            /// Duplicating the bound descriptor.
            case duplicate
        }
    }
}
