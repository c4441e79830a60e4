import Foundation
import Testing
import TiltdTestSupport
import Web

/// `/tiltd.js` in headless Chromium: tiltd's states as W3C
/// `deviceorientation` and `devicemotion` events, checked on
/// rotations whose angles are known.
@Suite(.serialized, .timeLimit(.minutes(15))) struct WebTiltdScriptTests {
    /// Loads /tiltd.js into a page of the in-process server and runs `body`.
    static func withScript(_ body: @escaping @Sendable (WebDevTools, WebDevTools.Page) throws -> Void) async throws {
        try await WebServerTests.withServer { _, port in
            let tools = try WebDevTools(profile: try TestPaths.temporaryDirectory())
            let page = try tools.open("http://127.0.0.1:\(port)/")
            try tools.waitFor(page, "document.readyState === 'complete' && document.getElementById('knob') !== null")
            _ = try tools.evaluate(page, """
                new Promise((resolve, reject) => { const s = document.createElement('script');
                  s.src = '/tiltd.js'; s.onload = resolve; s.onerror = reject; document.head.appendChild(s); })
                """)
            try body(tools, page)
        }
    }

    /// alpha, beta, gamma of `tiltd.orientation(state)`.
    static func angles(_ tools: WebDevTools, _ page: WebDevTools.Page, _ state: String) throws -> [Double?] {
        let value = try tools.evaluate(page, "(o => [o.alpha, o.beta, o.gamma])(tiltd.orientation(\(state)))")
        return (value as? [Any] ?? []).map { $0 as? Double }
    }

    /// A state with the attitude quaternion of a turn of `degrees` about
    /// tiltd's axis `axis` (0 x, 1 y, 2 z).
    static func turned(_ degrees: Double, about axis: Int) -> String {
        let half = degrees / 2 * .pi / 180
        var q = [cos(half), 0, 0, 0]
        q[axis + 1] = sin(half)
        return #"{"t":1,"roll":0,"pitch":0,"attitude":[\#(q.map { String($0) }.joined(separator: ","))]}"#
    }

    static func expect(_ tools: WebDevTools, _ page: WebDevTools.Page, _ state: String, _ expected: [Double?],
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = try angles(tools, page, state)
        #expect(close(actual, expected), "\(state): \(actual)", sourceLocation: sourceLocation)
    }

    static func close(_ actual: [Double?], _ expected: [Double?]) -> Bool {
        actual.count == expected.count && zip(actual, expected).allSatisfy { a, e in
            switch (a, e) {
            case (nil, nil): true
            case let (a?, e?): abs(a - e) < 1e-6
            default: false
            }
        }
    }

    @Test(.enabled(if: WebBrowser.executable != nil))
    func attitudeGivesW3CAnglesInTheirRanges() async throws {
        try await Self.withScript { tools, page in
            // Flat, face up, where it started.
            try Self.expect(tools, page, Self.turned(0, about: 0), [0, 0, 0])
            // Top edge raised by 45° (tiltd's x points to the left edge).
            try Self.expect(tools, page, Self.turned(-45, about: 0), [0, 45, 0])
            // Past upright, 135°: beta goes on beyond 90 (range [-180, 180)).
            try Self.expect(tools, page, Self.turned(-135, about: 0), [0, 135, 0])
            // Left edge down by 30° (a turn about tiltd's y, toward the bottom
            // edge): W3C's gamma is positive with the right edge down.
            try Self.expect(tools, page, Self.turned(30, about: 1), [0, 0, -30])
            // Turned 30° counterclockwise seen from above: alpha 30.
            try Self.expect(tools, page, Self.turned(30, about: 2), [30, 0, 0])
            // Clockwise: alpha stays in [0, 360).
            try Self.expect(tools, page, Self.turned(-30, about: 2), [330, 0, 0])
        }
    }

    @Test(.enabled(if: WebBrowser.executable != nil))
    func accelerometerOnlyStatesGiveBetaAndGammaWithoutHeading() async throws {
        try await Self.withScript { tools, page in
            let angles = try Self.angles(tools, page, #"{"t":1,"roll":0.3,"pitch":0.2}"#)
            #expect(Self.close(angles, [nil, 0.2 * 180 / .pi, 0.3 * 180 / .pi]), "\(angles)")
            let motion = try tools.evaluate(page, #"tiltd.motion({"t":1,"roll":0.3,"pitch":0.2}, 10) === null"#)
            #expect(motion as? Bool == true)
        }
    }

    @Test(.enabled(if: WebBrowser.executable != nil))
    func dispatchSendsRealEventsWithMotionInW3CUnits() async throws {
        try await Self.withScript { tools, page in
            let captured = try tools.evaluate(page, """
                (() => {
                  const seen = [];
                  window.addEventListener('deviceorientation', e => seen.push(['o', e instanceof DeviceOrientationEvent,
                    e.alpha, e.beta, e.gamma, e.absolute]));
                  window.addEventListener('devicemotion', e => seen.push(['m', e instanceof DeviceMotionEvent,
                    e.acceleration.x, e.accelerationIncludingGravity.z, e.rotationRate.alpha, e.rotationRate.beta,
                    e.interval]));
                  const state = t => ({ t: t, roll: 0, pitch: 0, attitude: [1, 0, 0, 0], gravity: [0, 0, -1],
                    userAcceleration: [0.1, 0, 0], rotationRate: [0.5, 0, 1], rest: false, gyroBias: [0, 0, 0] });
                  tiltd.dispatch(state(1.0));
                  tiltd.dispatch(state(1.01));
                  return seen;
                })()
                """) as? [[Any]] ?? []
            #expect(captured.count == 4, "\(captured)")
            guard captured.count == 4 else { return }
            #expect(captured[2][0] as? String == "o" && captured[2][1] as? Bool == true)
            #expect(captured[2][5] as? Bool == false, "heading is relative")
            let motion = captured[3]
            #expect(motion[0] as? String == "m" && motion[1] as? Bool == true)
            // Pushed toward tiltd's left edge: W3C's x points right.
            #expect(abs((motion[2] as? Double ?? 0) + 0.1 * 9.80665) < 1e-9)
            // Lying flat: accelerationIncludingGravity reads +g on z.
            #expect(abs((motion[3] as? Double ?? 0) - 9.80665) < 1e-9)
            // rad/s to deg/s, about z (alpha) and x (beta, sign turned).
            #expect(abs((motion[4] as? Double ?? 0) - 180 / .pi) < 1e-9)
            #expect(abs((motion[5] as? Double ?? 0) + 0.5 * 180 / .pi) < 1e-9)
            #expect(abs((motion[6] as? Double ?? 0) - 10) < 1e-6, "interval in ms from the states' times")
        }
    }
}
