import ArgumentParser
import Foundation
import RelativeView
import RelativeViewFixtures
import RelativeViewImport
import RelativeViewSnapshot

/// `relative-view-bench`: builds a large tree in the arena (core and facade) and in the
/// naive core, asks every implementation the same questions, checks that the answers
/// agree and prints the speed-up of each operation.
@main
struct RelativeViewBench: ParsableCommand {
    static let version = "0.1.0"

    /// The exit status when an answer of the arena differed from the naive core's. Bad input
    /// (a file, an option) and a failed measurement exit 1; a refused command line, 64.
    static let exitDisagreement: Int32 = 2

    static let configuration = CommandConfiguration(
        commandName: "relative-view-bench",
        abstract: "Compare the RelativeView arena with the naive pointer-walking core, side by side.",
        discussion: """
            With no arguments: a random recursive tree of 100,000 nodes (seed 1), every \
            operation, a table on standard output, in about 30 s on 2 cores; --nodes 1000000 \
            is the full run (about 8 minutes). Progress, with an estimate of the time left, \
            goes to standard error; Ctrl-C stops the run and its naive worker.
            """,
        version: version)

    @OptionGroup var options: BenchOptions

    /// Runs `body`; an import error is printed (file, line, column, reason) and exits 1. An
    /// error about a copy of `--input` (a pipe read into the scratch directory) names the
    /// input as the user gave it.
    private static func imported<T>(_ options: BenchOptions, _ body: () throws(ImportError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            var error = error
            if error.path == options.input { error.path = options.inputLabel }
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// `--save-snapshot`: writes `tree` there and says what it took (`nil` without the
    /// option); a file that cannot be written stops the run with an error naming it.
    private static func saveSnapshot(_ tree: ViewTree, options: BenchOptions, progress: Progress) throws -> Report.SavedSnapshot? {
        guard let path = options.saveSnapshot else { return nil }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try tree.writeSnapshot(to: path)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let seconds = nanoseconds(clock.now - start) / 1e9
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Report.SavedSnapshot(path: path, bytes: bytes, nodes: tree.count, seconds: seconds)
    }

    mutating func run() throws {
        let options = self.options
        // The naive core recurses as the original does (and its deep trees free recursively),
        // which overflows a default 8 MiB stack at depths near 10^5; a large stack lets it
        // finish on deep trees instead of crashing the run.
        try onLargeStack { try Self.run(options) }
    }

    /// `--import-only`: the import's figures, and nothing else.
    private static func importOnly(_ options: BenchOptions) throws {
        let progress = Progress(total: 1)
        progress.note("importing \(options.inputLabel)")
        let (tree, figures) = try imported(options) { () throws(ImportError) in try TreeSource.importTree(options, progress: progress) }
        progress.finish()
        var report = Report(
            allocator: allocatorName,
            tree: Report.Tree(source: options.inputLabel, nodes: tree.count, maxDepth: TreeSource.maxDepth(of: tree), seed: options.seed, shape: "imported"),
            results: [], skipped: [], memory: Report.Memory(arenaBytesPerNode: figures.arenaBytesPerNode, naiveBytesPerNode: .nan))
        report.importFigures = figures
        report.savedSnapshot = try saveSnapshot(tree, options: options, progress: progress)
        if let path = options.exportTo {
            let clock = ContinuousClock()
            let start = clock.now
            do {
                try tree.write(to: path, format: ExportFormat.detect(path: path)!)
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                throw ExitCode.failure
            }
            let seconds = nanoseconds(clock.now - start) / 1e9
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            report.export = Report.Export(path: path, bytes: bytes, seconds: seconds)
        }
        switch options.format {
        case .table: print(report.importTable())
        case .json: print(try report.json())
        case .csv: print(report.importCSV())
        }
    }

    private static func run(_ options: BenchOptions) throws {
        if let op = options.naiveWorker {
            if let parent = options.naiveWorkerParent { try NaiveWorker.dieWithParent(parent) }
            let (sample, first) = try imported(options) { () throws(ImportError) in try NaiveWorker.measureWholeTree(op, options: options, nodes: options.nodes) }
            print(sample.nanosecondsPerOperation, sample.operations, sample.digests.first ?? 0, first ?? 0)
            return
        }
        let scratch: ScratchDirectory
        var options = options
        do {
            scratch = try ScratchDirectory()
            if let input = options.input {
                let resolved = try StreamInput.resolve(input, scratch: scratch, progress: Progress(total: 1))
                (options.input, options.inputName) = (resolved, StreamInput.name(of: input))
            }
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        try run(options, scratch: scratch)
    }

    /// The run (not a naive worker's), with its scratch directory.
    private static func run(_ options: BenchOptions, scratch: ScratchDirectory) throws {
        if let path = options.latencyTrace {
            // Created now, so that a path that cannot be written fails before a long run.
            guard FileManager.default.createFile(atPath: path, contents: Data("implementation,step,mutation,queryNs,stepNs\n".utf8)) else {
                throw ValidationError("--latency-trace \(path): cannot create the file")
            }
        }
        if options.importOnly { return try importOnly(options) }
        if options.unpreparedChurn { return try UnpreparedChurn.run(options) }
        // Operations run in their canonical order: interleavedMutation changes the trees, so it comes last.
        let ops = BenchOperation.allCases.filter(options.ops.contains)
        let layers = options.layer.layers
        var progress = Progress(total: options.treeSizes.count * (3 + ops.count * layers.count))
        var rows: [ResultRow] = []
        var skipped: [Report.Skipped] = []
        var lastTree: Report.Tree?
        var memory = Report.Memory(arenaBytesPerNode: 0, naiveBytesPerNode: 0)
        var importFigures: Report.Import?
        var savedSnapshot: Report.SavedSnapshot?
        for size in options.treeSizes {
            if options.input != nil { progress.note("importing \(options.inputLabel)") }
            let clock = ContinuousClock()
            let start = clock.now
            let (source, figures, importedTree) = try imported(options) { () throws(ImportError) in try TreeSource.make(options, nodes: size, progress: progress) }
            importFigures = figures
            if options.saveSnapshot != nil {
                progress.note("writing a snapshot of the tree to \(options.saveSnapshot ?? "")")
                savedSnapshot = try saveSnapshot(importedTree ?? source.coreTree(), options: options, progress: progress)
            }
            let spec = source.spec
            if options.input != nil {
                progress.note("imported \(grouped(spec.count)) nodes in \(fixed(nanoseconds(clock.now - start) / 1e9, 2)) s (\(figures.map { $0.line } ?? "")); grouping by tags \(source.tags.map(String.init).joined(separator: ","))\(source.tagsChosen.map { " (\($0))" } ?? "") and types \(source.typeNames.joined(separator: ","))")
            }
            let work = Workload(source: source, seed: options.seed)
            let minimum = Duration.milliseconds(options.minTime)
            for implementation in Implementation.allCases {
                progress.advance("\(grouped(spec.count)) nodes: building the \(implementation.rawValue) tree")
                if implementation == .facade && !layers.contains(.facade) { continue }
                work.build(implementation, minimum: minimum, naiveBudget: .seconds(options.naiveBudget))
                if implementation == .naive, let stopped = work.naiveBuildStopped {
                    progress.note("the naive build was stopped by its budget (\(options.naiveBudget) s, --naive-budget) after \(grouped(stopped.built)) of \(grouped(spec.count)) nodes; the naive core is left out of this run")
                }
            }
            let reporter = progress
            let runner = OperationRunner(work: work, options: options, scratch: scratch) { reporter.note($0) }
            var naiveCache = OperationRunner.NaiveCache()
            for op in ops {
                if let reason = op.cannotRun(onNodes: spec.count) {
                    progress.note("\(op.rawValue): skipped: \(reason)")
                    skipped.append(Report.Skipped(op: op.rawValue, nodes: spec.count, reason: reason))
                    for _ in layers { progress.advance("\(grouped(spec.count)) nodes: \(op.rawValue) skipped") }
                    continue
                }
                for layer in layers {
                    progress.advance("\(grouped(spec.count)) nodes: \(op.rawValue) (\(layer.rawValue))")
                    let row = runner.run(op, layer: layer, naiveCache: &naiveCache)
                    if row.agree == false {
                        progress.note("error: \(op.rawValue) (\(layer.rawValue)): answers differ from the naive core")
                    }
                    rows.append(row)
                }
            }
            lastTree = Report.Tree(
                source: spec.source, nodes: spec.count, maxDepth: Int(spec.depths().max() ?? 0), seed: options.seed,
                shape: options.input == nil ? options.shape.rawValue : "imported", tags: source.tags, types: source.typeNames,
                tagsChosen: source.tagsChosen)
            memory = Report.Memory(
                arenaBytesPerNode: work.bytesPerNode[.core] ?? 0, naiveBytesPerNode: work.bytesPerNode[.naive] ?? 0,
                facadeBytesPerNode: work.bytesPerNode[.facade])
        }
        progress.finish()
        guard let lastTree else { return }
        var report = Report(allocator: allocatorName, tree: lastTree, results: rows, skipped: skipped, memory: memory)
        report.importFigures = importFigures
        report.savedSnapshot = savedSnapshot
        switch options.format {
        case .table: print(report.table())
        case .json: print(try report.json())
        case .csv: print(report.csv())
        }
        if rows.contains(where: { $0.agree == false }) {
            throw ExitCode(Self.exitDisagreement)
        }
        if rows.contains(where: { $0.status == .naiveFailed }) {
            throw ExitCode.failure
        }
    }
}
