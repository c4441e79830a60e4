import Foundation
import Testing
import TiltdTestSupport

/// `tiltd run --listen … --on-demand` on a umockdev buffered accelerometer:
/// `buffer/enable` is 0 with no client, 1 while one is connected (and it gets
/// states), and 0 again once the last one left.
@Suite(.timeLimit(.minutes(15))) struct SocketOnDemandDeviceTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/umockdev-run")))
    func bufferIsEnabledOnlyWhileAClientIsConnected() throws {
        let dir = try TestPaths.temporaryDirectory()
        let sock = dir + "/s.sock"
        let enable = "/sys/bus/iio/devices/iio:device0/buffer/enable"
        // Runs inside umockdev-run, so that reads of /sys see the mock device.
        let client = """
            import socket, sys, os, time
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            line = s.makefile("rb").readline()
            open(sys.argv[2], "wb").write(line)
            while not os.path.exists(sys.argv[3]):
                time.sleep(0.01)
            s.close()
            """
        try client.write(toFile: dir + "/client.py", atomically: true, encoding: .utf8)
        let script = """
            state() { tr -d '\\000\\n' < \(enable); }
            \(TiltdProcess.binary.path) run --mode buffer --no-gate --listen 'unix:\(sock)' --on-demand \
                > '\(dir)/out' 2> '\(dir)/err' &
            pid=$!
            i=0; while [ ! -S '\(sock)' ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i+1)); done
            sleep 0.5
            echo "no client: $(state)"
            /usr/bin/python3 '\(dir)/client.py' '\(sock)' '\(dir)/got' '\(dir)/leave' &
            client=$!
            i=0; while [ ! -s '\(dir)/got' ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i+1)); done
            echo "client connected: $(state)"
            echo "client got: $(head -c 5 '\(dir)/got')"
            touch '\(dir)/leave'
            wait $client
            i=0; while [ "$(state)" != 0 ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done
            echo "client left: $(state)"
            kill -INT $pid
            wait $pid
            echo "status $?"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/umockdev-run")
        process.arguments = ["--device", TiltdProcess.fixtures.appendingPathComponent("buffered.umockdev").path,
                             "-s", "/dev/iio:device0=\(TiltdProcess.fixtures.appendingPathComponent("bench-200hz.script").path)",
                             "--", "/bin/sh", "-c", script]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = PipeDrain(out.fileHandleForReading)
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        data.waitForEnd(within: 60)
        let report = String(decoding: data.data, as: UTF8.self)
        let stderr = (try? String(contentsOfFile: dir + "/err", encoding: .utf8)) ?? ""
        #expect(report.contains("no client: 0"), "\(report)\n\(stderr)")
        #expect(report.contains("client connected: 1"), "\(report)\n\(stderr)")
        #expect(report.contains("client got: {\"t\":"), "\(report)\n\(stderr)")
        #expect(report.contains("client left: 0"), "\(report)\n\(stderr)")
        #expect(report.contains("status 0"), "\(report)\n\(stderr)")
        #expect(stderr.contains("device opened") && stderr.contains("device released"), "\(stderr)")
    }
}
