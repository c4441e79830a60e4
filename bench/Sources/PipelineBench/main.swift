// Benchmark of tiltd's per-sample path: robust low-pass filter, orientation
// classifier, screen mapping, roll/pitch with continuity, change gate and the
// two shines, over a few million synthetic-but-realistic samples.
//
// Usage: PipelineBench [samples] [runs] [scenario]   (defaults 4000000, 7, all)
// Prints the median samples/s per scenario and a `RESULT key value` line per
// figure for bench/pipeline.sh, which runs the Python peer beside it.
//
// Build in release: swift build -c release --package-path bench
import Foundation
import Knob
import Motion

/// Deterministic noise (xorshift64*), identical to bench/pipeline_peer.py's
/// generator is not needed: the peer draws its own noise of the same size.
struct Noise {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        let bits = (state &* 0x2545_F491_4F6C_DD1D) >> 11
        return Double(bits) / Double(1 << 53) * 2 - 1  // [-1, 1)
    }
}

/// 100 Hz samples of a hand-held device: slow roll and pitch swings, sensor
/// noise of ±0.05 m/s², and a 0.5 s hard shake (±15 m/s²) every minute.
/// With `jitter`, timestamps wander ±0.2 ms around the 10 ms grid, as
/// polled devices' do, so the filter recomputes its alpha every sample.
/// With `gyro`, each reading carries the body rate that turns "up" as the
/// angles do (ω = u̇ × u, by a central difference) plus ±0.01 rad/s of
/// noise, so the fusion filter runs on every sample.
func makeReadings(count: Int, jitter: Bool, gyro: Bool = false) -> [Reading] {
    var noise = Noise()
    var readings: [Reading] = []
    readings.reserveCapacity(count)
    for i in 0..<count {
        let t = Double(i) * 0.01
        func up(_ t: Double) -> SIMD3<Double> {
            let roll = 0.6 * sin(2 * Double.pi * t / 7.3) + 0.2 * sin(2 * Double.pi * t / 1.1)
            let pitch = 0.5 + 0.4 * sin(2 * Double.pi * t / 5.9)
            return SIMD3(cos(pitch) * sin(roll), -sin(pitch), cos(pitch) * cos(roll))
        }
        let u = up(t)
        var a = u * 9.81
        a += SIMD3(noise.next(), noise.next(), noise.next()) * 0.05
        if t.truncatingRemainder(dividingBy: 60) >= 30 && t.truncatingRemainder(dividingBy: 60) < 30.5 {
            a += SIMD3(noise.next(), noise.next(), noise.next()) * 15
        }
        var ns = Int64(i) * 10_000_000
        if jitter { ns += Int64(noise.next() * 200_000) }
        var rate: SIMD3<Double>? = nil
        if gyro {
            let d = (up(t + 1e-4) - up(t - 1e-4)) / 2e-4
            rate = SIMD3(d.y * u.z - d.z * u.y, d.z * u.x - d.x * u.z, d.x * u.y - d.y * u.x)
                + SIMD3(noise.next(), noise.next(), noise.next()) * 0.01
        }
        readings.append(Reading(timestampNanoseconds: ns, acceleration: a, rotationRate: rate))
    }
    return readings
}

/// One pass: every sample through the pipeline, shines for the states that pass.
@inline(never)
func run(_ readings: [Reading], configuration: PipelineConfiguration) -> (passed: Int, checksum: Double) {
    var pipeline = TiltPipeline(configuration: configuration)
    var passed = 0
    var checksum = 0.0
    for reading in readings {
        if let tilt = pipeline.process(reading) {
            let state = KnobState(tilt: tilt)
            passed += 1
            checksum += state.shines.first.rotation + state.shines.second.opacity
        }
    }
    return (passed, checksum)
}

/// CPU time this thread has used, in seconds: on a machine shared with
/// other work it shows what one core does, whatever the wall clock says.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
        : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 4_000_000 : 4_000_000
let runs = max(1, arguments.count > 2 ? Int(arguments[2]) ?? 7 : 7)
let only = arguments.count > 3 ? arguments[3] : nil

let scenarios: [(key: String, title: String, jitter: Bool, gyro: Bool, configuration: PipelineConfiguration)] = [
    ("swift_pipeline", "gate on, regular 100 Hz timestamps", false, false, PipelineConfiguration()),
    ("swift_pipeline_jitter", "gate on, jittered timestamps", true, false, PipelineConfiguration()),
    ("swift_pipeline_nogate", "gate off (every sample a state)", false, false, PipelineConfiguration(gateEnabled: false)),
    ("swift_pipeline_auto", "gate on, --screen-orientation auto --neutral auto", false, false,
     PipelineConfiguration(screenOrientation: .auto, neutral: .auto)),
    ("swift_pipeline_fused", "gate on, gyro fused (AttitudeFusion)", false, true, PipelineConfiguration()),
    ("swift_pipeline_fused_jitter", "gate on, gyro fused, jittered timestamps", true, true, PipelineConfiguration()),
]

print("PipelineBench: \(count) samples, median of \(runs) runs, one core, release build")
for scenario in scenarios where only == nil || scenario.key == only {
    let readings = makeReadings(count: count, jitter: scenario.jitter, gyro: scenario.gyro)
    var rates: [Double] = []
    var cpuRates: [Double] = []
    var passed = 0
    var checksum = 0.0
    for _ in 0..<runs {
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = threadCPUSeconds()
        let result = run(readings, configuration: scenario.configuration)
        let cpu = threadCPUSeconds() - cpuStart
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        rates.append(Double(count) / seconds)
        cpuRates.append(Double(count) / cpu)
        passed = result.passed
        checksum = result.checksum
    }
    let rate = median(rates)
    let cpuRate = median(cpuRates)
    print("  \(scenario.title.padding(toLength: 50, withPad: " ", startingAt: 0)) "
          + String(format: "%6.2f M samples/s wall, %6.2f M per CPU-second  (%d states, checksum %.3f)",
                   rate / 1e6, cpuRate / 1e6, passed, checksum))
    print("RESULT \(scenario.key) \(rate)")
    print("RESULT \(scenario.key)_cpu \(cpuRate)")
}
