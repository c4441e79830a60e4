import Controls
import Testing

/// CONTROLS.md §2's model checks.
@Suite(.timeLimit(.minutes(2))) struct RecordingRingTests {
    @Test func aFourAndAHalfSecondHoldOfFortyFiveIsATenth() {
        var ring = RecordingRing(durationSeconds: 45)
        ring.press(atSeconds: 3)
        ring.release(atSeconds: 7.5)
        #expect(abs(ring.total - 0.1) < 1e-12)
        #expect(abs(ring.total * 360 - 36) < 1e-9)
    }

    @Test func newestSegmentIsPackedFromThePathStart() {
        var ring = RecordingRing(durationSeconds: 10)
        ring.press(atSeconds: 0); ring.release(atSeconds: 2)
        ring.press(atSeconds: 5); ring.release(atSeconds: 8)
        let spans = ring.spans
        #expect(spans.count == 2)
        #expect(abs(spans[0].range.lowerBound) < 1e-12 && abs(spans[0].range.upperBound - 0.3) < 1e-12)
        #expect(abs(spans[1].range.lowerBound - 0.3) < 1e-12 && abs(spans[1].range.upperBound - 0.5) < 1e-12)
        #expect(spans[0].colour == ring.segments[1].colour)  // newest first
        #expect(abs(ring.total - 0.5) < 1e-12)
    }

    @Test func holdingGrowsLinearlyAndReleaseFreezesIt() {
        var ring = RecordingRing(durationSeconds: 10)
        ring.press(atSeconds: 1)
        ring.advance(toSeconds: 2)
        #expect(abs(ring.total - 0.1) < 1e-12)
        ring.advance(toSeconds: 3.5)
        #expect(abs(ring.total - 0.25) < 1e-12)
        ring.release(atSeconds: 3.5)
        ring.advance(toSeconds: 9)
        #expect(abs(ring.total - 0.25) < 1e-12)
        #expect(ring.phase == .idle)
    }

    @Test func completesWhenTheDurationIsUsedAndThenIgnoresPresses() {
        var ring = RecordingRing(durationSeconds: 10)
        ring.press(atSeconds: 0); ring.release(atSeconds: 9)
        #expect(abs(ring.total - 0.9) < 1e-12)
        ring.press(atSeconds: 20)
        ring.advance(toSeconds: 20.999)
        #expect(!ring.isComplete)
        ring.advance(toSeconds: 21)
        #expect(ring.isComplete)
        #expect(abs(ring.total - 1) < 1e-12)
        let done = ring
        ring.release(atSeconds: 25)
        ring.press(atSeconds: 26)
        ring.advance(toSeconds: 30)
        #expect(ring.segments == done.segments && ring.isComplete)
    }

    @Test func aHoldPastTheEndStopsAtTheWholeCircle() {
        var ring = RecordingRing(durationSeconds: 10)
        ring.press(atSeconds: 0)
        ring.release(atSeconds: 60)
        #expect(ring.total == 1 && ring.isComplete)
    }

    @Test func aZeroLengthTapStillAddsASegment() {
        var ring = RecordingRing(durationSeconds: 10)
        ring.press(atSeconds: 4); ring.release(atSeconds: 4)
        #expect(ring.segments.count == 1 && ring.segments[0].length == 0)
        #expect(ring.phase == .idle)
    }

    @Test func coloursAreSeededHSBInTheOriginalsRanges() {
        var a = RingColourGenerator(seed: 7), b = RingColourGenerator(seed: 7), c = RingColourGenerator(seed: 8)
        var differ = false
        for _ in 0..<200 {
            let x = a.nextColour()
            #expect(x == b.nextColour())
            if x != c.nextColour() { differ = true }
            // Brightness (the largest channel) and saturation (1 − smallest /
            // largest) are both 0.5 + b/256 with b in 0…127.
            let hi = max(x.red, x.green, x.blue), lo = min(x.red, x.green, x.blue)
            #expect(hi >= 0.5 && hi <= 0.5 + 127.0 / 256 + 1e-12)
            #expect(1 - lo / hi >= 0.5 - 1e-12 && 1 - lo / hi <= 0.5 + 127.0 / 256 + 1e-12)
        }
        #expect(differ)
    }
}
