import Foundation
import Testing
import TiltdTestSupport

/// Pins `tiltd replay`'s exact bytes on every recording, so that a speed-up
/// of the per-sample path cannot change an output digit or a gate decision
/// unnoticed. The digests (64-bit FNV-1a of stdout) were taken with the
/// libm-based attitude (glibc atan2/asin) before `Arctangent` replaced it.
/// If an output change is intended, recompute them and say why in the
/// commit: `.build/debug/tiltd replay [options] recordings/NAME | ` any
/// FNV-1a 64 implementation (the test prints the new value on failure).
@Suite struct ReplayGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let recording: String
        let options: [String]
        let lines: Int
        let digest: UInt64
        var testDescription: String { "\(recording) \(options.joined(separator: " "))" }
    }

    static let auto = ["--screen-orientation", "auto", "--neutral", "auto"]
    static let cases: [Case] = [
        Case(recording: "ngimu-hand-motion.trace", options: [], lines: 222, digest: 0x0c44_af85_801b_2dad),
        Case(recording: "ngimu-hand-motion.trace", options: ["--no-gate"], lines: 499, digest: 0xe9c7_6125_4797_70e9),
        Case(recording: "ngimu-hand-motion.trace", options: auto, lines: 221, digest: 0xbfd2_df49_c960_d057),
        Case(recording: "yei-quiet-handling.trace", options: [], lines: 1179, digest: 0x303f_0add_4324_71c1),
        Case(recording: "yei-quiet-handling.trace", options: ["--no-gate"], lines: 2715, digest: 0x7421_1924_08ab_e4d6),
        Case(recording: "yei-quiet-handling.trace", options: auto, lines: 1180, digest: 0x6cf0_665e_9aea_06a8),
        Case(recording: "synthetic-tilt-sweep.trace", options: [], lines: 1108, digest: 0x93ab_5807_ac37_efbe),
        Case(recording: "synthetic-tilt-sweep.trace", options: ["--no-gate"], lines: 1200, digest: 0x3a18_a8ef_fdea_5200),
        Case(recording: "synthetic-tilt-sweep.trace", options: auto, lines: 1108, digest: 0x59a4_c21a_3013_72fc),
    ]

    static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    @Test func digestIsFNV1a() {
        // Published FNV-1a 64 test vectors.
        #expect(Self.fnv1a(Array("".utf8)) == 0xcbf2_9ce4_8422_2325)
        #expect(Self.fnv1a(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
    }

    @Test(arguments: cases)
    func replayOutputIsUnchanged(_ golden: Case) throws {
        let path = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/\(golden.recording)").path
        let result = try TiltdProcess.run(["replay"] + golden.options + [path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").count
        let digest = Self.fnv1a(result.stdout.utf8)
        #expect(lines == golden.lines)
        #expect(digest == golden.digest, "digest is now 0x\(String(digest, radix: 16))")
    }
}
