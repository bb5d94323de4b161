import Foundation
import Testing

/// What a new user trips over: a run interrupted while the naive worker runs, and inputs
/// that are not regular files (a named pipe, standard input, a device).
@Suite struct InterruptAndStreamTests {
    /// The processes whose command line holds every one of `arguments` (from /proc).
    static func processes(withArguments arguments: [String]) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.allSatisfy(words.contains) ? pid : nil
        }
    }

    /// Waits up to `seconds` for `condition`, checking every 50 ms.
    static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    /// A run whose naive worker groups one group of 200,000 nodes (every node has tag 0),
    /// which takes the original's copying far longer than the test waits. The worker is
    /// found by its command line; the CLI is then killed with `signal`, and the worker must
    /// be gone within a few seconds (the kernel kills it when its parent dies). After
    /// SIGINT, the run also removes its scratch directory and exits with 130.
    @Test(arguments: [SIGINT, SIGTERM, SIGKILL])
    func aRunEndedWhileTheNaiveWorkerRunsLeavesNoProcessBehind(signal: Int32) throws {
        let path = try temporaryFile("flat.xml", "<a>" + String(repeating: "<b/>", count: 200_000) + "</a>")
        defer { removeTemporaryDirectory(of: path) }
        let scratch = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("tmp").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = BenchRun.executable
        process.arguments = ["--input", path, "--ops", "groupDescendantsByTags", "--layer", "core", "--min-time", "1", "--naive-budget", "300"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let worker = ["--naive-worker=groupDescendantsByTags", "--input=\(path)"]
        let started = Self.wait(seconds: 120) { !Self.processes(withArguments: worker).isEmpty }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try #require(started, "the naive worker never started")
        let gone = Self.wait(seconds: 10) { Self.processes(withArguments: worker).isEmpty }
        #expect(gone, "a naive worker outlived its CLI: \(Self.processes(withArguments: worker))")
        if signal == SIGKILL {
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        } else {
            #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal)
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "the scratch directory was left behind")
        }
    }

    /// Runs the CLI with `stdin` as its standard input (a pipe), killed if it takes more
    /// than `seconds`; `nil` if it had to be killed.
    static func run(_ arguments: [String], stdin: Data? = nil, seconds: Double = 60, writeToFIFO fifo: (path: String, data: Data)? = nil) throws -> BenchRun? {
        let process = Process()
        process.executableURL = BenchRun.executable
        process.arguments = arguments
        let (input, out, err) = (Pipe(), Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let fifo {
            // Opening a FIFO for writing waits for its reader: on a thread of its own.
            Thread.detachNewThread {
                if let handle = FileHandle(forWritingAtPath: fifo.path) {
                    handle.write(fifo.data)
                    try? handle.close()
                }
            }
        }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL { return nil }
        return BenchRun(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    static let json = Data(#"{"a": [1, 2, {"b": null}], "c": "d"}"#.utf8)

    /// A named pipe as `--input`, with and without `--input-format`: read once, the format
    /// told from its first bytes, imported, and every answer agrees (the naive worker reads
    /// the run's copy of it). Ten runs each: the hang came in 7 runs of 8.
    @Test(arguments: [[], ["--input-format", "json"]])
    func aNamedPipeIsReadAsAStream(format: [String]) throws {
        let unused = try temporaryFile("unused", "")
        defer { removeTemporaryDirectory(of: unused) }
        let dir = URL(fileURLWithPath: unused).deletingLastPathComponent()
        for k in 0 ..< 10 {
            let fifo = dir.appendingPathComponent("pipe\(k)").path
            try #require(mkfifo(fifo, 0o600) == 0)
            let run = try #require(try Self.run(["--input", fifo, "--format", "json", "--min-time", "1", "--queries", "20", "--ops", "build,groupDescendantsByTypes"] + format,
                                                seconds: 60, writeToFIFO: (fifo, Self.json)), "run \(k) hung")
            #expect(run.status == 0, "\(run.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let tree = try #require(report["tree"] as? [String: Any])
            #expect(tree["nodes"] as? Int == 7 && tree["source"] as? String == fifo)
            #expect(try jsonRows(run.stdout).allSatisfy { $0["agree"] as? Bool == true })
        }
    }

    /// Standard input piped in, as `-`, with no `--input-format`: told by its first byte.
    @Test func standardInputIsReadAsAStream() throws {
        let run = try #require(try Self.run(["--input", "-", "--import-only", "--format", "json"], stdin: Self.json), "the run hung")
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tree = try #require(report["tree"] as? [String: Any])
        #expect(tree["nodes"] as? Int == 7 && tree["source"] as? String == "standard input")
        let figures = try #require(report["import"] as? [String: Any])
        #expect(figures["format"] as? String == "json")
    }

    /// A pipe that is not a document is an error, about standard input, that says to give
    /// the format.
    @Test func aPipeOfNoKnownFormatSaysToGiveIt() throws {
        let run = try #require(try Self.run(["--input", "-", "--import-only"], stdin: Data("hello".utf8)), "the run hung")
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: standard input: cannot tell the format"), "\(run.stderr)")
    }

    /// A device is refused with a message, never read (/dev/zero would never end).
    @Test func aDeviceIsRefused() throws {
        let run = try #require(try Self.run(["--input", "/dev/zero", "--import-only"], seconds: 30), "the run hung")
        #expect(run.status == 1)
        #expect(run.stderr.contains("--input /dev/zero: is a character device, not a file, a pipe or a directory"), "\(run.stderr)")
    }

    /// Binary data read as XML: what it starts with, not libxml2's "Document is empty".
    @Test func binaryDataReadAsXMLSaysWhatItStartsWith() throws {
        let path = try temporaryFile("elf", "")
        defer { removeTemporaryDirectory(of: path) }
        try Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00]).write(to: URL(fileURLWithPath: path))
        let run = try #require(try Self.run(["--input", path, "--input-format", "xml", "--import-only"]), "the run hung")
        #expect(run.status == 1)
        #expect(run.stderr.contains("not XML: the document does not start with markup ('<'); its first bytes are 7F 45 4C 46 02 01 01 00 (binary data)"), "\(run.stderr)")
        #expect(!run.stderr.contains("Document is empty"))
    }

    /// A snapshot given with `--input-format`: it says that it is a snapshot.
    @Test func aSnapshotGivenAFormatSaysItIsASnapshot() throws {
        let snapshot = try temporaryFile("tree.rvtree", "")
        defer { removeTemporaryDirectory(of: snapshot) }
        let saved = try BenchRun(["--nodes", "10", "--ops", "build", "--min-time", "1", "--save-snapshot", snapshot])
        try #require(saved.status == 0, "\(saved.stderr)")
        let run = try #require(try Self.run(["--input", snapshot, "--input-format", "xml", "--import-only"]), "the run hung")
        #expect(run.status == 1)
        #expect(run.stderr.contains("is a snapshot (it starts with the snapshot magic), not xml: give it without --input-format"), "\(run.stderr)")
    }
}
