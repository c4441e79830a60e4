@testable import Devices
import Foundation
import Testing

/// The no-device hint names the bundled sweep where the running binary can
/// reach it: installed in PREFIX/share/tiltd/recordings beside PREFIX/bin,
/// else the source tree's recordings/ (relative to its root).
@Suite(.timeLimit(.minutes(1))) struct BundledRecordingTests {
    /// A PREFIX folder with bin/ and, when `installed`, the sweep in
    /// share/tiltd/recordings; removed by the caller.
    static func prefix(installed: Bool) throws -> String {
        let prefix = FileManager.default.temporaryDirectory
            .appendingPathComponent("tiltd-bundled-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        if installed {
            let folder = prefix + "/" + BundledRecording.installedFolder
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("tiltd-trace 1\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + BundledRecording.sweep))
        }
        return prefix
    }

    @Test func anInstalledBinaryNamesTheInstalledSweep() throws {
        let prefix = try Self.prefix(installed: true)
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let path = BundledRecording.path(of: BundledRecording.sweep, executable: prefix + "/bin/tiltd")
        #expect(path == prefix + "/share/tiltd/recordings/synthetic-tilt-sweep.trace")
        let hint = DeviceListing.nothingToReadHint(uri: "local:", sweep: path)
        #expect(hint.contains(" \(path)) or fake a device"), "\(hint)")
    }

    @Test func withoutAnInstalledCopyTheSourceTreesPathIsNamed() throws {
        let prefix = try Self.prefix(installed: false)
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        #expect(BundledRecording.path(of: BundledRecording.sweep, executable: prefix + "/bin/tiltd")
                    == "recordings/synthetic-tilt-sweep.trace")
        #expect(BundledRecording.path(of: BundledRecording.sweep, executable: nil) == "recordings/synthetic-tilt-sweep.trace")
        #expect(BundledRecording.path(of: BundledRecording.sweep, executable: "tiltd") == "recordings/synthetic-tilt-sweep.trace")
    }

    @Test func aFolderWhereTheFileShouldBeIsNotTheRecording() throws {
        let prefix = try Self.prefix(installed: false)
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        try FileManager.default.createDirectory(atPath: prefix + "/share/tiltd/recordings/" + BundledRecording.sweep,
                                                withIntermediateDirectories: true)
        #expect(BundledRecording.path(of: BundledRecording.sweep, executable: prefix + "/bin/tiltd")
                    == "recordings/synthetic-tilt-sweep.trace")
    }
}
