import Devices
import Foundation
import SamplePath

/// `tiltd list`, run: the listing on stdout (text or JSON), the devices
/// skipped and what is missing as notices on stderr.
public enum DeviceListingReport {
    /// Lists the devices `uri` and evdev offer.
    ///
    /// - Parameter json: a JSON array instead of text.
    /// - Throws: `ReportedFailure` (already logged) when libiio cannot be
    ///   asked or there is no device at all: the command exits 1.
    public static func write(uri: String, json: Bool) throws {
        let logger = TiltdLog.logger
        var skipped: [String] = []
        let listing: DeviceListing
        do { listing = try DeviceListing.discover(uri: uri, skipped: &skipped) } catch {
            // The skipped devices (written back even on a throw) come before the reason.
            for message in skipped { logger.notice("\(message)") }
            // A JSON reader still gets a (empty) array.
            if json { FileHandle.standardOutput.write(Data("[]\n".utf8)) }
            logger.error("\(error)")
            logger.notice("\(DeviceListing.nothingToReadHint(uri: uri))")
            throw ReportedFailure(description: "\(error)")
        }
        for message in skipped { logger.notice("\(message)") }
        FileHandle.standardOutput.write(json ? try listing.json() : Data(listing.text().utf8))
        if let problem = listing.problem {
            guard listing.isEmpty else { return logger.notice("\(problem)") }
            logger.error("\(problem)")
            logger.notice("\(DeviceListing.nothingToReadHint(uri: uri))")
            throw ReportedFailure(description: problem)
        }
    }
}
