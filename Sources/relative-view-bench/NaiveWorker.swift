import Foundation
import RelativeViewNaive
import RelativeViewFixtures
import RelativeViewImport
import RelativeViewCore
import RelativeViewSnapshot
import CParentDeath
import ArgumentParser

/// What the naive core did on one operation.
struct NaiveMeasurement {
    /// How the naive side of a row ended.
    enum Outcome: Equatable {
        /// Measured to the end; `sample` is its time and its digests are compared.
        case measured
        /// Stopped by its time budget (`--naive-budget`): `sample` is a lower bound, and the
        /// arena's first answer is checked against a linear-time walk of the naive tree.
        case stoppedByBudget
        /// The child process that measures it failed (the reason says how): no figure.
        case failed(String)
        /// The naive tree itself was not built within the budget: nothing was asked of it.
        case notBuilt
    }

    var sample: Sample
    /// The digest of the whole answer to the first query (`nil` for yes/no answers).
    var firstAnswer: UInt64?
    var outcome: Outcome

    /// Nothing measured: the naive tree was not built.
    static let notBuilt = NaiveMeasurement(sample: Sample(nanosecondsPerOperation: .nan, operations: 0, digests: []), firstAnswer: nil, outcome: .notBuilt)
}

/// Measures the naive core. Queries with small answers run in this process; the whole-tree
/// groupings run in a child process (this same binary with `--naive-worker`), which is
/// stopped when its time budget runs out: the original copies a group on every append,
/// so grouping a million nodes into a few large groups can take the better part of an hour.
enum NaiveWorker {
    /// The whole-tree grouping `op` on the root of a freshly built naive tree; the answer
    /// line the child prints: nanoseconds per query, queries, summary digest, first-answer digest.
    static func measureWholeTree(_ op: BenchOperation, options: BenchOptions, nodes: Int) throws(ImportError) -> (Sample, UInt64?) {
        let (source, _, _) = try TreeSource.make(options, nodes: nodes, progress: Progress(total: 1, quiet: true))
        let spec = source.spec
        var naive: [NaiveView] = []
        naive.reserveCapacity(nodes)
        spec.buildNaive(into: &naive)
        let handles = Dictionary(uniqueKeysWithValues: naive.enumerated().map { (ObjectIdentifier($1), $0) })
        let handle = { (v: NaiveView) in handles[ObjectIdentifier(v)] ?? -1 }
        guard let query = op.query, query.isWholeTree else { preconditionFailure("\(op.rawValue) is not a whole-tree grouping") }
        return OperationRunner.naiveWholeTree(
            query, root: naive[0], tags: source.tags, types: source.typeIndices.map { StockCatalog.naiveViews[$0] }, handle: handle,
            count: options.queryCount(for: op), minimum: .milliseconds(options.minTime))
    }

    /// The whole answer the naive core's whole-tree grouping `op` gives on the root, digested
    /// as ``FirstAnswer`` digests it, computed in linear time: the original's walk (pre-order,
    /// subviews in order) and keys, appending in place instead of copying each group. It
    /// checks the arena's answer when the naive core ran out of its budget.
    static func referenceAnswer(_ op: BenchOperation, work w: Workload) -> UInt64 {
        guard let query = op.query else { preconditionFailure("\(op.rawValue) is not a query") }
        let key = OperationRunner.naiveReferenceKey(query, work: w)
        var groups: [UInt64: [Int]] = [:]
        var stack = Array(w.naive[0].subviews.reversed())
        while let view = stack.popLast() {
            if let k = key(view) { groups[k, default: []].append(w.handle(view)) }
            stack.append(contentsOf: view.subviews.reversed())
        }
        return Answers.full(groups, { $0 }, { $0 })
    }

