import ArgumentParser
import Commands
import Devices
import Render
import SamplePath

/// `tiltd list`: the accelerometers libiio can see, and everything tiltd
/// would use from them.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List accelerometers (IIO) and game-pad motion sensors (evdev) with what tiltd uses from them.",
        discussion: """
            The device marked with * is the one `tiltd run` reads without --device: \
            the display accelerometer, never one in the base, else the first game \
            pad's motion sensor. Exits with status 1 and says why when there is none.
            """)

    @Option(help: DeviceOptions.uriHelp) var uri: String = "local:"

    @Flag(help: "Print a JSON array instead of text.")
    var json = false

    func validate() throws { try validating { try CaptureConfiguration.checkURI(uri) } }

    func run() async throws {
        try DeviceListingReport.write(uri: uri, json: json)
        if !json { TiltdLog.logger.notice("\(DSUOptions.emulatorHint)") }
    }
}
