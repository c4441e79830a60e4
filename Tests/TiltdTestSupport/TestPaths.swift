import Foundation
import Glibc

/// Temporary places and patient waiting for the tests.
public enum TestPaths {
    /// A fresh directory under /tmp for one test's socket (short enough for sun_path).
    public static func temporaryDirectory() throws -> String {
        // Nearly every test starts here: the first one raises the open-file limit.
        TestFileLimit.raise()
        var template = Array("/tmp/tiltd-sock-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SocketTestClient.Failure(description: "mkdtemp failed") }
        return String(cString: made)
    }

    /// Polls `condition` every 10 ms until it holds or `seconds` pass: a
    /// deadline that bounds a failure (generous: loaded machines are slow),
    /// never a fixed sleep.
    public static func eventually(_ seconds: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
