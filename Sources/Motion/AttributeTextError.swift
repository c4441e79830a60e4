/// An IIO attribute whose text could not be parsed.
public struct AttributeTextError: Error, Equatable, CustomStringConvertible {
    /// The attribute's name or sysfs path.
    public var attribute: String
    /// The text as read.
    public var text: String
    /// What is wrong with it.
    public var problem: String

    public init(attribute: String, text: String, problem: String) {
        self.attribute = attribute
        self.text = text
        self.problem = problem
    }

    public var description: String {
        "cannot parse IIO attribute \(attribute) = \"\(text.replacingNewlines())\": \(problem); "
            + "check the driver or override the value"
    }
}
