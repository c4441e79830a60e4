import ArgumentParser
import Foundation
import Motion
import Sensors
import Streaming

/// `tiltd list`: the accelerometers libiio can see, and everything tiltd
/// would use from them.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List accelerometers: id, name, label/location, scale, offset, mount matrix, rates, buffer.",
        discussion: """
            The device marked with * is the one `tiltd run` reads without --device: \
            the display accelerometer, never one in the base. Exits with status 1 \
            and says why when there is none.
            """)

    @Option(help: ArgumentHelp("libiio context: local:, ip:HOST[:PORT] (iiod), usb:BUS.DEV.INTF.",
                               valueName: "uri"))
    var uri: String = "local:"

    @Flag(help: "Print a JSON array instead of text.")
    var json = false

    func validate() throws {
        try DeviceOptions.validate(uri: uri)
    }

    func run() async throws {
        let found: [AccelerometerInfo]
        let deviceCount: Int
        do {
            let context = try IIOContext(uri: uri)
            var skipped: [any Error] = []
            found = try context.accelerometers(skipped: &skipped)
            for error in skipped { TiltdLog.logger.notice("skipping an accelerometer: \(error)") }
            deviceCount = context.deviceCount
        } catch {
            TiltdLog.logger.notice("\(error)")
            throw ExitCode(1)
        }
        var chosen: Int? = nil
        var why: String? = nil
        do {
            chosen = try AccelerometerSelector().choose(from: found, uri: uri, deviceCount: deviceCount)
        } catch {
            why = "\(error)"
        }
        if json {
            let entries = found.enumerated().map { DeviceListEntry(info: $0.element, chosen: $0.offset == chosen) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(entries)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } else {
            var text = ""
            for (index, info) in found.enumerated() {
                text += DeviceListEntry(info: info, chosen: index == chosen).text()
            }
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        if found.isEmpty, let why {
            TiltdLog.logger.notice("\(why)")
            throw ExitCode(1)
        } else if let why {
            TiltdLog.logger.notice("\(why)")
        }
    }
}
