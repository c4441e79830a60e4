import Motion
#if canImport(Glibc)
import Glibc
#endif

/// One sysfs attribute file kept open and read again from offset 0 with
/// `pread`: how a polled capture reads `in_accel_x_raw` each sample without
/// the open/read/close libiio's attribute reads cost every time.
///
/// sysfs regenerates an attribute's text on every read that starts at
/// offset 0, so one open descriptor gives fresh values for as long as the
/// device exists; once it is removed the kernel fails the read with ENODEV.
/// A file tree that imitates sysfs (umockdev) instead unlinks or replaces
/// the file, leaving the descriptor on the old one, so `isStale` checks for
/// that and the owner reopens the path.
final class SysfsAttributeFile {
    /// The absolute path, quoted in errors.
    let path: String
    private var descriptor: Int32

    /// Opens `path` read-only.
    ///
    /// - Throws: `Errno` when it cannot be opened (ENOENT: the device is gone).
    init(path: String) throws(Errno) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { throw Errno(errno) }
    }

    deinit { close(descriptor) }

    /// Reads the whole text from offset 0 into `buffer`.
    ///
    /// - Returns: the number of bytes read (the buffer holds at most its
    ///   count; a longer text is cut and reported as read in full).
    /// - Throws: `Errno` from the kernel (ENODEV once the device is removed).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno != EINTR { throw Errno(errno) }
        }
    }

    /// True when the open file is no longer the one at `path`: it was
    /// unlinked (no links left) or replaced by rename.
    var isStale: Bool {
        var open = stat()
        guard fstat(descriptor, &open) == 0, open.st_nlink > 0 else { return true }
        var named = stat()
        guard stat(path, &named) == 0 else { return true }
        return named.st_ino != open.st_ino || named.st_dev != open.st_dev
    }
}
