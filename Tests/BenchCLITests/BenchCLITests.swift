import Foundation
import RelativeViewFixtures
import Testing

/// `relative-view-bench` as a user runs it: a child process, its exit status, its output.
struct BenchRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The CLI built beside this test bundle (the test target depends on it).
    static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("relative-view-bench")

    init(status: Int32, stdout: String, stderr: String) {
        (self.status, self.stdout, self.stderr) = (status, stdout, stderr)
    }

    /// Runs `tool` (a product built beside this test bundle: the bench, or `relative-view`).
    init(_ arguments: [String], tool: String = "relative-view-bench") throws {
        try self.init(arguments, executable: Self.executable.deletingLastPathComponent().appendingPathComponent(tool).path)
    }

    /// Runs the program at `executable` (a tool of the system that runs one of ours).
    init(_ arguments: [String], executable: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Into files, not pipes: a child that fills one pipe while the test reads the other
        // to its end would wait forever (a megabyte of XML on standard output did).
        let (outPath, errPath) = (try temporaryFile("stdout", ""), try temporaryFile("stderr", ""))
        defer { [outPath, errPath].forEach(removeTemporaryDirectory(of:)) }
        let (outURL, errURL) = (URL(fileURLWithPath: outPath), URL(fileURLWithPath: errPath))
        let (out, err) = (try FileHandle(forWritingTo: outURL), try FileHandle(forWritingTo: errURL))
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        status = process.terminationStatus
        stdout = String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
        stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
    }
}

