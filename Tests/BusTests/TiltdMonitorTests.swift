import Bus
import Foundation
import Knob
import Motion
import Testing

/// `tiltd monitor --session --json` against a TiltService that starts after
/// it, stops and starts again.
@Suite(.enabled(if: PrivateBus.available), .timeLimit(.minutes(15)))
struct TiltdMonitorTests {
    @Test func monitorPrintsChangesAndSurvivesARestart() async throws {
        let bus = try PrivateBus()
        let monitor = try ChildProcess(ChildProcess.tiltd, ["monitor", "--session", "--json"],
                                       environment: bus.environment)
        #expect(monitor.waitFor { monitor.stderr.contains("waiting for net.tiltd.Tilt") }, "\(monitor.stderr)")
        for round in 0..<2 {
            let service = try TiltService(bus: .address(bus.address), properties: TiltProperties(
                hasAccelerometer: true, device: "iio:device\(round) (test)"), onClaimCountChanged: { _ in },
                report: { _ in })
            #expect(monitor.waitFor { monitor.stdout.contains(#""device":"iio:device\#(round) (test)""#) },
                    "\(monitor.stdout)\n\(monitor.stderr)")
            // A state the monitor must print in tiltd run's format, plus tilt.
            let state = KnobState(tilt: TiltState(timestampNanoseconds: 2_000_000_000 + Int64(round) * 1_000_000,
                                                  roll: 0.125 + Double(round), pitch: 1.5, orientation: .normal))
            let expected = String(state.jsonLine.dropLast(2)) + #","tilt":"vertical"}"#
            var index = 0
            let printed = monitor.waitFor {
                // Keep emitting: the claim may still be on its way.
                service.emit(KnobState(tilt: TiltState(timestampNanoseconds: Int64(index), roll: 0, pitch: 0,
                                                       orientation: nil)))
                service.emit(state)
                index += 1
                return monitor.stdoutLines.contains(expected)
            }
            #expect(printed, "\(expected) not in:\n\(monitor.stdout)")
            await service.stop()
            #expect(monitor.waitFor { monitor.stdoutLines.filter { $0 == #"{"event":"vanished"}"# }.count == round + 1 },
                    "\(monitor.stdout)")
        }
        #expect(monitor.stop(with: SIGINT) == 0, "\(monitor.stderr)")
    }
}
