import ArgumentParser
import Controls
import Foundation
import Knob
import SamplePath

/// `tiltd draw larsbar|spark|rgb`: one still of a control as a PNG whose
/// image is exactly the control's bounds.
struct DrawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draw",
        abstract: "Draw one still of a control (the EQ slider, the recording ring, the colour sliders) as a PNG.",
        discussion: """
            Each subcommand draws its control at --scale pixels per point into an image exactly \
            the control's bounds and writes it whole (a temporary file renamed into place). \
            The numbers are those of the originals; see docs/controls.md.
            """,
        subcommands: [DrawLARSBarCommand.self, DrawSparkCommand.self, DrawRGBCommand.self])
}

/// Options every `draw` subcommand has: the scale and where the PNG goes.
struct DrawOutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Device pixels per point, 1, 2 or 3.", valueName: "s"))
    var scale = 2

    @Option(help: ArgumentHelp("The PNG file to write (default: the control's name .png here).",
                               valueName: "file.png"))
    var out: String?

    func validate() throws {
        guard (1...3).contains(scale) else {
            throw ValidationError("--scale must be 1, 2 or 3 pixels per point, got \(scale)")
        }
    }

    /// Checks the output path (`OutputPath`'s rule), draws the still, writes
    /// it whole and says where it went on stderr.
    func write(_ image: () throws -> RGBAImage, defaultName: String) throws {
        let path = out ?? defaultName
        try OutputPath.checkFile(path, role: .output, example: defaultName)
        let written = try ControlStill.write(image(), to: path)
        FileHandle.standardError.write(Data("tiltd: \(written)\n".utf8))
    }
}
