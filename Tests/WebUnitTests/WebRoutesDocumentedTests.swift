import Foundation
import Testing
@testable import Web

/// docs/streaming.md documents what the server serves: every route a 404
/// suggests has a row in its route table, and the section /tiltd.js cites
/// exists.
@Suite(.timeLimit(.minutes(2))) struct WebRoutesDocumentedTests {
    static let streaming = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/streaming.md")

    @Test func everyRouteToTryHasARowInTheRouteTable() throws {
        let lines = try String(contentsOf: Self.streaming, encoding: .utf8).split(separator: "\n")
        for path in WebRouter.pathsToTry {
            #expect(lines.contains { $0.hasPrefix("| `\(path)`") }, "docs/streaming.md's route table has no row for \(path)")
        }
    }

    @Test func theSectionTiltdJSCitesExists() throws {
        // tiltd.js's second line: `// Served by … (docs/streaming.md, "SECTION").`
        let source = WebTiltdScript.source
        let cite = try #require(source.range(of: #"(docs/streaming.md, ""#), "tiltd.js cites docs/streaming.md")
        let section = try #require(source[cite.upperBound...].split(separator: "\"").first.map(String.init))
        let headings = try String(contentsOf: Self.streaming, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("#") }
            .map { $0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) }
        #expect(headings.contains(section), "docs/streaming.md has no section \"\(section)\": \(headings)")
    }
}
