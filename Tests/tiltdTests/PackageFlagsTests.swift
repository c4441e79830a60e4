import Foundation
import Testing
import TiltdTestSupport

/// What Package.swift asks of the system, checked without building.
@Suite(.timeLimit(.minutes(15))) struct PackageFlagsTests {
    /// Every build warned "prohibited flag(s): -D_REENTRANT,
    /// -pthread": libpulse.pc's flags, which SwiftPM refuses from a system
    /// library's pkg-config. Each pkgConfig the manifest names gives only
    /// flags SwiftPM takes (-I, -L, -l).
    @Test func systemLibrariesGiveOnlyFlagsSwiftPMTakes() throws {
        let manifest = try String(contentsOf: TiltdProcess.repositoryRoot.appendingPathComponent("Package.swift"),
                                  encoding: .utf8)
        let regex = try NSRegularExpression(pattern: #"pkgConfig: "([^"]+)""#)
        let names = regex.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)).compactMap {
            Range($0.range(at: 1), in: manifest).map { String(manifest[$0]) }
        }
        #expect(names.contains("sndfile") && names.contains("libiio"), "\(names)")
        for name in names {
            let r = try ExternalProgram.run("pkg-config", ["--cflags", "--libs", name])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            let refused = r.stdout.split(whereSeparator: { $0.isWhitespace })
                .filter { flag in !["-I", "-L", "-l"].contains { flag.hasPrefix($0) } }
            #expect(refused.isEmpty, "pkg-config \(name) gives \(refused), which SwiftPM refuses with a warning")
        }
    }
}
