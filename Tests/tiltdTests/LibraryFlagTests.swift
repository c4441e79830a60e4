import Commands
import Foundation
import Motion
import Testing
import Wording

/// Only the command line spells options: library code, its
/// strings and its comments name settings by type (`Setting.listen`), so a
/// renamed option is renamed in one place.
@Suite(.timeLimit(.minutes(15))) struct LibraryFlagTests {
    /// The command-line layer, where options are spelt.
    static let commandLine: Set<String> = ["tiltd", "tiltd-run", "Commands"]

    @Test func librariesSpellNoOption() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { !Self.commandLine.contains($0) }
        #expect(modules.contains("Devices") && modules.contains("Web"), "\(sources.path): \(modules)")
        let flags = try Setting.allCases.map { try Regex("\($0.flag)(?![a-z-])") }
        for module in modules {
            let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(module).path)?
                .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOf: sources.appendingPathComponent("\(module)/\(file)"), encoding: .utf8)
                for flag in flags where text.contains("--") && text.contains(flag) {
                    Issue.record("Sources/\(module)/\(file) spells an option: name it as a Setting instead")
                }
            }
        }
    }

    /// Motion is maths: settings and their wording (`Setting`,
    /// `SettingMessage`, `Diagnostic`) live in Wording, which it does not
    /// import.
    @Test func motionNamesNoSetting() throws {
        let motion = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Motion")
        let files = FileManager.default.enumerator(atPath: motion.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.contains("TiltPipeline.swift"), "\(motion.path): \(files)")
        let words = try Regex(#"\b(Setting|SettingMessage|SettingError|Diagnostic|Wording)\b"#)
        for file in files {
            let text = try String(contentsOf: motion.appendingPathComponent(file), encoding: .utf8)
            if let match = text.firstMatch(of: words) {
                Issue.record("Sources/Motion/\(file) names \(text[match.range]): settings belong to Wording")
            }
        }
    }
}
