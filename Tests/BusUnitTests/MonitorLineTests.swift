@testable import Bus
import Foundation
import Knob
import Motion
import Testing
import TiltdTestSupport
import Traces

/// `tiltd monitor --json` rebuilds each state from the service's properties:
/// for every state of every bundled recording, its line is `tiltd run`'s
/// line (the orientation, face-up and face-down included), plus `tilt`.
@Suite(.timeLimit(.minutes(2))) struct MonitorLineTests {
    static let recordings = ["ngimu-hand-motion.trace", "synthetic-tilt-sweep.trace", "yei-quiet-handling.trace"]

    @Test(arguments: recordings) func monitorJSONIsRunsLinePlusTilt(_ name: String) throws {
        let path = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/\(name)").path
        var pipeline = TiltPipeline(configuration: PipelineConfiguration())
        let states = try Recording.load(path: path).readings.compactMap { pipeline.process($0).map(KnobState.init(tilt:)) }
        #expect(states.count > 50, "\(name) has states")
        var mismatches: [String] = []
        for state in states {
            let properties = TiltProperties(hasAccelerometer: true, state: state)
            var values: [String: BusValue] = [:]
            for property in TiltProperties.names { values[property] = properties.value(of: property) }
            let runLine = String(decoding: EncodedState(state).line, as: UTF8.self)
            let tilt = TiltPosition(roll: state.tilt.roll, pitch: state.tilt.pitch).rawValue
            let expected = String(runLine.dropLast(2)) + #","tilt":""# + tilt + #""}"#
            let line = TiltMonitorFormat.json.state(values)
            if line != expected, mismatches.count < 3 { mismatches.append("run: \(runLine)monitor: \(line)") }
        }
        #expect(mismatches.isEmpty, "\(name):\n\(mismatches.joined(separator: "\n"))")
    }

    /// The recordings include a device lying flat, so the check above covers
    /// the orientation that only `Facing` carries.
    @Test func theRecordingsLieFlatSomewhere() throws {
        var flat = 0
        for name in Self.recordings {
            let path = TiltdProcess.repositoryRoot.appendingPathComponent("recordings/\(name)").path
            var pipeline = TiltPipeline(configuration: PipelineConfiguration())
            flat += try Recording.load(path: path).readings.compactMap { pipeline.process($0) }.count { $0.facing != nil }
        }
        #expect(flat > 0)
    }
}
