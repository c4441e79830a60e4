// Cost per sample of tiltd's 6-axis fusion (`AttitudeFusion`) on real data,
// for bench/accuracy.sh to print beside VQF's own C++ time on the same
// samples (bench/broad_accuracy.py).
//
// Usage: AttitudeBench FILE.csv... (BROAD's format unzipped:
// time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z)
// For each file: the filter alone (update per sample, the samples' own Δt),
// then the whole pipeline fused and accelerometer-only (--no-gate), each the
// best of 7 passes, in ns per sample; then RESULT lines with the medians
// over the files.
//
// Build in release: swift build -c release --package-path bench --product AttitudeBench
import Foundation
import Motion

func readCSV(_ path: String) -> [(Double, SIMD3<Double>, SIMD3<Double>)] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("AttitudeBench: cannot read \(path)\n".utf8))
        exit(1)
    }
    return text.split(separator: "\n").dropFirst().compactMap { line in
        let v = line.split(separator: ",").compactMap { Double($0) }
        guard v.count >= 7 else { return nil }
        return (v[0], SIMD3(v[1], v[2], v[3]), SIMD3(v[4], v[5], v[6]))
    }
}

func nanoseconds(_ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<7 {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    return best
}

@inline(never) func consume(_ v: SIMD3<Double>) {
    if v.x.isNaN { print("nan") }
}

var filterCosts: [Double] = [], fusedCosts: [Double] = [], plainCosts: [Double] = []
for path in CommandLine.arguments.dropFirst() {
    let samples = readCSV(path)
    let intervals = samples.indices.map { $0 == 0 ? 0 : samples[$0].0 - samples[$0 - 1].0 }
    let filter = nanoseconds {
        var fusion = AttitudeFusion()
        fusion.restart(acceleration: samples[0].1)
        var sum = SIMD3<Double>()
        for i in 1..<samples.count {
            sum += fusion.update(acceleration: samples[i].1, rotationRate: samples[i].2, intervalSeconds: intervals[i])
        }
        consume(sum)
    } / Double(samples.count)
    let readings = samples.map { Reading(timestampNanoseconds: Int64(($0.0 * 1e9).rounded()), acceleration: $0.1,
                                          rotationRate: $0.2) }
    func pipeline(gyro: Bool) -> Double {
        nanoseconds {
            var p = TiltPipeline(configuration: PipelineConfiguration(gateEnabled: false, gyroEnabled: gyro))
            var sum = 0.0
            for reading in readings { sum += p.process(reading)!.roll }
            consume(SIMD3(sum, 0, 0))
        } / Double(readings.count)
    }
    let fused = pipeline(gyro: true), plain = pipeline(gyro: false)
    filterCosts.append(filter)
    fusedCosts.append(fused)
    plainCosts.append(plain)
    print("\((path as NSString).lastPathComponent): AttitudeFusion \(String(format: "%.0f", filter)) ns/sample, "
          + "pipeline fused \(String(format: "%.0f", fused)), accelerometer-only \(String(format: "%.0f", plain))")
}
func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
guard !filterCosts.isEmpty else { print("usage: AttitudeBench FILE.csv..."); exit(2) }
print("RESULT attitude_fusion_ns_per_sample=\(String(format: "%.0f", median(filterCosts)))")
print("RESULT pipeline_fused_ns_per_sample=\(String(format: "%.0f", median(fusedCosts)))")
print("RESULT pipeline_accelerometer_only_ns_per_sample=\(String(format: "%.0f", median(plainCosts)))")
