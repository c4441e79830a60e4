import ArgumentParser
import Foundation
import Sensors
import Streaming

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
        var skipped: [String] = []
        let listing: DeviceListing
        do { listing = try DeviceListing.discover(uri: uri, skipped: &skipped) } catch {
            // The skipped devices (written back even on a throw) come before the reason.
            for message in skipped { TiltdLog.logger.notice("\(message)") }
            TiltdLog.logger.notice("\(error)")
            throw ExitCode(1)
        }
        for message in skipped { TiltdLog.logger.notice("\(message)") }
        FileHandle.standardOutput.write(json ? try listing.json() : Data(listing.text().utf8))
        if let problem = listing.problem {
            TiltdLog.logger.notice("\(problem)")
            if listing.isEmpty { throw ExitCode(1) }
        }
    }
}
