import Foundation
import GoldenTesting

extension GoldenImage {
    /// Tests/KnobTests/Golden.
    static let knob = GoldenImage(directory: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden"))
}
