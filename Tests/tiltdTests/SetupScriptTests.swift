import Foundation
import Testing
import TiltdTestSupport

/// scripts/setup.sh, run against stand-ins for dpkg-query, apt-get and sudo
/// (nothing is installed): what it tells the user before installing.
@Suite(.timeLimit(.minutes(15))) struct SetupScriptTests {
    /// Installing systemd for the tests upgraded libsystemd0 (and
    /// udev) without a word. setup.sh lists such upgrades first.
    @Test func upgradesOfInstalledPackagesAreListedBeforeInstalling() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/apt.log"
        let tools = [
            // Nothing is installed.
            "dpkg-query": "exit 1",
            // apt's dry run replaces one installed package and adds one.
            "apt-get": """
                echo "$*" >> '\(log)'
                case " $* " in *" -s "*)
                    echo 'NOTE: This is only a simulation!'
                    echo 'Inst libsystemd0 [252.30-1~deb12u2] (252.33-1~deb12u1 Debian:12.11/stable [amd64])'
                    echo 'Inst systemd (252.33-1~deb12u1 Debian:12.11/stable [amd64])' ;;
                esac
                """,
            "sudo": #"exec "$@""#,
        ]
        for (name, body) in tools {
            let path = folder + "/" + name
            try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }
        let script = TiltdProcess.repositoryRoot.appendingPathComponent("scripts/setup.sh").path
        let path = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try ExternalProgram.run("bash", [script], environment: ["PATH": path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let said = try #require(lines.firstIndex(of: "setup: this also upgrades packages already installed:"),
                                "\(r.stderr)")
        #expect(lines.dropFirst(said + 1).first == "setup:   libsystemd0 252.30-1~deb12u2 -> 252.33-1~deb12u1")
        #expect(!r.stderr.contains("setup:   systemd"), "a new package is not an upgrade")
        // Said before the real install.
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(calls.last?.hasPrefix("install -y") == true, "\(calls)")
    }
}
