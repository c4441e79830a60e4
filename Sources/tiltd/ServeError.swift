/// Why `tiltd serve` stopped, in one line naming the option to change.
struct ServeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
