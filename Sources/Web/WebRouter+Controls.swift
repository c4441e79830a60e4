import Foundation
import Hummingbird

extension WebRouter {
    /// `GET /recordings/NAME`: a trace the page's ring finished, as a
    /// download. Only names the recorder offers are served (never a path
    /// from the request), so nothing else in the directory can be read.
    static func addControlRoutes(to router: Router<WebRequestContext>, parts: Parts) {
        router.get("/recordings/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            guard let recorder = parts.controls.recorder, WebRecordingDirectory.parse(name) != nil,
                  recorder.offered.contains(name),
                  let bytes = FileManager.default.contents(atPath: recorder.directory + "/" + name) else {
                return WebResponse.text(.notFound, "no finished recording named \(name) here: finish one on the page first")
            }
            return WebResponse.bytes(.ok, bytes, type: "text/plain; charset=utf-8", cache: "no-store",
                                     extra: [.contentDisposition: "attachment; filename=\"\(name)\""])
        }
    }
}
