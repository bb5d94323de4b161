import Foundation
import Testing

/// Every ```swift block of README.md and of the DocC articles is compiled by `swift test`: it
/// must appear verbatim in a test source file under Tests/, where a test runs it and checks
/// what its comments claim.
///
/// "Verbatim" allows one thing: the whole block indented by the same amount (it sits in a
/// function). A block's leading `import` lines cannot sit in a function, so they must instead
/// be lines of the same file. Blocks fenced ```swift Package.swift are manifest lines, not
/// code: `.ci/run` reads them from the README and resolves them in a throwaway package.
///
/// The file must also import nothing the block's reader would not: only the block's imports
/// (or, for a block with none, those of the last block before it that has some, else the
/// document's module) and the test framework. A type's name is visible only in a file that
/// imports its module, so a block that needs a module its imports do not bring fails to
/// compile there, as it would for a reader. (The README's `CGRect` example once passed in a
/// file that imported Foundation itself, and failed with only `import RelativeView`.)
@Suite struct ReadmeCoverageTests {
    /// The package root: this file is Tests/RelativeViewTests/ReadmeCoverageTests.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fence info string of manifest blocks, which `.ci/run` extracts.
    static let manifestInfo = "swift Package.swift"

    @Test func everySwiftBlockOfTheReadmeIsInATestFile() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = CodeBlock.all(in: readme).filter { $0.info.hasPrefix("swift") }
        #expect(blocks.count > 10, "the README's ```swift blocks were not found")
        try Self.expectInTestFiles(blocks, of: "README.md", module: "RelativeView")
    }

    /// The DocC articles' examples too (Sources/<Module>/<Module>.docc/*.md).
    @Test func everySwiftBlockOfTheDocCArticlesIsInATestFile() throws {
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        let articles = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted().flatMap { module in
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
            return files.filter { $0.hasSuffix(".md") }.sorted().map { (module, "Sources/\(module)/\(module).docc/\($0)") }
        }
        #expect(articles.count >= 4, "the DocC articles were not found")
        for (module, article) in articles {
            let text = try String(contentsOf: Self.packageRoot.appendingPathComponent(article), encoding: .utf8)
            try Self.expectInTestFiles(CodeBlock.all(in: text).filter { $0.info.hasPrefix("swift") }, of: article, module: module)
        }
    }

    /// The test frameworks, which a file holding a block may import besides the block's imports.
    static let testFrameworks: Set<String> = ["Testing", "XCTest"]

    /// Records an issue, naming `document` and the line, for each block that appears in no
    /// test file that imports only what the block's reader imports (see the type's comment);
    /// a block with no imports of its own, and none before it, is read with `import module`.
    static func expectInTestFiles(_ blocks: [CodeBlock], of document: String, module: String) throws {
        let sources = try testSources()
        #expect(sources.count > 10, "the test sources were not found")
        var scope: Set<String> = [module]
        for block in blocks {
            if block.info == manifestInfo && document == "README.md" { continue }
            guard block.info == "swift" else {
                Issue.record("\(document):\(block.line): unknown fence info '\(block.info)' (use swift or, in the README, \(manifestInfo))")
                continue
            }
            let own = CodeBlock.importedModules(block.lines)
            if !own.isEmpty { scope = own }
            let hosts = sources.filter { block.appears(in: $0.lines) }
            #expect(!hosts.isEmpty, "\(document):\(block.line): this ```swift block appears verbatim in no file under Tests/; put it in a test that runs it")
            guard !hosts.isEmpty else { continue }
            let extras = hosts.map { (path: $0.path, modules: CodeBlock.importedModules($0.lines).subtracting(scope).subtracting(testFrameworks)) }
            #expect(extras.contains { $0.modules.isEmpty },
                    "\(document):\(block.line): the files that hold this block import more than its reader does (\(scope.sorted().joined(separator: ", "))): \(extras.map { "\($0.path) also imports \($0.modules.sorted().joined(separator: ", "))" }.joined(separator: "; ")); the block may not compile as written")
        }
    }

    @Test func manifestBlocksAreTheOnesCIResolves() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let manifests = CodeBlock.all(in: readme).filter { $0.info == Self.manifestInfo }
        try #require(manifests.count == 1, "one ```\(Self.manifestInfo) block, read by .ci/run")
        let lines = manifests[0].lines.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains(#".package(path: "../RelativeView"),"#))
        #expect(lines.contains { $0.hasPrefix(".package(url: ") && $0.hasSuffix(#", branch: "main"),"#) })
        #expect(lines.contains(#".product(name: "RelativeView", package: "RelativeView"),"#))
        let ci = try String(contentsOf: Self.packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("== \"\(Self.manifestInfo)\""), ".ci/run no longer reads the README's manifest lines")
    }

    @Test func aBlockIsFoundOnlyVerbatim() {
        let block = CodeBlock(info: "swift", line: 1, lines: ["import M", "", "f(1)", "  g()", "", "h()"])
        let file = ["import M", "func t() {", "    f(1)", "      g()", "", "    h()", "}"]
        #expect(block.appears(in: file))
        #expect(!block.appears(in: ["func t() {", "    f(1)", "      g()", "", "    h()", "}"]), "its import is missing")
        #expect(!block.appears(in: ["import M", "    f(1)", "    g()", "", "    h()"]), "relative indentation differs")
        #expect(!block.appears(in: ["import M", "    f(1)", "      g()", "    h()"]), "a blank line is missing")
        #expect(!block.appears(in: ["import M", "    f(2)", "      g()", "", "    h()"]), "a line differs")
    }

    /// A block read with `import M` only fails where the file imports more (here Foundation).
    @Test func aFileThatImportsMoreThanTheBlockIsNoHost() {
        let file = ["import Foundation", "import M", "import Testing", "func t() {", "    f(1)", "}"]
        #expect(CodeBlock.importedModules(file) == ["Foundation", "M", "Testing"])
        #expect(CodeBlock.importedModules(["@testable import M // why", "  import N", "let x = 1"]) == ["M", "N"])
        let extra = CodeBlock.importedModules(file).subtracting(["M"]).subtracting(Self.testFrameworks)
        #expect(extra == ["Foundation"])
    }

    /// The lines of every Swift file under Tests/.
    static func testSources() throws -> [(path: String, lines: [String])] {
        let tests = packageRoot.appendingPathComponent("Tests")
        guard let walker = FileManager.default.enumerator(atPath: tests.path) else { return [] }
        var sources: [(path: String, lines: [String])] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: tests.appendingPathComponent(relative), encoding: .utf8)
            sources.append((relative, text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)))
        }
        return sources
    }
}

