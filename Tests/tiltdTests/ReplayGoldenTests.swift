import Foundation
import Testing
import TiltdTestSupport

/// Pins `tiltd replay`'s exact bytes on every recording, so that a speed-up
/// of the per-sample path cannot change an output digit or a gate decision
/// unnoticed. The digests are 64-bit FNV-1a of stdout: accelerometer-only
/// output (`--no-gyro`; `--shake-band 0.21` for a narrow band), fused output
/// with the recordings' gyros, and `--screen-orientation auto` (the screen
/// turns after the orientation's hold time, so its angles differ). The
/// accelerometer-only defaults (the shake weighting's memory, the 6 Hz
/// cutoff: docs/motion.md) shape every accelerometer-only digest; the
/// fused ones see the shake weighting only through `orientation`'s "no
/// decision while shaking". If an output change is intended, recompute
/// them and say why in the commit: `.build/debug/tiltd replay [options]
/// recordings/NAME | ` any FNV-1a 64 implementation (the test prints the
/// new value on failure).
@Suite(.timeLimit(.minutes(15))) struct ReplayGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let recording: String
        let options: [String]
        let lines: Int
        let digest: UInt64
        var testDescription: String { "\(recording) \(options.joined(separator: " "))" }
    }

    static let auto = ["--screen-orientation", "auto", "--neutral", "auto"]
    static let noGyro = ["--no-gyro"]
    static let cases: [Case] = [
        Case(recording: "ngimu-hand-motion.trace", options: noGyro, lines: 257, digest: 0xb533_0b27_8576_f301),
        Case(recording: "ngimu-hand-motion.trace", options: noGyro + ["--no-gate"], lines: 499, digest: 0xa6ea_03ab_2a99_8007),
        Case(recording: "ngimu-hand-motion.trace", options: noGyro + auto, lines: 256, digest: 0x8c63_63b2_cd91_4961),
        Case(recording: "yei-quiet-handling.trace", options: noGyro, lines: 1329, digest: 0xda59_1f9a_ae05_a4fd),
        Case(recording: "yei-quiet-handling.trace", options: noGyro + ["--no-gate"], lines: 2715, digest: 0xbb50_64d3_67e6_5f20),
        Case(recording: "yei-quiet-handling.trace", options: noGyro + auto, lines: 1334, digest: 0xd303_1b33_3005_7e9f),
        // A narrow shake band.
        Case(recording: "ngimu-hand-motion.trace", options: noGyro + ["--shake-band", "0.21"], lines: 225,
             digest: 0xeeb9_2962_a3f4_e313),
        Case(recording: "yei-quiet-handling.trace", options: noGyro + ["--shake-band", "0.21", "--no-gate"], lines: 2715,
             digest: 0xd930_c619_43da_404e),
        // Fused with the recordings' gyros (the default): the lines carry the
        // device motion (attitude … gyroBias), and the orientation is held
        // (OrientationTracker).
        Case(recording: "ngimu-hand-motion.trace", options: [], lines: 172, digest: 0x4d2c_59f2_0cf9_d843),
        Case(recording: "ngimu-hand-motion.trace", options: ["--no-gate"], lines: 499, digest: 0x3471_bb9d_c84b_f3c3),
        Case(recording: "yei-quiet-handling.trace", options: [], lines: 368, digest: 0xc1df_cf9d_d849_565e),
        Case(recording: "yei-quiet-handling.trace", options: ["--no-gate"], lines: 2715, digest: 0x12ce_9f93_ccc9_d9ff),
        Case(recording: "synthetic-tilt-sweep.trace", options: [], lines: 1107, digest: 0x30b6_ad11_286d_af02),
        Case(recording: "synthetic-tilt-sweep.trace", options: ["--no-gate"], lines: 1200, digest: 0x4abd_efb7_4f18_2550),
        Case(recording: "synthetic-tilt-sweep.trace", options: auto, lines: 1106, digest: 0x224e_b410_bd2b_f473),
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
