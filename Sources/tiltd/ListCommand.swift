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
        abstract: "List accelerometers (IIO) and game-pad motion sensors (evdev) with what tiltd uses from them.",
        discussion: """
            The device marked with * is the one `tiltd run` reads without --device: \
            the display accelerometer, never one in the base, else the first game \
            pad's motion sensor. Exits with status 1 and says why when there is none.
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
        // Game pads' motion sensors (evdev) are listed after the IIO devices;
        // only nodes udev marks ID_INPUT_ACCELEROMETER=1 are opened.
        var padsSkipped: [any Error] = []
        let pads = uri == "local:" ? MotionPadDiscovery().pads(skipped: &padsSkipped) : []
        for error in padsSkipped { TiltdLog.logger.notice("skipping a motion sensor: \(error)") }
        var found: [AccelerometerInfo] = []
        var deviceCount = 0
        do {
            let context = try IIOContext(uri: uri)
            var skipped: [any Error] = []
            found = try context.accelerometers(skipped: &skipped)
            for error in skipped { TiltdLog.logger.notice("skipping an accelerometer: \(error)") }
            deviceCount = context.deviceCount
        } catch {
            if pads.isEmpty {
                TiltdLog.logger.notice("\(error)")
                throw ExitCode(1)
            }
        }
        var chosen: Int? = nil
        var why: String? = nil
        do {
            chosen = try AccelerometerSelector().choose(from: found, uri: uri, deviceCount: deviceCount)
        } catch {
            why = "\(error)"
        }
        // Without a usable IIO accelerometer, `tiltd run` reads the first pad.
        let padChosen = chosen == nil && !pads.isEmpty ? 0 : nil
        if json {
            let entries = found.enumerated().map {
                ListedDevice(entry: DeviceListEntry(info: $0.element, chosen: $0.offset == chosen))
            } + pads.enumerated().map {
                ListedDevice(entry: PadListEntry(info: $0.element, chosen: $0.offset == padChosen))
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(entries)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } else {
            var text = ""
            for (index, info) in found.enumerated() {
                text += DeviceListEntry(info: info, chosen: index == chosen).text()
            }
            for (index, info) in pads.enumerated() {
                text += PadListEntry(info: info, chosen: index == padChosen).text()
            }
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        if found.isEmpty && pads.isEmpty, let why {
            TiltdLog.logger.notice("\(why)")
            throw ExitCode(1)
        } else if let why, !(found.isEmpty && !pads.isEmpty) {
            TiltdLog.logger.notice("\(why)")
        }
    }
}
