import Foundation
import Testing

/// `relative-view-bench` as a user runs it: a child process, its exit status, its output.
struct BenchRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The CLI built beside this test bundle (the test target depends on it).
    static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("relative-view-bench")

    init(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a chatty child never blocks.
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        stdout = String(decoding: outData, as: UTF8.self)
        stderr = String(decoding: errData, as: UTF8.self)
    }
}

func temporaryFile(_ name: String, _ contents: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("relative-view-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent(name).path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite(.serialized) struct BenchCLITests {
    @Test func helpListsTheOptions() throws {
        let run = try BenchRun(["--help"])
        #expect(run.status == 0)
        for option in ["--nodes", "--shape", "--seed", "--queries", "--tags", "--types", "--ops", "--layer", "--format", "--input", "--input-format", "--sizes", "--min-time"] {
            #expect(run.stdout.contains(option), "\(option) missing from --help")
        }
    }

    @Test(arguments: [
        ("bad.xml", "<root>\n  <a>\n", ":2:", "the document ends inside <a> (2 element(s) still open)"),
        ("bad.json", "{\n  \"a\": [1, 2,]\n}", ":2:14:", "unexpected ']'"),
    ])
    func malformedInputExitsNonZeroNamingFileLineAndColumn(name: String, contents: String, position: String, words: String) throws {
        let path = try temporaryFile(name, contents)
        let run = try BenchRun(["--input", path, "--format", "json"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("error: \(path)\(position)"), "\(run.stderr)")
        #expect(run.stderr.contains(words), "\(run.stderr)")
    }

    @Test func anUnreadablePathIsAnErrorNamingIt() throws {
        let path = "/nonexistent/\(UUID().uuidString).xml"
        let run = try BenchRun(["--input", path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: \(path): cannot open: No such file or directory"), "\(run.stderr)")
    }

    @Test(arguments: [
        (["--nodes", "1"], "too small"),
        (["--types", "Frame"], "unknown type 'Frame'"),
        (["--ops", "sort"], "unknown operation 'sort'"),
        (["--tags", "7,x"], "'x' in '7,x' is not an integer"),
        (["--input", "/tmp", "--sizes", "10,100"], "cannot be combined"),
        (["--input-format", "json"], "needs --input"),
    ])
    func badArgumentsAreRejectedWithAReason(arguments: [String], words: String) throws {
        let run = try BenchRun(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(words), "\(run.stderr)")
    }

    @Test func anImportedDocumentIsMeasuredAndEveryAnswerAgrees() throws {
        let items = (0 ..< 300).map { "<item tag=\"\($0 % 3)\"><name/><value tag=\"7\"/></item>" }.joined()
        let path = try temporaryFile("doc.xml", "<list>\(items)</list>")
        let run = try BenchRun(["--input", path, "--format", "json", "--min-time", "1", "--queries", "50"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(report.keys) == ["tool", "version", "allocator", "tree", "results", "memory"])
        let tree = try #require(report["tree"] as? [String: Any])
        #expect(tree["source"] as? String == path)
        #expect(tree["nodes"] as? Int == 901)
        #expect(tree["maxDepth"] as? Int == 2)
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.count == 26)
        #expect(results.allSatisfy { $0["agree"] as? Bool == true && $0["nodes"] as? Int == 901 })
        // Grouping by the document's own names and tags: the progress says which were chosen.
        #expect(run.stderr.contains("grouping by tags 7,1 and types item,name"), "\(run.stderr)")
    }

    @Test func aNaiveGroupingStoppedByItsBudgetIsALowerBoundAndTheAnswerIsStillChecked() throws {
        // 200,000 nodes in five groups of ~20,000: the naive core's copying takes far longer than 1 s.
        let run = try BenchRun([
            "--nodes", "200000", "--ops", "groupDescendantsByTypes", "--layer", "core", "--types", "View,Control,Button,Label,ImageView",
            "--naive-budget", "1", "--min-time", "1", "--queries", "1",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let row = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("groupDescendantsByTypes") })
        #expect(row.contains(" >"), "\(row)")
        #expect(row.hasSuffix("yes"), "\(row)")
        #expect(run.stderr.contains("checked against a linear-time walk of the naive tree"))
    }
}
