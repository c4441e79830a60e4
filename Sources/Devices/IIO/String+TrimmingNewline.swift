import Motion
extension String {
    /// The text without trailing newlines and spaces (sysfs values end with "\n").
    func trimmingNewline() -> String {
        var slice = Substring(self)
        while let last = slice.last, last == "\n" || last == " " || last == "\r" { slice = slice.dropLast() }
        return String(slice)
    }
}
