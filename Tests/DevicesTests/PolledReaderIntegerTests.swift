@testable import Devices
import Motion
import Testing

/// The in-place integer parser of polled raw values must agree with
/// `AttributeText.integer` (Swift's `Int64(String)` after trimming), which
/// reads every text it declines and words the error.
@Suite(.timeLimit(.minutes(2))) struct PolledReaderIntegerTests {
    private func parse(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBytes { PolledReader.integer($0) }
    }

    @Test(arguments: ["0\n", "523\n", "-256\n", "+17\n", "  42 \n", "\t-1\r\n", "7",
                      "9223372036854775807\n", "-9223372036854775808\n", "12\n\0\0"])
    func acceptsWhatAttributeTextAccepts(_ text: String) throws {
        let expected = try AttributeText.integer(text.prefix { $0 != "\0" }.description, attribute: "raw")
        #expect(parse(text) == expected)
    }

    @Test(arguments: ["", "\n", "-\n", "1.5\n", "12 13\n", "0x10\n", "abc\n", "9223372036854775808\n",
                      "-9223372036854775809\n", "--1\n", "1-\n"])
    func declinesWhatAttributeTextRejects(_ text: String) {
        #expect(parse(text) == nil)
        #expect(throws: AttributeTextError.self) { try AttributeText.integer(text, attribute: "raw") }
    }
}
