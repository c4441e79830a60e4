import Hummingbird

/// In front of every route: the Host must be on the allowlist (421 if not),
/// the method GET or HEAD (405 with `Allow`), and unknown paths get a 404
/// that lists the real ones.
struct WebRequestPolicy<Context: RequestContext>: RouterMiddleware {
    let allowlist: WebHostAllowlist

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        // HTTP/1.1's Host header arrives as the request's authority.
        let host = request.head.authority
        guard allowlist.allows(host: host) else { return WebResponse.misdirected(host: host) }
        guard request.method == .get || request.method == .head else {
            return WebResponse.text(.methodNotAllowed, "tiltd serve is read-only: use GET", extra: [.allow: "GET, HEAD"])
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return WebResponse.text(.notFound, "not found: \(request.uri.path) (try \(WebRouter.pathsToTry.joined(separator: ", ")))")
        }
    }
}
