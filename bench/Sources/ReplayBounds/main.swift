// The two lower bounds of `tiltd replay FILE > out` (issue 16): the same
// job with the parse alone and with the JSON writing alone.
//
//   ReplayBounds parse FILE    reads FILE block by block exactly as `tiltd
//                              replay` does (RecordingReader), no pipeline
//   ReplayBounds write LINES   formats LINES knob states with the same
//                              appendJSONLine and writes them to stdout in
//                              64 KiB chunks, as StdoutSink does
//
// Each prints `RESULT <mode>_seconds S` (measured inside, so process start is
// left out) on stderr, so stdout can go to /dev/null. Used by bench/goals.sh.
import Glibc
import Knob
import Motion
import Platform
import Traces

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

func report(_ key: String, _ seconds: Double) {
    let line = "RESULT \(key)_seconds \(seconds)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, arguments[1] == "parse" || arguments[1] == "write" else {
    let usage = "usage: ReplayBounds parse FILE | ReplayBounds write LINES\n"
    _ = usage.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    exit(2)
}

if arguments[1] == "parse" {
    let start = now()
    let reader = try RecordingReader(path: arguments[2])
    var checksum = 0.0
    var count = 0
    while let block = try reader.next() {
        for reading in block.readings {
            checksum += reading.acceleration.x + Double(reading.timestampNanoseconds & 1)
        }
        count += block.readings.count
    }
    report("parse", now() - start)
    if checksum.isNaN || count < 0 { exit(1) }  // keeps the sum alive
} else {
    guard let lines = Int(arguments[2]), lines >= 0 else { exit(2) }
    // States like a replay's: 100 Hz timestamps, slowly swinging angles.
    let states = (0..<lines).map { i -> KnobState in
        let t = Double(i) * 0.01
        let roll = 0.6 * sin(t * 0.9) + 0.01 * sin(Double(i))
        let pitch = 0.8 + 0.4 * sin(t * 0.37)
        return KnobState(tilt: TiltState(timestampNanoseconds: Int64(i) * 10_000_000, roll: roll, pitch: pitch,
                                         orientation: i % 1000 < 500 ? .normal : nil),
                         shines: ShinePair(first: Shine(rotation: roll * 1.3, opacity: 0.75 + 0.2 * sin(t)),
                                           second: Shine(rotation: -roll, opacity: 0.5 + 0.4 * cos(t))))
    }
    let start = now()
    var buffer: [UInt8] = []
    buffer.reserveCapacity((1 << 16) + 512)
    for state in states {
        state.appendJSONLine(to: &buffer)
        if buffer.count >= 1 << 16 {
            _ = buffer.withUnsafeBytes { FileDescriptorWriter.writeAll(STDOUT_FILENO, $0) }
            buffer.removeAll(keepingCapacity: true)
        }
    }
    _ = buffer.withUnsafeBytes { FileDescriptorWriter.writeAll(STDOUT_FILENO, $0) }
    report("write", now() - start)
}