    /// Runs `measureWholeTree` in a child process, waiting at most `budget` (tree building
    /// included). A child that exits with an error, dies of a signal or prints no answer is a
    /// failure, with its cause; only a child stopped by the budget gives a lower bound.
    static func run(_ op: BenchOperation, work: Workload, options: BenchOptions, budget: Duration, scratch: ScratchDirectory) -> NaiveMeasurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: options.naiveWorkerExecutable ?? "/proc/self/exe")
        process.arguments = workerArguments(op, work: work, options: options)
        let output = Pipe()
        process.standardOutput = output
        // The child's error output goes to a file, read after it ends: the cause of a failure.
        let errorPath = scratch.file("naive-worker-\(op.rawValue).stderr")
        guard FileManager.default.createFile(atPath: errorPath, contents: nil), let errorFile = FileHandle(forWritingAtPath: errorPath) else {
            return failed("cannot create \(errorPath) for the naive worker's error output")
        }
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        process.standardError = errorFile
        let clock = ContinuousClock()
        let start = clock.now
        var timedOut = false
        do {
            try process.run()
        } catch {
            return failed("cannot start the naive worker (\(process.executableURL?.path ?? "?")): \(error)")
        }
        try? errorFile.close()
        while process.isRunning {
            if clock.now - start >= budget {
                timedOut = true
                // SIGKILL: SIGTERM can be blocked or ignored by a mask inherited from our parent
                // (a test runner's is), and the child would run on to the end.
                kill(process.processIdentifier, SIGKILL)
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if timedOut {
            let elapsed = nanoseconds(clock.now - start)
            return NaiveMeasurement(sample: Sample(nanosecondsPerOperation: elapsed, operations: 0, digests: []), firstAnswer: nil, outcome: .stoppedByBudget)
        }
        let fields = text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard process.terminationReason == .exit, process.terminationStatus == 0, fields.count == 4,
              let ns = Double(fields[0]), let count = Int(fields[1]), let summary = UInt64(fields[2]), let first = UInt64(fields[3]) else {
            let how = process.terminationReason == .uncaughtSignal
                ? "was killed by signal \(process.terminationStatus) (\(strsignal(process.terminationStatus).map { String(cString: $0) } ?? "unknown"))"
                : process.terminationStatus != 0 ? "exited with status \(process.terminationStatus)" : "printed no answer (\(text.debugDescription))"
            let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            let cause = errors.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.prefix(3).joined(separator: " / ")
            return failed("the naive worker \(how)" + (cause.isEmpty ? "" : ": \(cause)"))
        }
        return NaiveMeasurement(
            sample: Sample(nanosecondsPerOperation: ns, operations: count, digests: [summary]),
            firstAnswer: first, outcome: .measured)
    }

    /// The child's command line: the same tree (same shape and seed, or the same file) and
    /// the same questions. Every value is attached with `=`, so that a value starting with
    /// `-` (a negative tag, a path) is not taken for an option.
    static func workerArguments(_ op: BenchOperation, work: Workload, options: BenchOptions) -> [String] {
        var arguments = [
            "--naive-worker=\(op.rawValue)", "--nodes=\(work.count)", "--shape=\(options.shape.rawValue)",
            "--seed=\(options.seed)", "--tags=\(work.tags.map(String.init).joined(separator: ","))",
            "--min-time=\(options.minTime)", "--queries=\(options.queryCount(for: op))",
            "--naive-worker-parent=\(getpid())",
        ]
        if let input = options.input {
            arguments.append("--input=\(input)")
            // A snapshot is told by its first bytes, as in this process; a document's format is passed on.
            if options.inputFormat != nil || !ViewTree.isSnapshot(atPath: input) {
                arguments.append("--input-format=\((options.inputFormat ?? ImportFormat.detect(path: input) ?? .xml).rawValue)")
                arguments.append("--import-content=\(options.importContent.rawValue)")
            }
        }
        if let types = options.types { arguments.append("--types=\(types.joined(separator: ","))") }
        return arguments
    }

    /// Makes this process (a naive worker) die with its parent `parent`, the CLI: the kernel
    /// kills it when the CLI ends, however it ends (Ctrl-C, SIGTERM, SIGKILL, a crash). A
    /// worker whose parent is already gone has nothing to report to and exits at once; one
    /// on a system without the request runs on, stopped by its parent's budget as before.
    static func dieWithParent(_ parent: Int32) throws {
        if rv_die_with_parent(parent) != 0 && errno == ESRCH {
            throw ExitCode.failure
        }
    }

    private static func failed(_ reason: String) -> NaiveMeasurement {
        NaiveMeasurement(sample: Sample(nanosecondsPerOperation: .nan, operations: 0, digests: []), firstAnswer: nil, outcome: .failed(reason))
    }
}