func temporaryFile(_ name: String, _ contents: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("relative-view-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent(name).path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Removes the directory `temporaryFile` made for `path`, with whatever the test wrote
/// beside it (a test's outputs go there too), so that a test run leaves nothing in /tmp.
func removeTemporaryDirectory(of path: String) {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
}

@Suite(.serialized) struct BenchCLITests {
    @Test func helpListsTheOptions() throws {
        let run = try BenchRun(["--help"])
        #expect(run.status == 0)
        for option in ["--nodes", "--shape", "--seed", "--queries", "--tags", "--types", "--ops", "--layer", "--format", "--input", "--input-format", "--sizes", "--min-time"] {
            #expect(run.stdout.contains(option), "\(option) missing from --help")
        }
        // The quick run by default, the full run one option away.
        let help = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("(default: 100000)") && help.contains("--nodes 1000000 is the full run"), "\(run.stdout)")
    }

    @Test(arguments: [
        ("bad.xml", "<root>\n  <a>\n", ":2:", "the document ends inside <a> (2 element(s) still open)"),
        ("bad.json", "{\n  \"a\": [1, 2,]\n}", ":2:14:", "unexpected ']'"),
    ])
    func malformedInputExitsNonZeroNamingFileLineAndColumn(name: String, contents: String, position: String, words: String) throws {
        let path = try temporaryFile(name, contents)
        defer { removeTemporaryDirectory(of: path) }
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
        (["--nodes", "0"], "--nodes: a tree needs at least 1 node, got 0"),
        (["--sizes", "10,-5"], "--sizes: a tree needs at least 1 node, got -5"),
        (["--nodes", "3000000000"], "--nodes: at most 2,147,483,647 nodes (node ids are 32-bit)"),
        (["--nodes", "2000000000"], "more than this machine's"),
        (["--queries", "0"], "--queries must be at least 1"),
        (["--queries", "999999999999999"], "--queries: 999,999,999,999,999 queries need about"),
        (["--min-time", "0"], "--min-time must be 1 to 86,400,000 ms"),
        // Negative numbers are values, refused with the same reasons.
        (["--nodes", "-5"], "--nodes: a tree needs at least 1 node, got -5"),
        (["--min-time", "-1"], "--min-time must be 1 to 86,400,000 ms, got -1"),
        (["--queries", "-3"], "--queries must be at least 1, got -3"),
        (["--naive-budget", "-2"], "--naive-budget must be 1 to 86,400 seconds, got -2"),
        (["--runs", "-1"], "--runs must be 1 to 100, got -1"),
        (["--sizes", "-10"], "--sizes: a tree needs at least 1 node, got -10"),
        (["--naive-budget", "100000"], "--naive-budget must be 1 to 86,400 seconds"),
        (["--types", "Frame"], "unknown type 'Frame'"),
        (["--ops", "sort"], "unknown operation 'sort'"),
        (["--tags", "7,x"], "'x' in '7,x' is not an integer"),
        (["--input", "/tmp", "--sizes", "10,100"], "cannot be combined"),
        (["--input-format", "json"], "needs --input"),
        (["--import-only"], "--import-only needs --input"),
        (["--sizes", "10,20", "--save-snapshot", "/tmp/x.rvtree"], "--save-snapshot writes one tree"),
    ])
    func badArgumentsAreRejectedWithAReason(arguments: [String], words: String) throws {
        let run = try BenchRun(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.contains(words), "\(run.stderr)")
    }

    @Test func anImportedDocumentIsMeasuredAndEveryAnswerAgrees() throws {
        let items = (0 ..< 300).map { "<item tag=\"\($0 % 3)\"><name/><value tag=\"7\"/></item>" }.joined()
        let path = try temporaryFile("doc.xml", "<list>\(items)</list>")
        defer { removeTemporaryDirectory(of: path) }
        let run = try BenchRun(["--input", path, "--format", "json", "--min-time", "1", "--queries", "50"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(report.keys) == ["tool", "version", "allocator", "tree", "results", "skipped", "memory", "import"])
        let tree = try #require(report["tree"] as? [String: Any])
        #expect(tree["source"] as? String == path)
        #expect(tree["nodes"] as? Int == 901)
        let figures = try #require(report["import"] as? [String: Any])
        #expect(figures["nodes"] as? Int == 901 && figures["format"] as? String == "xml")
        #expect(figures["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        #expect(tree["maxDepth"] as? Int == 2)
        let results = try #require(report["results"] as? [[String: Any]])
        // Every operation on both layers: build, each query of the shared table, layout,
        // interleavedMutation and churn.
        #expect(results.count == 2 * (RelativeQuery.allCases.count + 4))
        #expect(results.allSatisfy { $0["agree"] as? Bool == true && $0["nodes"] as? Int == 901 })
        // Grouping by the document's own names and tags: the progress says which were chosen.
        #expect(run.stderr.contains("grouping by tags 7,1 (the document's two most frequent nonzero tags) and types item,name"), "\(run.stderr)")
    }

    /// `--save-snapshot` writes the imported tree; `--input` loads the snapshot back (told by
    /// its first bytes, mapped or read), with every answer agreeing; a damaged snapshot is
    /// an error naming the byte.
    @Test func snapshotsAreWrittenAndLoaded() throws {
        let items = (0 ..< 200).map { "<item tag=\"\($0 % 4)\" id=\"i\($0)\"><name/></item>" }.joined()
        let xml = try temporaryFile("doc.xml", "<list>\(items)</list>")
        defer { removeTemporaryDirectory(of: xml) }
        let snapshot = xml + ".rvtree"
        let save = try BenchRun(["--input", xml, "--import-only", "--save-snapshot", snapshot, "--format", "json"])
        #expect(save.status == 0, "\(save.stderr)")
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(save.stdout.utf8)) as? [String: Any])
        let figures = try #require(saved["snapshot"] as? [String: Any])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: snapshot)[.size] as? Int)
        #expect(figures["bytes"] as? Int == size && figures["nodes"] as? Int == 401 && figures["path"] as? String == snapshot)

        for flags in [[], ["--snapshot-read"]] {
            let load = try BenchRun(["--input", snapshot, "--import-only", "--format", "json"] + flags)
            #expect(load.status == 0, "\(load.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(load.stdout.utf8)) as? [String: Any])
            let loaded = try #require(report["import"] as? [String: Any])
            #expect(loaded["format"] as? String == (flags.isEmpty ? "snapshot (mapped)" : "snapshot (read)"))
            #expect(loaded["nodes"] as? Int == 401 && loaded["bytes"] as? Int == size)
            #expect(abs((loaded["fileBytesPerNode"] as? Double ?? 0) - Double(size) / 401) < 1e-9)
            // Its columns are the file's: the tree's own memory is a small part of the file.
            #expect(loaded["readsFileInPlace"] as? Bool == true && (loaded["arenaBytesPerNode"] as? Double ?? .infinity) < Double(size) / 401 / 4)
            #expect((report["tree"] as? [String: Any])?["maxDepth"] as? Int == 2)
        }
        let measured = try BenchRun(["--input", snapshot, "--format", "json", "--min-time", "1", "--queries", "50", "--ops", "build,isRelativeAncestor,groupDescendantsByTypes"])
        #expect(measured.status == 0, "\(measured.stderr)")
        let results = try #require((try JSONSerialization.jsonObject(with: Data(measured.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])
        #expect(results.count == 6 && results.allSatisfy { $0["agree"] as? Bool == true })

        let cut = snapshot + ".cut"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        try bytes.prefix(300).write(to: URL(fileURLWithPath: cut))
        let damaged = try BenchRun(["--input", cut, "--import-only"])
        #expect(damaged.status == 1)
        #expect(damaged.stderr.contains("error: \(cut): snapshot: byte 300: the header says \(size) bytes, the snapshot has 300 (truncated)"), "\(damaged.stderr)")
    }

    /// `--import-only`: the import's figures in each format, and no operation run.
    @Test(arguments: ["table", "json", "csv"])
    func importOnlyReportsTheImportAndNothingElse(format: String) throws {
        let members = (0 ..< 500).map { "\"k\($0)\": [\($0), true]" }.joined(separator: ", ")
        let path = try temporaryFile("doc.json", "{\(members)}")
        defer { removeTemporaryDirectory(of: path) }
        let run = try BenchRun(["--input", path, "--import-only", "--format", format])
        #expect(run.status == 0, "\(run.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        switch format {
        case "json":
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect((report["results"] as? [Any])?.isEmpty == true)
            let figures = try #require(report["import"] as? [String: Any])
            #expect(figures["nodes"] as? Int == 1501)
            #expect(figures["bytes"] as? Int == size)
            #expect(figures["format"] as? String == "json")
            let seconds = try #require(figures["seconds"] as? Double)
            let rate = try #require(figures["megabytesPerSecond"] as? Double)
            #expect(seconds > 0 && abs(rate - Double(size) / 1e6 / seconds) < 1e-6 * rate)
            #expect((figures["peakResidentBytes"] as? Int ?? 0) > 0)
            #expect((figures["arenaBytesPerNode"] as? Double ?? 0) > 0)
            #expect((report["tree"] as? [String: Any])?["maxDepth"] as? Int == 2)
        case "csv":
            let rows = csvRows(run.stdout)
            #expect(rows.count == 1)
            #expect(rows.first?["nodes"] == "1501" && rows.first?["bytes"] == "\(size)" && rows.first?["format"] == "json")
        default:
            #expect(run.stdout.contains("import: 0.0 MB of json (skeleton) in"), "\(run.stdout)")
            #expect(run.stdout.contains("(1,501 nodes)"), "\(run.stdout)")
            #expect(!run.stdout.contains("isRelativeAncestor"))
        }
    }

    @Test(.enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it"), arguments: ["table", "json", "csv"])
    func aNaiveGroupingStoppedByItsBudgetIsALowerBoundInEveryFormatAndTheAnswerIsStillChecked(format: String) throws {
        // 300,000 nodes in five groups of ~60,000: the naive core copies each group on every
        // append (tens of GB), far longer than 8 s; building its tree takes about 0.75 s in a
        // debug build on a quiet machine, so the build is not what the budget stops. (With a
        // budget of 3 s, a fresh-clone CI run on a busy machine saw the build stopped.)
        let run = try BenchRun([
            "--nodes", "300000", "--ops", "groupDescendantsByTypes", "--layer", "core", "--types", "View,Control,Button,Label,ImageView",
            "--naive-budget", "8", "--min-time", "1", "--queries", "1", "--format", format,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("checked against a linear-time walk of the naive tree"))
        switch format {
        case "table":
            let row = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("groupDescendantsByTypes") })
            #expect(row.contains(" >"), "\(row)")
            #expect(row.hasSuffix("yes"), "\(row)")
            #expect(run.stdout.contains(">: a lower bound"))
        case "json":
            let row = try #require(try jsonRows(run.stdout).first)
            #expect(row["status"] as? String == "lowerBound")
            #expect(row["agree"] as? Bool == true)
            #expect((row["speedup"] as? Double ?? 0) > 0)
        default:
            let rows = csvRows(run.stdout)
            #expect(rows.first?["status"] == "lowerBound", "\(run.stdout)")
            #expect(rows.first?["agree"] == "true")
        }
    }

    @Test(arguments: [("one.json", "{}"), ("one.xml", "<a/>"), ("one.html", "<html></html>")])
    func aOneNodeDocumentIsMeasuredAndLayoutSaysWhyItWasSkipped(name: String, contents: String) throws {
        let path = try temporaryFile(name, contents)
        defer { removeTemporaryDirectory(of: path) }
        try expectOneNodeRun(path)
    }

    @Test func anEmptyDirectoryIsAOneNodeTree() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("relative-view-bench-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try expectOneNodeRun(dir)
    }

    @Test func aGeneratedOneNodeTreeIsMeasuredInEveryFormat() throws {
        let csv = try BenchRun(["--nodes", "1", "--ops", "isRelativeAncestor,layout", "--min-time", "1", "--queries", "5", "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csvRows(csv.stdout)
        #expect(rows.filter { $0["op"] == "isRelativeAncestor" }.map { $0["status"] } == ["measured", "measured"])
        #expect(rows.contains { $0["op"] == "layout" && $0["status"] == "skipped" && $0["note"]?.contains("only its root") == true }, "\(csv.stdout)")
        let table = try BenchRun(["--nodes", "1", "--ops", "layout", "--min-time", "1"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("layout: skipped: it aligns every view but the root"), "\(table.stdout)")
    }

    private func expectOneNodeRun(_ path: String) throws {
        let run = try BenchRun(["--input", path, "--format", "json", "--min-time", "1", "--queries", "5"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tree = try #require(report["tree"] as? [String: Any])
        #expect(tree["nodes"] as? Int == 1)
        let results = try jsonRows(run.stdout)
        // Every operation but layout, on both layers, measured and agreeing with the naive core;
        // a root has no relatives, so the groupings and searches found nothing and say so.
        #expect(results.count == 2 * (RelativeQuery.allCases.count + 3))
        #expect(results.allSatisfy { $0["agree"] as? Bool == true })
        #expect(results.allSatisfy { $0["status"] as? String == ($0["matched"] as? Int == 0 ? "noMatch" : "measured") })
        #expect(results.filter { $0["status"] as? String == "noMatch" }.count == 2 * RelativeQuery.allCases.filter(\.findsNodes).count)
        let skipped = try #require(report["skipped"] as? [[String: Any]])
        #expect(skipped.count == 1)
        #expect(skipped.first?["op"] as? String == "layout")
        #expect((skipped.first?["reason"] as? String)?.contains("only its root") == true)
    }

    @Test func latencyTraceWritesOneLinePerStepAndImplementation() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try BenchRun(["--nodes", "500", "--ops", "churn", "--queries", "200", "--min-time", "1", "--latency-trace", path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "implementation,step,mutation,queryNs,stepNs")
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count == 3 * 200, "core, facade and naive, 200 steps each")
        for implementation in ["core", "facade", "naive"] {
            let mine = rows.filter { $0.first.map(String.init) == implementation }
            #expect(mine.map { Int($0[1]) } == (0 ..< 200).map { $0 }, "\(implementation): steps in order")
            #expect(mine.allSatisfy { ["append", "insert", "remove", "move", "exchange"].contains(String($0[2])) })
            #expect(mine.allSatisfy { row in row.count == 5 && Int(row[3]).map { $0 >= 0 } == true && Int(row[4]).map { $0 >= 0 } == true })
        }
    }

    @Test func latencyTraceToAPathThatCannotBeWrittenIsRefusedBeforeTheRun() throws {
        let run = try BenchRun(["--nodes", "100", "--ops", "churn", "--latency-trace", "/nonexistent-directory/trace.csv"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--latency-trace /nonexistent-directory/trace.csv: cannot create the file"), "\(run.stderr)")
        #expect(!run.stderr.contains("building the naive tree"), "refused before any work")
    }

    /// The unprepared churn: a tree built by appends with no preparation, every answer
    /// checked, latencies by step kind, and a trace of every step of every run.
    @Test func theUnpreparedChurnChecksEveryAnswerAndTracesEveryStep() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rv-unprepared-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("trace.csv").path
        let run = try BenchRun(["--unprepared-churn", "--nodes", "3000", "--queries", "4000", "--runs", "2", "--format", "json", "--latency-trace", path])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(json["wrongAnswers"] as? Int == 0)
        let runs = try #require(json["runs"] as? [[String: Any]])
        #expect(runs.count == 2)
        for r in runs {
            let kinds = try #require(r["kinds"] as? [[String: Any]])
            #expect(Set(kinds.compactMap { $0["kind"] as? String }) == ["append", "insertFirst", "removeLeaf", "moveLeaf", "toBack", "moveSubtree", "removeSubtree"])
            let steps = try #require(r["steps"] as? [String: Any])
            #expect(steps["count"] as? Int == 4000)
            #expect((r["bytesPerNodeAtEnd"] as? Double ?? 0) > 0)
        }
        let trace = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(trace.first == "implementation,run,step,mutation,subtree,queryNs,stepNs,mutationCPUNs")
        #expect(trace.count == 1 + 2 * 4000)
    }

    @Test(arguments: ["core", "facade", "both"])
    func churnReplaysOneScriptAfterTheOtherMutationsAndReportsLatencies(layer: String) throws {
        // interleavedMutation first: churn's script is made from the tree as that left it.
        let run = try BenchRun(["--nodes", "2000", "--ops", "interleavedMutation,churn", "--layer", layer, "--queries", "3000", "--min-time", "1", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try jsonRows(run.stdout)
        #expect(rows.count == (layer == "both" ? 4 : 2))
        #expect(rows.allSatisfy { $0["agree"] as? Bool == true && $0["status"] as? String == "measured" })
        let churn = rows.filter { $0["op"] as? String == "churn" }
        #expect(churn.count == (layer == "both" ? 2 : 1))
        for row in churn {
            #expect(row["queries"] as? Int == 3000)
            let latency = try #require(row["latency"] as? [String: Any])
            for side in ["arena", "naive"] {
                let l = try #require(latency[side] as? [String: Double], "\(side)")
                let figures = try ["queryP50", "queryP99", "queryP999", "queryMax", "stepMax"].map { try #require(l[$0], "\($0)") }
                #expect(figures[0] <= figures[1] && figures[1] <= figures[2] && figures[2] <= figures[3] && figures[3] <= figures[4], "\(l)")
                // The same queries timed alone at rest, before the replay: a measured latency.
                let rest = try #require(l["restQueryP50"], "restQueryP50")
                #expect(rest.isFinite && rest >= 0, "\(l)")
            }
        }
        #expect(rows.filter { $0["op"] as? String != "churn" }.allSatisfy { $0["latency"] is NSNull })
    }

    @Test func churnRunsWhenTheNaiveTreeWasNotBuilt() throws {
        let run = try BenchRun([
            "--shape", "chain", "--nodes", "50000", "--ops", "churn", "--naive-budget", "1", "--queries", "300", "--min-time", "1", "--format", "csv",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = csvRows(run.stdout)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0["status"] == "naiveNotBuilt" && $0["arenaQueryMax"]?.isEmpty == false && $0["naiveQueryMax"] == "" }, "\(run.stdout)")
        let table = try BenchRun(["--nodes", "500", "--ops", "isRelativeAncestor,churn", "--queries", "500", "--min-time", "1"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("churn latency"), "\(table.stdout)")
        #expect(table.stdout.contains("churn (core): query p50"), "\(table.stdout)")
    }

    @Test func aNegativeTagReachesTheNaiveCoreAndIsMeasured() throws {
        // UIKit tags may be negative; the naive child must get them as values, not options.
        let run = try BenchRun(["--nodes", "1000", "--tags=-3,4", "--ops", "groupDescendantsByTags", "--min-time", "1", "--queries", "3", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try jsonRows(run.stdout)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0["status"] as? String == "measured" && $0["agree"] as? Bool == true && $0["speedup"] is Double })
    }

    @Test(arguments: [
        ("echo 'simulated failure: disk on fire' >&2\nexit 3", "the naive worker exited with status 3: simulated failure: disk on fire"),
        ("kill -SEGV $$", "the naive worker was killed by signal 11"),
        ("echo nonsense", "the naive worker printed no answer"),
    ])
    func aFailedNaiveWorkerIsAnErrorWithItsCauseNeverABound(script: String, cause: String) throws {
        let worker = try temporaryFile("worker.sh", "#!/bin/sh\n\(script)\n")
        defer { removeTemporaryDirectory(of: worker) }
        #expect(chmod(worker, 0o755) == 0)
        let common = ["--nodes", "1000", "--ops", "groupDescendantsByTags,isRelativeAncestor", "--min-time", "1", "--queries", "3", "--naive-worker-executable", worker]
        let json = try BenchRun(common + ["--format", "json"])
        #expect(json.status == 1)
        #expect(json.stderr.contains("error: groupDescendantsByTags: \(cause)"), "\(json.stderr)")
        let rows = try jsonRows(json.stdout)
        let failed = rows.filter { $0["op"] as? String == "groupDescendantsByTags" }
        #expect(failed.count == 2)
        #expect(failed.allSatisfy { $0["status"] as? String == "naiveFailed" && $0["speedup"] is NSNull && $0["agree"] is NSNull })
        #expect(failed.allSatisfy { ($0["note"] as? String)?.contains(cause) == true })
        // The other operation is still measured and reported.
        #expect(rows.filter { $0["op"] as? String == "isRelativeAncestor" }.allSatisfy { $0["status"] as? String == "measured" && $0["agree"] as? Bool == true })
        let table = try BenchRun(common)
        #expect(table.status == 1)
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("groupDescendantsByTags") })
        #expect(row.contains("failed") && !row.contains(">"), "\(row)")
        #expect(table.stdout.contains("groupDescendantsByTags: \(cause)"), "\(table.stdout)")
        let csv = try BenchRun(common + ["--format", "csv"])
        #expect(csv.status == 1)
        #expect(csvRows(csv.stdout).filter { $0["op"] == "groupDescendantsByTags" }.allSatisfy { $0["status"] == "naiveFailed" && $0["speedup"] == "" })
    }

    @Test func theNaiveBuildRunsUnderTheBudgetAndTheRowsThatNeedItSaySo() throws {
        // Building a 200,000-node chain in the naive core walks every superview chain: O(n²), minutes.
        let run = try BenchRun([
            "--shape", "chain", "--nodes", "200000", "--ops", "build,isRelativeAncestor", "--naive-budget", "1",
            "--min-time", "1", "--queries", "10", "--format", "json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("the naive build was stopped by its budget (1 s, --naive-budget)"), "\(run.stderr)")
        let rows = try jsonRows(run.stdout)
        let build = rows.filter { $0["op"] as? String == "build" }
        #expect(build.count == 2)
        #expect(build.allSatisfy { $0["status"] as? String == "lowerBound" && $0["agree"] is NSNull && ($0["naiveNsPerOp"] as? Double ?? 0) >= 1e9 / 200_000 })
        let queries = rows.filter { $0["op"] as? String == "isRelativeAncestor" }
        #expect(queries.count == 2)
        #expect(queries.allSatisfy { $0["status"] as? String == "naiveNotBuilt" && $0["naiveNsPerOp"] is NSNull && ($0["arenaNsPerOp"] as? Double ?? 0) > 0 })
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let memory = try #require(report["memory"] as? [String: Any])
        #expect(memory["naiveBytesPerNode"] is NSNull)
    }

    /// The JSON's `memory` has the facade's bytes per node (views, store and arena) when a
    /// facade was built, more than the arena's alone, as the table's memory line does; `null`
    /// when only the core ran.
    @Test func theJSONReportsTheFacadesMemory() throws {
        let both = try BenchRun(["--nodes", "20000", "--ops", "isRelativeAncestor", "--min-time", "1", "--queries", "10", "--format", "json"])
        #expect(both.status == 0, "\(both.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [String: Any])
        let memory = try #require(report["memory"] as? [String: Any])
        let facade = try #require(memory["facadeBytesPerNode"] as? Double)
        let arena = try #require(memory["arenaBytesPerNode"] as? Double)
        #expect(facade > arena && arena > 0, "facade \(facade), arena \(arena)")
        let table = try BenchRun(["--nodes", "20000", "--ops", "isRelativeAncestor", "--min-time", "1", "--queries", "10"])
        let line = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("memory per node:") })
        #expect(line.contains("facade (views + store + arena)"), "\(line)")
        let core = try BenchRun(["--nodes", "20000", "--ops", "isRelativeAncestor", "--layer", "core", "--min-time", "1", "--queries", "10", "--format", "json"])
        let coreReport = try #require(try JSONSerialization.jsonObject(with: Data(core.stdout.utf8)) as? [String: Any])
        #expect((coreReport["memory"] as? [String: Any])?["facadeBytesPerNode"] is NSNull)
    }

    /// The CLI runs every query of the table it shares with `Benchmarks/` (`RelativeQuery`),
    /// on both layers, and each row agrees with the naive core: a query added to the table
    /// and not to the CLI, or answered differently by a layer, fails here.
    @Test func everyQueryOfTheSharedTableRunsOnBothLayersAndAgrees() throws {
        let names = RelativeQuery.allCases.map(\.rawValue)
        let run = try BenchRun(["--nodes", "300", "--ops", names.joined(separator: ","), "--min-time", "1", "--queries", "50", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try jsonRows(run.stdout)
        for name in names {
            for layer in ["core", "facade"] {
                let row = rows.first { $0["op"] as? String == name && $0["layer"] as? String == layer }
                #expect(row?["agree"] as? Bool == true, "\(name) \(layer): \(String(describing: row))")
            }
        }
        #expect(rows.count == 2 * names.count)
        // A query named like one of the CLI's other operations would shadow it.
        #expect(Set(names).count == names.count)
        #expect(Set(names).isDisjoint(with: ["build", "layout", "interleavedMutation", "churn"]))
    }
}

/// The `results` rows of a JSON report.
func jsonRows(_ text: String) throws -> [[String: Any]] {
    let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    return try #require(report["results"] as? [[String: Any]])
}

/// The rows of a CSV report keyed by its header; quoted fields (RFC 4180) are unquoted.
func csvRows(_ text: String) -> [[String: String]] {
    func fields(_ line: Substring) -> [String] {
        var out: [String] = []
        var field = ""
        var quoted = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            switch (c, quoted) {
            case ("\"", true):
                // A doubled quote inside a quoted field is one quote; a single one ends it.
                if let next = chars.next() {
                    if next == "\"" { field.append("\"") } else { quoted = false; if next == "," { out.append(field); field = "" } else { field.append(next) } }
                } else {
                    quoted = false
                }
            case ("\"", false) where field.isEmpty: quoted = true
            case (",", false): out.append(field); field = ""
            default: field.append(c)
            }
        }
        out.append(field)
        return out
    }
    let lines = text.split(separator: "\n")
    guard let header = lines.first.map(fields) else { return [] }
    return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, fields($0))) }
}
