// FrameBench: per-frame cost of knob rendering (release build, one core).
//
//   swift run -c release FrameBench [--frames N] [--sizes 64,128,256,512]
//
// For each size: the MTZ compositor (two turned shines over the base), the
// TLTiltSlider-style per-frame redraw, and libpng encoding of a composed
// frame. Each frame is timed alone with the monotonic clock; the median of
// all frames is reported. Shine poses sweep a slow figure-eight so every
// frame turns both shines differently. One `RESULT` line per measurement is
// printed for bench/frames.sh to collect.
import Foundation
import Knob
import KnobPNG

func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func median(_ values: [UInt64]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? Double(s[s.count / 2]) : Double(s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Times `body` once per frame index and returns the median in nanoseconds.
func timeFrames(_ count: Int, _ body: (Int) -> Void) -> Double {
    for i in 0..<min(count, 20) { body(i) }  // warm caches and branch predictors
    var samples = [UInt64](repeating: 0, count: count)
    for i in 0..<count {
        let t0 = nowNanoseconds()
        body(i)
        samples[i] = nowNanoseconds() - t0
    }
    return median(samples)
}

func pose(_ i: Int) -> (roll: Double, pitch: Double) {
    let t = Double(i) / 60
    return (0.6 * sin(t * 1.3), 0.4 * sin(t * 2.1 + 0.5))
}

var frames = 2000
var sizes = [64, 128, 256, 512]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let a = arguments.next() {
    switch a {
    case "--frames": frames = Int(arguments.next() ?? "") ?? frames
    case "--sizes": sizes = (arguments.next() ?? "").split(separator: ",").compactMap { Int($0) }
    default:
        FileHandle.standardError.write("FrameBench: unknown argument \(a); use --frames N --sizes 64,128\n".data(using: .utf8)!)
        exit(2)
    }
}

var sink = 0
print("size  composite µs  composite fps  tltilt µs  tltilt fps  png-encode µs  png bytes")
for size in sizes {
    let compositor = KnobCompositor(size: size)
    var frame = compositor.makeFrame()
    let composite = timeFrames(frames) { i in
        let p = pose(i)
        compositor.compose(ShinePair(roll: p.roll, pitch: p.pitch), into: &frame)
        sink &+= Int(frame.pixels[size * size * 2 + size * 2])
    }
    let tl = TLTiltRenderer(geometry: KnobGeometry(frameSize: size))
    let tlFrames = max(50, frames / 20)
    let tltilt = timeFrames(tlFrames) { i in
        let p = pose(i)
        tl.render(roll: p.roll, pitch: p.pitch, into: &frame)
        sink &+= Int(frame.pixels[size * size * 2 + size * 2])
    }
    compositor.compose(ShinePair(roll: 0.2, pitch: 0.1), into: &frame)
    var pngBytes = 0
    let png = timeFrames(max(20, frames / 20)) { i in
        let p = pose(i)
        compositor.compose(ShinePair(roll: p.roll, pitch: p.pitch), into: &frame)
        pngBytes = (try? PNGWriter.encode(frame).count) ?? -1
    }
    // PNG time excludes the composite measured above.
    let pngOnly = max(0, png - composite)
    print(String(format: "%4d  %12.1f  %13.0f  %9.1f  %10.0f  %13.1f  %9d",
                 size, composite / 1000, 1e9 / composite, tltilt / 1000, 1e9 / tltilt, pngOnly / 1000, pngBytes))
    print(String(format: "RESULT swift-composite %d %.1f", size, composite / 1000))
    print(String(format: "RESULT swift-tltilt %d %.1f", size, tltilt / 1000))
    print(String(format: "RESULT swift-png-encode %d %.1f", size, pngOnly / 1000))
}
if sink == 42 { print("") }  // keep the work observable