/// A fenced code block of a Markdown file.
struct CodeBlock {
    /// The fence's info string (`swift`, `sh`, `swift Package.swift`).
    var info: String
    /// The 1-based line of the opening fence.
    var line: Int
    /// The lines between the fences.
    var lines: [String]

    /// The fenced blocks of `markdown`, in order (fences of three backticks at the start of a line).
    static func all(in markdown: String) -> [CodeBlock] {
        var blocks: [CodeBlock] = []
        var open: CodeBlock?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let block = open {
                    blocks.append(block)
                    open = nil
                } else {
                    open = CodeBlock(info: line.dropFirst(3).trimmingCharacters(in: .whitespaces), line: index + 1, lines: [])
                }
            } else if open != nil {
                open?.lines.append(String(line))
            }
        }
        return blocks
    }

    /// The modules `lines` import (`import M`, `@testable import M`, trailing comments aside).
    static func importedModules(_ lines: [String]) -> Set<String> {
        Set(lines.compactMap { line -> String? in
            var words = line.split(separator: "//").first?.split(separator: " ") ?? []
            if words.first == "@testable" { words.removeFirst() }
            guard words.count == 2, words[0] == "import" else { return nil }
            return String(words[1])
        })
    }

    /// Whether the block's `import` lines are lines of `file` and the rest of the block (from
    /// its first line that is neither an import nor blank) is a run of `file`'s lines, each
    /// indented by the same prefix; blank lines match blank lines.
    func appears(in file: [String]) -> Bool {
        let imports = lines.prefix { $0.hasPrefix("import ") || $0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard imports.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty || file.contains($0) }) else { return false }
        var body = Array(lines.dropFirst(imports.count))
        while body.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { body.removeLast() }
        guard let first = body.first, file.count >= body.count else { return body.isEmpty }
        for start in 0...(file.count - body.count) where file[start].hasSuffix(first) {
            let indent = String(file[start].dropLast(first.count))
            guard indent.allSatisfy({ $0 == " " }) else { continue }
            let matches = body.indices.allSatisfy { i in
                body[i].trimmingCharacters(in: .whitespaces).isEmpty ? file[start + i].trimmingCharacters(in: .whitespaces).isEmpty : file[start + i] == indent + body[i]
            }
            if matches { return true }
        }
        return false
    }
}
