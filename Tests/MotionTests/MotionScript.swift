import Foundation
@testable import Motion

/// Scripted motion for the fusion's tests: readings computed from a known
/// attitude, so every state can be compared with the truth.
enum MotionScript {
    static let g = 9.81
    static let stepNanoseconds: Int64 = 10_000_000  // 100 Hz

    /// The unit "up" vector of a CoreMotion-style (roll, pitch) in the device frame.
    static func up(roll: Double, pitch: Double) -> SIMD3<Double> {
        SIMD3(cos(pitch) * sin(roll), -sin(pitch), cos(pitch) * cos(roll))
    }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// Readings of a scripted attitude `angles(t)` plus a linear acceleration
    /// `shake(t)` (m/s²); the gyro is the body rate that turns "up" as the
    /// script does: ω = u̇ × u (so that u̇ = u × ω), plus `gyroBias`.
    static func script(seconds: Double, gyroBias: SIMD3<Double> = .zero,
                       angles: (Double) -> (roll: Double, pitch: Double),
                       shake: (Double) -> SIMD3<Double> = { _ in .zero }) -> [(Reading, SIMD3<Double>)] {
        let count = Int(seconds * 100)
        return (0..<count).map { i in
            let t = Double(i) / 100
            let now = angles(t)
            let u = up(roll: now.roll, pitch: now.pitch)
            let h = 1e-5
            let later = angles(t + h), earlier = angles(t - h)
            let derivative = (up(roll: later.roll, pitch: later.pitch) - up(roll: earlier.roll, pitch: earlier.pitch))
                / (2 * h)
            let rate = cross(derivative, u) + gyroBias
            let reading = Reading(timestampNanoseconds: Int64(i) * stepNanoseconds,
                                  acceleration: u * g + shake(t), rotationRate: rate)
            return (reading, u)
        }
    }

    /// The angle in degrees between each state's gravity direction and the truth, from `after` seconds on.
    static func errors(_ samples: [(Reading, SIMD3<Double>)], gyro: Bool, after: Double = 0) -> [Double] {
        var pipeline = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, gyroEnabled: gyro))
        return samples.compactMap { reading, truth in
            guard let state = pipeline.process(reading),
                  Double(reading.timestampNanoseconds) * 1e-9 >= after else { return nil }
            let estimate = up(roll: state.roll, pitch: state.pitch)
            return acos(max(-1, min(1, (estimate * truth).sum()))) * 180 / .pi
        }
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
}
