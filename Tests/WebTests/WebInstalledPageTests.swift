import Foundation
import Glibc
import Testing
import TiltdTestSupport

/// The page's files are built into tiltd (Sources/Web/Page, `.embedInCode`):
/// a copy of the binary alone in another directory, as `make install` puts
/// it, serves the page and /tiltd.js byte for byte as the goldens say.
@Suite(.timeLimit(.minutes(15))) struct WebInstalledPageTests {
    @Test func aCopyOfTheBinaryAloneServesThePageAndTiltdJS() async throws {
        try await WebServerTests.offPool {
            let directory = try TestPaths.temporaryDirectory() + "/bin"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let installed = directory + "/tiltd"
            // cp(1) writes the copy: a descriptor this process held open for
            // writing would be inherited by children other suites spawn
            // meanwhile, and exec would fail with ETXTBSY.
            let copy = try ExternalProgram.run("cp", [WebServeProcess.binary, installed])
            #expect(copy.status == 0, "cp: \(copy.stderr)")
            let tiltd = try WebServeProcess(binary: installed, ["--size", "240", "--replay", WebServeTests.sweep, "--loop"])
            defer { _ = tiltd.stop(with: SIGKILL) }
            let page = try WebTestClient.request("GET", "/", port: tiltd.port)
            #expect(page.status == 200)
            try WebPageGoldenTests.expectGolden(page.body, "plain.html")
            let script = try WebTestClient.request("GET", "/tiltd.js", port: tiltd.port)
            #expect(script.status == 200)
            try WebPageGoldenTests.expectGolden(script.body, "tiltd.js")
            #expect(tiltd.stop(with: SIGTERM))
        }
    }
}
