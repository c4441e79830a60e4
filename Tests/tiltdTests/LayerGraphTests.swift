import Foundation
import Testing
import TiltdTestSupport

/// The README's module graph ("Modules, each with one job"), checked
/// against the code: every Swift module under Sources is drawn, and each
/// imports only modules on a layer below its own, or one its own row draws
/// it using (`Controls → Images`).
// The system tier's limit: a test there can wait long for a thread while
// other suites' blocking calls hold Swift's cooperative threads.
@Suite(.timeLimit(.minutes(15))) struct LayerGraphTests {
    static let root = TiltdProcess.repositoryRoot

    /// The Swift modules under Sources: the folders with Swift files (not
    /// the C targets: system libraries' module maps, the bus vtable).
    static func swiftModules() throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        return try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { name in
            let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(name).path)
            return files?.contains { ($0 as? String)?.hasSuffix(".swift") == true } ?? false
        }.sorted()
    }

    /// Each module's layer (0 at the top) and the uses drawn within a row.
    static func graph(modules: [String]) throws -> (layers: [String: Int], drawnUses: Set<[String]>) {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "Modules, each with one job"))
        let block = try #require(readme[start.upperBound...].components(separatedBy: "```").dropFirst().first)
        var layers: [String: Int] = [:], drawn: Set<[String]> = []
        for (index, line) in block.split(separator: "\n").enumerated() {
            let words = line.split(whereSeparator: { !$0.isLetter && $0 != "-" && $0 != "→" }).map(String.init)
            for (position, word) in words.enumerated() where modules.contains(word) {
                layers[word] = index
                if position + 2 < words.count, words[position + 1] == "→" { drawn.insert([word, words[position + 2]]) }
            }
        }
        return (layers, drawn)
    }

    /// The project's modules a module's files import.
    static func imports(of module: String, among modules: [String]) -> Set<String> {
        let directory = root.appendingPathComponent("Sources/" + module)
        var found: Set<String> = []
        let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "import"), words[..<at].allSatisfy({ $0.hasPrefix("@") }),
                      at + 1 < words.count else { continue }
                let name = String(words[at + 1])
                if name != module && modules.contains(name) { found.insert(name) }
            }
        }
        return found
    }

    @Test func everyModuleIsDrawnAndImportsOnlyLayersBelowIt() throws {
        let modules = try Self.swiftModules()
        let (layers, drawn) = try Self.graph(modules: modules)
        #expect(Set(modules).subtracting(layers.keys).isEmpty,
                "modules missing from the README's graph: \(Set(modules).subtracting(layers.keys).sorted())")
        for module in modules {
            guard let layer = layers[module] else { continue }
            for used in Self.imports(of: module, among: modules).sorted() {
                guard let usedLayer = layers[used] else { continue }
                #expect(usedLayer > layer || drawn.contains([module, used]),
                        "\(module) imports \(used), which the README draws on \(usedLayer == layer ? "its own row" : "a layer above it")")
            }
        }
        // The check sees imports at all: Daemon composes on SamplePath.
        #expect(Self.imports(of: "Daemon", among: modules).contains("SamplePath"))
    }
}
