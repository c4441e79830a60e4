@testable import Devices
import Motion
import Testing

/// Paced buffered capture (`Setting.latency`) over `FakeIIO` on a virtual
/// clock: how many scans a wake-up reads, that every scan still arrives in
/// order with its own timestamp, the per-sample switch for DSU clients, and
/// the slower pace at rest.
@Suite(.timeLimit(.minutes(2))) struct CapturePacingTests {
    /// A 200 Hz accelerometer on the virtual clock whose x and y counts
    /// change with every scan.
    static func fake(watermark: Bool = false) -> FakeIIO {
        let accelerometer = FakeIIO.accelerometer("iio:device0", name: "accel_3d", rateHertz: "200")
        if watermark { accelerometer.bufferAttributes = ["length": "2", "watermark": "1"] }
        let fake = FakeIIO([accelerometer])
        fake.virtualNanoseconds = 0
        fake.scanPeriodNanoseconds = 5_000_000
        fake.rawOfScan = { scan, channel in
            switch channel {
            case "accel_x": Int16(truncatingIfNeeded: (scan * 37) % 400 - 200)
            case "accel_y": Int16(truncatingIfNeeded: (scan * 11) % 300 - 150)
            default: 1000
            }
        }
        return fake
    }

    /// One delivered sample and the virtual time it reached the consumer.
    struct Delivery {
        var sample: CapturedSample
        var atNanoseconds: Int64
    }

    /// Opens a session over `fake` and collects `count` samples; `each`
    /// sees each one as it is delivered.
    static func capture(_ fake: FakeIIO, milliseconds: Double, count: Int, demand: CaptureDemand = CaptureDemand(),
                        gyro: Bool = false, each: (CapturedSample) -> Void = { _ in }) throws -> [Delivery] {
        let configuration = CaptureConfiguration(uri: "fake:", mode: .buffer, gyroEnabled: gyro,
                                                 latency: CaptureLatency(budgetSeconds: milliseconds / 1000))
        let session = try CaptureSession(configuration: configuration, backend: fake, demand: demand, waiting: fake) { _ in }
        defer { session.close() }
        var delivered: [Delivery] = []
        _ = try session.run(shouldStop: { delivered.count >= count }) { sample in
            delivered.append(Delivery(sample: sample, atNanoseconds: fake.nanoseconds()))
            each(sample)
            return delivered.count < count
        }
        return delivered
    }

    @Test func theScansPerWakeFollowTheBudgetAndTheRate() {
        #expect(CaptureLatency.scansPerWake(rateHertz: 200, budgetSeconds: 0.016) == 3)
        #expect(CaptureLatency.scansPerWake(rateHertz: 250, budgetSeconds: 0.016) == 4)
        #expect(CaptureLatency.scansPerWake(rateHertz: 1000, budgetSeconds: 0.016) == 16)
        #expect(CaptureLatency.scansPerWake(rateHertz: 100, budgetSeconds: 0.016) == 1)
        #expect(CaptureLatency.scansPerWake(rateHertz: 200, budgetSeconds: 0) == 1)
        #expect(CaptureLatency.scansPerWake(rateHertz: 200, budgetSeconds: CaptureLatency.restBudgetSeconds) == 50)
        #expect(CaptureLatency.scansPerWake(rateHertz: 200, budgetSeconds: CaptureLatency.settledBudgetSeconds) == 100)
        #expect(CaptureLatency.scansPerWake(rateHertz: 100_000, budgetSeconds: 1) == CaptureLatency.maximumScansPerWake)
        // What `list` says: the range a wake-up once per budget reads.
        #expect(CaptureLatency.scansPerWakeText(rateHertz: 200, budgetSeconds: 0.016) == "3–4 scans")
        #expect(CaptureLatency.scansPerWakeText(rateHertz: 250, budgetSeconds: 0.016) == "4 scans")
        #expect(CaptureLatency.scansPerWakeText(rateHertz: 100, budgetSeconds: 0.016) == "1–2 scans")
        #expect(CaptureLatency.scansPerWakeText(rateHertz: 100, budgetSeconds: 0.010) == "1 scan")
        #expect(CaptureLatency.scansPerWakeText(rateHertz: 100, budgetSeconds: 0.005) == "1 scan")
        #expect(CaptureLatency.scansPerWakeText(rateHertz: 12, budgetSeconds: 0.016) == "1 scan")
        #expect(CaptureLatency.scansPerWakeText(rateHertz: 200, budgetSeconds: CaptureLatency.restBudgetSeconds)
            == "50 scans")
    }

    /// Moving, then at rest after 1 s without a state, then settled after 10 s.
    @Test func theRestBudgetGrowsWithTheTimeStill() {
        #expect(CaptureLatency.restBudgetSeconds(stillNanoseconds: 0) == nil)
        #expect(CaptureLatency.restBudgetSeconds(stillNanoseconds: 999_999_999) == nil)
        #expect(CaptureLatency.restBudgetSeconds(stillNanoseconds: 1_000_000_000) == 0.25)
        #expect(CaptureLatency.restBudgetSeconds(stillNanoseconds: 9_999_999_999) == 0.25)
        #expect(CaptureLatency.restBudgetSeconds(stillNanoseconds: 10_000_000_000) == 0.5)
        let demand = CaptureDemand()
        #expect(demand.restBudgetSeconds(atNanoseconds: 20_000_000_000) == nil, "no state yet: not at rest")
        demand.stateMade(atNanoseconds: 5_000_000_000)
        let latency = CaptureLatency(budgetSeconds: 0.016)
        #expect(demand.budgetSeconds(latency: latency, atNanoseconds: 5_500_000_000) == 0.016)
        #expect(demand.budgetSeconds(latency: latency, atNanoseconds: 6_000_000_000) == 0.25)
        #expect(demand.budgetSeconds(latency: latency, atNanoseconds: 15_000_000_000) == 0.5)
        #expect(demand.budgetSeconds(latency: CaptureLatency(budgetSeconds: 0.75), atNanoseconds: 15_000_000_000) == 0.75)
        demand.perSampleClientsChanged(1)
        #expect(demand.budgetSeconds(latency: latency, atNanoseconds: 15_000_000_000) == 0)
    }

    @Test func aPacedCaptureWakesOncePerBatchWithinTheBudgetAndReadsEveryScan() throws {
        let fake = Self.fake()
        let delivered = try Self.capture(fake, milliseconds: 16, count: 60)
        let device = fake.devices[0]
        #expect(device.nonBlocking)
        #expect(device.buffersCreated == [200], "room for twice the batch once settled (100 scans)")
        // Every scan, in order, with its own timestamp.
        #expect(delivered.map(\.sample.reading.timestampNanoseconds) == (1...60).map { Int64($0) * 5_000_000 })
        // One wake-up per budget (16 ms), after the first scan's wait.
        let steps = zip(fake.wakes.dropFirst(2), fake.wakes.dropFirst(3)).map { $1 - $0 }
        #expect(!steps.isEmpty && steps.allSatisfy { $0 == 16_000_000 }, "\(fake.wakes)")
        #expect(fake.wakes.count <= 60 * 5 / 16 + 3, "\(fake.wakes.count) wake-ups for 60 scans")
        let late = delivered.map { $0.atNanoseconds - $0.sample.reading.timestampNanoseconds }
        #expect(late.max()! <= 16_000_000, "\(late)")
    }

    /// The schedule is anchored to the budget, not to the whole sample
    /// periods within it: 16 ms at 200 Hz wakes 62.5 times a second (not
    /// 66.7, every 3 periods), each scan still at most 16 ms late; 18 ms
    /// wakes every 18 ms, not every 15.
    @Test(arguments: [16.0, 18.0]) func aPacedCaptureWakesOncePerBudget(milliseconds: Double) throws {
        let fake = Self.fake()
        let delivered = try Self.capture(fake, milliseconds: milliseconds, count: 220)
        #expect(delivered.map(\.sample.reading.timestampNanoseconds) == (1...220).map { Int64($0) * 5_000_000 })
        let budget = Int64(milliseconds * 1_000_000)
        let second = fake.wakes.filter { (100_000_000..<1_100_000_000).contains($0) }
        #expect(zip(second, second.dropFirst()).allSatisfy { $1 - $0 == budget }, "\(second)")
        #expect(second.count == Int(1_000_000_000 / budget) || second.count == Int(1_000_000_000 / budget) + 1,
                "\(second.count) wake-ups in a second")
        let late = delivered.map { $0.atNanoseconds - $0.sample.reading.timestampNanoseconds }
        #expect(late.max()! <= budget, "\(late)")
        // The kernel still gathers the whole periods within the budget.
        #expect(CaptureLatency.scansPerWake(rateHertz: 200, budgetSeconds: milliseconds / 1000) == 3)
    }

    /// A budget of a period or more waits on the schedule even when a
    /// wake-up reads only one scan or two: 16 ms at 100 Hz wakes every
    /// 16 ms (62.5 a second, not 100); a budget shorter than a period is
    /// woken by each scan.
    @Test func aBudgetOfAPeriodOrMorePacesEvenOneOrTwoScansAWake() throws {
        func run(_ milliseconds: Double) throws -> (wakes: [Int64], delivered: [Delivery]) {
            let accelerometer = FakeIIO.accelerometer("iio:device0", name: "accel_3d", rateHertz: "100")
            let fake = FakeIIO([accelerometer])
            fake.virtualNanoseconds = 0
            fake.scanPeriodNanoseconds = 10_000_000
            let delivered = try Self.capture(fake, milliseconds: milliseconds, count: 120)
            #expect(delivered.map(\.sample.reading.timestampNanoseconds) == (1...120).map { Int64($0) * 10_000_000 })
            return (fake.wakes.filter { (100_000_000..<1_100_000_000).contains($0) }, delivered)
        }
        let paced = try run(16)
        #expect(zip(paced.wakes, paced.wakes.dropFirst()).allSatisfy { $1 - $0 == 16_000_000 }, "\(paced.wakes)")
        #expect(paced.wakes.count == 62 || paced.wakes.count == 63, "\(paced.wakes.count) wake-ups in a second")
        let late = paced.delivered.map { $0.atNanoseconds - $0.sample.reading.timestampNanoseconds }
        #expect(late.max()! <= 16_000_000, "\(late)")
        // 5 ms, half a period: woken by each scan, none waiting.
        let eachScan = try run(5)
        #expect(eachScan.wakes.count >= 95, "\(eachScan.wakes.count) wake-ups in a second")
        #expect(eachScan.delivered.allSatisfy { $0.atNanoseconds == $0.sample.reading.timestampNanoseconds })
    }

    /// Each wake-up's samples end with `endBatch`, so consumers can send
    /// them together; one scan a wake-up (`--latency 0`) never ends one.
    @Test func eachWakeUpEndsABatch() throws {
        func batches(_ milliseconds: Double) throws -> [Int] {
            let fake = Self.fake()
            let configuration = CaptureConfiguration(uri: "fake:", mode: .buffer, gyroEnabled: false,
                                                     latency: CaptureLatency(budgetSeconds: milliseconds / 1000))
            let session = try CaptureSession(configuration: configuration, backend: fake, waiting: fake) { _ in }
            defer { session.close() }
            var sizes: [Int] = [], current = 0, samples = 0
            _ = try session.run(shouldStop: { samples >= 30 }, emit: { _ in
                samples += 1
                current += 1
                return true
            }, endBatch: {
                sizes.append(current)
                current = 0
            })
            return sizes
        }
        // 16 ms at 200 Hz: 3 scans a batch, 4 when a wake-up comes just after a scan.
        let paced = try batches(16)
        #expect(paced.dropFirst().allSatisfy { $0 == 3 || $0 == 4 } && paced.contains(4) && paced.reduce(0, +) >= 28,
                "\(paced)")
        #expect(try batches(0).isEmpty)
    }

    @Test func batchesDeliverTheSameSamplesAndStatesAsOneScanAWake() throws {
        let one = try Self.capture(Self.fake(), milliseconds: 0, count: 200)
        let batched = try Self.capture(Self.fake(), milliseconds: 16, count: 200)
        let rested = try Self.capture(Self.fake(), milliseconds: 100, count: 200)
        func text(_ deliveries: [Delivery]) -> [String] {
            var pipeline = TiltPipeline()
            return deliveries.map { delivery in
                "\(delivery.sample.reading) \(delivery.sample.raw) → "
                    + (pipeline.process(delivery.sample.reading).map { "\($0)" } ?? "gated")
            }
        }
        #expect(one.count == 200)
        #expect(text(batched) == text(one))
        #expect(text(rested) == text(one))
    }

    @Test func aDSUSubscriberTurnsPerSampleOnAndBackOff() throws {
        let fake = Self.fake(watermark: true)
        let demand = CaptureDemand()
        var wakesAt: [Int: Int] = [:]
        let delivered = try Self.capture(fake, milliseconds: 16, count: 90, demand: demand) { sample in
            let index = Int(sample.reading.timestampNanoseconds / 5_000_000)
            wakesAt[index] = fake.wakes.count
            if index == 30 { demand.perSampleClientsChanged(1) }
            if index == 60 { demand.perSampleClientsChanged(0) }
        }
        #expect(delivered.map(\.sample.reading.timestampNanoseconds) == (1...90).map { Int64($0) * 5_000_000 })
        let device = fake.devices[0]
        // The watermark is the batch, then one scan while the subscriber is there, then the batch again.
        #expect(device.bufferWrites == ["length=800", "watermark=3", "watermark=1", "length=800", "watermark=3"])
        #expect(device.buffersCreated == [200, 200, 200])
        // Wake-ups per scan while subscribed: scans 35 to 55 each had their own.
        let subscribed = (35...55).map { wakesAt[$0]! }
        #expect(Set(subscribed).count == subscribed.count, "\(subscribed)")
        // And one per 3 scans after.
        let after = (66...89).map { wakesAt[$0]! }
        #expect(Set(after).count <= after.count / 3 + 1, "\(after)")
    }

    @Test func restSlowsTheWakeRateAndTheFirstMovementRestoresIt() throws {
        let fake = Self.fake()
        let demand = CaptureDemand()
        // Moving until 0.5 s, a pause until 4 s, moving until 4.5 s, lying
        // still until 16 s (settled from 14.5 s), moving again from then.
        let moves: [Range<Int64>] = [0..<500_000_001, 4_000_000_000..<4_500_000_001, 16_000_000_000..<Int64.max]
        var seenAt: [Int64: Int64] = [:]
        let delivered = try Self.capture(fake, milliseconds: 16, count: 3400, demand: demand) { sample in
            let time = sample.reading.timestampNanoseconds
            if moves.contains(where: { $0.contains(time) }) { demand.stateMade(atNanoseconds: time) }
            if time == 4_000_000_000 || time == 16_000_000_000 { seenAt[time] = fake.nanoseconds() }
        }
        #expect(delivered.count == 3400)
        #expect(delivered.map(\.sample.reading.timestampNanoseconds) == (1...3400).map { Int64($0) * 5_000_000 })
        func wakes(in range: Range<Int64>) -> [Int64] { fake.wakes.filter { range.contains($0) } }
        func steps(_ wakes: [Int64]) -> [Int64] { zip(wakes, wakes.dropFirst()).map { $1 - $0 } }
        // Moving: a wake-up every 16 ms.
        #expect(wakes(in: 100_000_000..<400_000_000).count >= 18)
        // At rest (1 s after the last state): every 250 ms.
        let rest = wakes(in: 1_600_000_000..<3_900_000_000)
        #expect((8...10).contains(rest.count) && steps(rest).allSatisfy { $0 == 250_000_000 }, "\(rest)")
        // The pause's end reached the consumer within the rest budget, and the pace is back.
        let pauseEnd = try #require(seenAt[4_000_000_000])
        #expect(pauseEnd - 4_000_000_000 <= 250_000_000)
        #expect(wakes(in: 4_200_000_000..<4_400_000_000).count >= 12)
        // Still for 10 s (from 14.5 s): every 500 ms, after every 250 ms before then.
        #expect(steps(wakes(in: 6_000_000_000..<14_000_000_000)).allSatisfy { $0 == 250_000_000 })
        let settled = wakes(in: 15_000_000_000..<15_999_000_000)
        #expect((1...2).contains(settled.count) && steps(settled).allSatisfy { $0 == 500_000_000 }, "\(settled)")
        // The first movement after it reached the consumer within the settled budget.
        let moved = try #require(seenAt[16_000_000_000])
        #expect(moved - 16_000_000_000 <= 500_000_000)
        #expect(wakes(in: 16_600_000_000..<16_900_000_000).count >= 18)
    }

    /// At a high rate the rest budget is cut to the most scans a wake-up
    /// reads (256), so the buffer sized for them never overflows: at
    /// 2000 Hz a wake-up every 128 ms at rest, not every 250.
    @Test func aRestBudgetNeverOutgrowsTheBufferAtAHighRate() throws {
        let fake = FakeIIO([FakeIIO.accelerometer("iio:device0", name: "accel_3d", rateHertz: "2000")])
        fake.virtualNanoseconds = 0
        fake.scanPeriodNanoseconds = 500_000
        let demand = CaptureDemand()
        let delivered = try Self.capture(fake, milliseconds: 16, count: 5000, demand: demand) { sample in
            if sample.reading.timestampNanoseconds <= 200_000_000 { demand.stateMade(atNanoseconds: sample.reading.timestampNanoseconds) }
        }
        #expect(delivered.map(\.sample.reading.timestampNanoseconds) == (1...5000).map { Int64($0) * 500_000 })
        #expect(fake.devices[0].buffersCreated == [2 * CaptureLatency.maximumScansPerWake])
        let rest = fake.wakes.filter { (1_400_000_000..<2_400_000_000).contains($0) }
        #expect(rest.count >= 7 && zip(rest, rest.dropFirst()).allSatisfy { $1 - $0 == 128_000_000 }, "\(rest)")
    }

    /// A polled device has no buffer to batch: at rest it is read every
    /// rest budget (`CaptureLatency.restBudgetSeconds`, 250 ms) instead of
    /// every period. (Real
    /// time: the polled reader sleeps on the monotonic clock; only the
    /// rest gaps' lower bound, which the absolute deadlines guarantee, and
    /// that the pace comes back at all are asserted.)
    @Test func aPolledDeviceIsReadLessOftenAtRest() throws {
        let fake = FakeIIO([FakeIIO.accelerometer("iio:device0", name: "accel_3d", rateHertz: "200")])
        let demand = CaptureDemand()
        let configuration = CaptureConfiguration(uri: "fake:", mode: .poll, gyroEnabled: false,
                                                 latency: CaptureLatency(budgetSeconds: 0.016))
        let session = try CaptureSession(configuration: configuration, backend: fake, demand: demand) { _ in }
        defer { session.close() }
        var times: [Int64] = []
        var restReads = 0
        var movedAt: Int?
        _ = try session.run(shouldStop: { false }) { sample in
            let time = sample.reading.timestampNanoseconds
            times.append(time)
            if times.count <= 20 { demand.stateMade(atNanoseconds: time) }
            if demand.restBudgetSeconds(atNanoseconds: time) != nil { restReads += 1 }
            if restReads == 4 && movedAt == nil {
                movedAt = times.count
                demand.stateMade(atNanoseconds: time)
            }
            return movedAt.map { times.count < $0 + 20 } ?? true
        }
        let moved = try #require(movedAt)
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        // The reads that followed a read at rest were due a rest budget
        // (250 ms) later; each read's own wake-up may be late by a little.
        let restGaps = Array(gaps[(moved - 4)..<(moved - 1)])
        #expect(restGaps.allSatisfy { $0 >= 200_000_000 }, "\(restGaps)")
        // After the movement the period is back (5 ms; at least one of the
        // next gaps is far below the rest budget).
        #expect(gaps[moved...].min()! < 100_000_000, "\(Array(gaps[moved...]))")
    }

    /// A gyroscope on its own device is read with the accelerometer's batch
    /// size, so its kernel buffer (four reads' worth) outlasts a wake-up at rest.
    @Test func aSiblingGyroBufferHoldsABatch() throws {
        let fake = Self.fake()
        let timestamp = FakeIIO.Channel("timestamp", index: 3, format: ScanElementType(
            bigEndian: false, signed: true, bits: 64, storageBits: 64, shift: 0))
        fake.devices = [FakeIIO.accelerometer("iio:device0", name: "lsm6dsx_accel", rateHertz: "200"),
                        FakeIIO.Device("iio:device1", name: "lsm6dsx_gyro", attributes: ["sampling_frequency": "200"],
                                       channels: FakeIIO.gyroAxes() + [timestamp])]
        let delivered = try Self.capture(fake, milliseconds: 16, count: 60, gyro: true)
        #expect(fake.devices[1].buffersCreated == [200])
        #expect(delivered.count == 60)
        #expect(delivered.allSatisfy { $0.sample.rawRotation != nil })
    }
}
