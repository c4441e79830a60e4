import Foundation
import Glibc
import Testing
import TiltdTestSupport
import Web

/// `tiltd serve` under `ulimit -n 256` against more connections than it has
/// descriptors: the default cap keeps room so /healthz never waits, and past
/// an explicit cap the listener stops accepting before the descriptors run
/// out (the runtime traps without one) and accepts again once clients leave.
@Suite(.serialized, .timeLimit(.minutes(15))) struct WebFileLimitTests {
    static let sweep = WebServeProcess.repositoryRoot.appendingPathComponent("recordings/synthetic-tilt-sweep.trace").path

    static func flood(port: UInt16, count: Int) -> [WebTestClient] {
        (0..<count).compactMap { _ in
            let client = try? WebTestClient(port: port)
            client?.write(WebAttackTests.slowHead)
            return client
        }
    }

    @Test func theDefaultCapFitsTheFileLimitSoHealthNeverWaits() async throws {
        // Blocking calls run off Swift's small cooperative pool, which the
        // in-process servers of other suites need.
        try await WebServerTests.offPool {
            let serve = try WebServeProcess(openFiles: 256, ["--replay", Self.sweep, "--loop", "--size", "16"])
            var attackers = Self.flood(port: serve.port, count: 300)
            // Accepted in order: once a probe behind the burst is answered, the flood is in.
            #expect(WebTestClient.health(port: serve.port, timeout: 20) == 200)
            var flooding = true
            var rounds = 0
            let failures = WebAttackTests.probeHealth(port: serve.port) {
                rounds += 1
                attackers += Self.flood(port: serve.port, count: 10)
                flooding = rounds < 20
                return flooding
            }
            #expect(failures.isEmpty, "healthz under ulimit -n 256: \(failures)")
            #expect(serve.openDescriptors < 256, "the server kept descriptors free: \(serve.openDescriptors)")
            attackers.removeAll()
            #expect(WebTestClient.health(port: serve.port) == 200)
            #expect(serve.stop())
            #expect(serve.process.terminationStatus == 0, "\(serve.stderr)")
        }
    }

    @Test func pastAnExplicitCapTheListenerWaitsInsteadOfExhaustingDescriptors() async throws {
        // Blocking calls run off Swift's small cooperative pool, which the
        // in-process servers of other suites need.
        try await WebServerTests.offPool {
            let serve = try WebServeProcess(openFiles: 256, ["--replay", Self.sweep, "--loop", "--size", "16",
                                                             "--max-connections", "1000"])
            #expect(serve.stderr.contains("--max-connections 1000 is more than the open-file limit leaves room for"))
            var attackers = Self.flood(port: serve.port, count: 300)
            // Every connection the server accepts stays open until the first
            // one's header timeout (it is accepted first): the descriptors
            // peak before that answer. Out of descriptors, libdispatch's
            // worker monitor traps, so the peak must stay below the limit.
            var peak = 0
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, serve.process.isRunning, attackers.first?.waitForClose(timeout: 0.05) == false {
                peak = max(peak, serve.openDescriptors)
            }
            #expect(serve.process.isRunning, "the server died: \(serve.stderr)")
            #expect(peak >= 256 - 2 * WebFileLimit.reserve, "the flood filled the listener's room: \(peak) descriptors")
            #expect(peak < 256 - WebFileLimit.reserve / 2, "descriptors kept free under the flood: peak \(peak) of 256")
            attackers.removeAll()  // the flood ends: its sockets close
            // The listener was never closed: the clients that waited in the backlog, and new ones, get in.
            #expect(TestPaths.eventually(20) { WebTestClient.health(port: serve.port) == 200 },
                    "no answer after the flood: \(serve.stderr)")
            #expect(serve.stop())
            #expect(serve.process.terminationStatus == 0, "\(serve.stderr)")
        }
    }
}
