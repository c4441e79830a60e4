import Devices
import Foundation
import SamplePath

/// `tiltd list`, run: the listing on stdout (text or JSON), the devices
/// skipped and what is missing as notices on stderr.
public enum DeviceListingReport {
    /// Lists the devices `uri` and evdev offer.
    ///
    /// With nothing to read (no IIO subsystem, no accelerometer and no game
    /// pad, none of them skipped) the listing is empty, not a failure: the
    /// reason and how to try tiltd without hardware follow it, and the
    /// command exits 0.
    ///
    /// - Parameter json: a JSON array instead of text.
    /// - Throws: `ReportedFailure` (already logged) when libiio cannot be
    ///   asked, or a device is there but could not be read: the command exits 1.
    public static func write(uri: String, json: Bool) throws {
        let logger = TiltdLog.logger
        var skipped: [String] = []
        let listing: DeviceListing
        do { listing = try DeviceListing.discover(uri: uri, skipped: &skipped) } catch {
            // The skipped devices (written back even on a throw) come before the reason.
            for message in skipped { logger.notice("\(message)") }
            // A JSON reader still gets a (empty) array.
            if json { FileHandle.standardOutput.write(Data("[]\n".utf8)) }
            // Nothing to read is an empty listing (exit 0); anything else failed.
            let nothingToRead = DeviceListing.meansNothingToRead(error) && skipped.isEmpty
            if nothingToRead { logger.notice("\(error)") } else { logger.error("\(error)") }
            logger.notice("\(DeviceListing.nothingToReadHint(uri: uri))")
            guard nothingToRead else { throw ReportedFailure(description: "\(error)") }
            return
        }
        for message in skipped { logger.notice("\(message)") }
        FileHandle.standardOutput.write(json ? try listing.json() : Data(listing.text().utf8))
        if let problem = listing.problem {
            guard listing.isEmpty else { return logger.notice("\(problem)") }
            // A device there but unreadable is an error (exit 1); none at all is not.
            if skipped.isEmpty { logger.notice("\(problem)") } else { logger.error("\(problem)") }
            logger.notice("\(DeviceListing.nothingToReadHint(uri: uri))")
            if !skipped.isEmpty { throw ReportedFailure(description: problem) }
        }
    }
}
