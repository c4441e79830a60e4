import Commands
import Controls
import DSU
import Glibc
import Levels
import Motion
import Platform
import Render
import SamplePath
import Serve
import StateSocket
import Testing

/// Libraries refuse values in their own terms (typed errors); the command
/// line words each refusal, naming the options as it spells them. The
/// wording of Render's, Serve's and Levels' is `tiltd`'s (linked into the tests).
@Suite(.timeLimit(.minutes(2))) struct SettingRefusalMessageTests {
    /// A refusal as the command line prints it.
    static func text(_ refusal: any Error) -> String? {
        (refusal as? any SettingRefusal)?.message.text(naming: \.flag)
    }

    static let dsu = DSUAddress(host: "127.0.0.1", port: 26760)

    @Test(arguments: [
        (ListenAddress.Invalid.pathTooLong(path: "/tmp/s", maximumBytes: 107), "--listen"),
        (SocketListenSettings.Invalid.noSuchGroup("g"), "--socket-group"),
        (SocketListenSettings.Invalid.address(.pathTooLong(path: "/tmp/s", maximumBytes: 107)), "--listen"),
        (DSUServer.Failure.serve(address: dsu, reason: "x"), "--dsu"),
        (DSUServer.Failure.socket(address: dsu, step: .bind, reason: "x"), "--dsu"),
        (UnixSocketError.notASocket(path: "/tmp/s"), "--listen"),
        (PulseError.noSource(source: "mic", server: "default", reason: "No such entity"), "--source"),
        (OutputPathError.noFileName(role: .recording, example: "walk.trace"), "--record"),
        (OutputPathError.noFolder(role: .contactSheet, path: "/a/s.png", folder: "/a"), "--contact-sheet"),
        (DeviceRunLimits.Invalid.count(0), "--count"),
        (DeviceRunLimits.Invalid.duration(0), "--duration"),
        (LevelsStream.Source.Invalid.emptySourceName, "--source"),
        (LevelsStream.Source.Invalid.realTimeWithoutFile, "--realtime"),
        (ServeConfiguration.Invalid.maxStreamsPerClient(5, maxStreams: 4), "--max-streams-per-client"),
        (ServeConfiguration.Invalid.hostNotAnIPAddress("box"), "--host"),
        (ServeConfiguration.Invalid.keep(0, range: 1...9), "--record-keep"),
        (ServeSlider.Settings.Invalid.emptySourceName, "--levels-source"),
        (RenderJob.Invalid.framesPerSecond(0), "--fps"),
        (RenderJob.Invalid.targets(.cells(0)), "--contact-sheet-frames"),
        (RenderJob.Invalid.larsBar(.knobInputsForTheSlider([.knobStyle])), "--style"),
        (LARSBarRenderSettings.Invalid.sliderInputsForTheKnob([.width]), "--width"),
        (ControlStillError.points(1, dimension: .trackHeight, minimum: 1, maximum: 100), "--track-height"),
        (ControlStillError.angles, "--roll"),
        (RenderError.staleFrames(directory: "f", count: 2, first: "frame-000001.png"), "--overwrite"),
        (RenderError.cannotOpen(path: "x.y4m", reason: "Permission denied"), "--out"),
    ] as [(any Error, String)])
    func eachRefusalNamesItsOption(refusal: any Error, option: String) throws {
        let text = try #require(Self.text(refusal), "\(refusal) has no wording")
        #expect(text.contains(option + " ") || text.hasSuffix(option), "\(text)")
    }

    /// The text of these refusals, as it was when the libraries wrote it.
    @Test(arguments: [
        (DSUAddress.Invalid.badPort, "expected PORT or HOST:PORT with a port from 0 to 65535 (0: any free one, named in "
            + "the log), for example 26760 or 127.0.0.1:26760"),
        (DSUAddress.Invalid.notAnIPAddress(host: "localhost"), "localhost is not an IP address; give one, for example "
            + "127.0.0.1 (this machine only) or the address of the interface to serve on"),
        (DSUServer.Failure.socket(address: dsu, step: .bindPortInUse, reason: "Address already in use"),
         "--dsu 127.0.0.1:26760: cannot bind it: Address already in use; another DSU server (tiltd, evdevhook2, an "
            + "emulator's own) holds the port; stop it or choose another port"),
        (DSUServer.Failure.socket(address: dsu, step: .makeSocket, reason: "Too many open files"),
         "--dsu 127.0.0.1:26760: cannot make a UDP socket: Too many open files"),
        (ListenAddress.Invalid.notUnix,
         "expected unix:PATH, for example unix:/run/tiltd/tiltd.sock (only Unix sockets are served)"),
        (ListenAddress.Invalid.pathTooLong(path: "/tmp/s", maximumBytes: 107),
         "--listen /tmp/s: socket paths are limited to 107 bytes; choose a shorter path"),
        (SocketListenSettings.Invalid.noSuchGroup("no-such-group-here"), "--socket-group no-such-group-here: no such "
            + "group; create it (see udev/tiltd.sysusers) or leave the option out"),
        (DeviceRunLimits.Invalid.duration(.nan), "--duration nan: give a number of seconds above 0"),
        (UnixSocketError.inUse(path: "/tmp/s.sock"), "/tmp/s.sock: another process is already serving states on this "
            + "socket; stop it (systemctl stop tiltd?) or choose another --listen path"),
        (UnixSocketError.system(PosixError(call: "bind", code: EACCES), path: "/s.sock"), "/s.sock: "
            + "\(PosixError(call: "bind", code: EACCES)); check the directory's permissions or use a directory you "
            + "can write, such as $XDG_RUNTIME_DIR"),
        (PulseError.noSource(source: "mic", server: "default", reason: "No such entity"), "PulseAudio at default "
            + "cannot record from source mic (No such entity): list sources with `pactl list short sources` and pass "
            + "one with --source"),
        (LevelsStream.Source.Invalid.fileAndLiveSource,
         "--levels-file replays a file; --source and --server are for live levels, drop them"),
        (ServeConfiguration.Invalid.limitSeconds(0.5, range: ServeConfiguration.Ring.limitRange),
         "--record-limit 0.5: give 1 to 600 seconds"),
        (ServeConfiguration.Invalid.maximumMebibytes(0, range: ServeConfiguration.Ring.maximumMebibytesRange),
         "--record-max-mib 0: give 1 to 1048576 MiB"),
        (ServeConfiguration.Invalid.allowedHost("http://box/"),
         "--allow-host http://box/: give a host name or address without scheme or path, e.g. --allow-host mybox.local"),
        (ServeSlider.Settings.Invalid.liveLevelsAndFile(file: "a.wav"),
         "--levels meters live audio and --levels-file a.wav replays a file: give one or the other"),
        (RenderJob.Invalid.oddSizeForY4M(size: 17, width: 68, height: 17), "--size 17 makes frames of 68 × 17 pixels; "
            + "y4m's 4:2:0 chroma needs even sides: give --size 16 or 18 (or PNG frames)"),
        (RenderJob.Invalid.targets(.shapeWithoutSheet),
         "--contact-sheet-frames and --columns shape a contact sheet: give --contact-sheet FILE.png too"),
        (LARSBarRenderSettings.Invalid.knobInputsForTheSlider([.knobSize, .sliderValue]), "--size, --slider are for the "
            + "knob's own frames; the LARSBar slider's frames are --width × 44 pt × --scale and its thumb is the MTZ "
            + "knob: drop them"),
        (LARSBarRenderSettings.Invalid.oddWidthForY4M(width: 101, scale: 1, pixels: 101, evenWidth: 100),
         "--width 101 at --scale 1 makes frames 101 pixels wide; y4m's 4:2:0 chroma needs an even width: give "
            + "--width 100 (or PNG frames)"),
        (ControlStillError.points(10, dimension: .width, minimum: 20, maximum: 2000),
         "--width must be 20…2000 points, got 10"),
        (ControlStillError.durationSeconds(0), "--duration must be more than 0 and at most 86400 seconds, got 0.0"),
        (ControlStillError.colour("1,1"),
         "--color must be R,G,B,A (or R,G,B) with each part 0…1 such as 0.2,0.4,0.6,1, got '1,1'"),
        (OutputPathError.noFolder(role: .recordingDirectory, path: "/nonexistent/r", folder: "/nonexistent"),
         "--record-dir /nonexistent/r: there is no folder /nonexistent; create it first (mkdir -p /nonexistent) or "
            + "choose another --record-dir"),
        (OutputPathError.cannotCreateFiles(role: .output, path: "/ro/f", folder: nil, reason: "Read-only file system"),
         "--out /ro/f: cannot create files there (Read-only file system); choose another --out or fix its permissions"),
        (OutputPathError.cannotCreateFiles(role: .socket, path: "/ro/s.sock", folder: "/ro", reason: "Permission denied"),
         "--listen /ro/s.sock: cannot create files in /ro (Permission denied); choose another --listen or fix its "
            + "permissions"),
        (OutputPathError.cannotMakeDirectory(role: .output, path: "/f/d", reason: "Not a directory"),
         "cannot create the directory --out /f/d: Not a directory; choose another --out"),
        (RenderError.tooManyFrames(file: "long.trace", frameCount: 7202, fps: 2, limit: 7200, explicit: false),
         "long.trace spans 3601 s: at 2 fps that is 7202 frames, over the limit of 7200 (one hour of frames); nothing "
            + "was written. Pass --max-frames 7202 to render them all, or lower --fps"),
        (RenderError.contactSheetIsOutput(sheet: "f", out: "f", outIsDirectory: true), "--contact-sheet f is --out f, "
            + "the PNG frames' directory: give the contact sheet a file name of its own, such as contact-sheet.png"),
    ] as [(any Error, String)])
    func theTextIsTheSameAsBefore(refusal: any Error, text: String) {
        #expect(Self.text(refusal) == text)
    }

    /// What ArgumentParser and main print for a refusal: its wording, with the installed names.
    @Test func theDescriptionIsTheMessage() {
        let refusal = DeviceRunLimits.Invalid.count(0)
        #expect("\(refusal)" == refusal.message.description)
    }
}
