import ArgumentParser
import Foundation
import RelativeViewFixtures
import RelativeViewImport

/// The command-line options, checked before anything runs.
struct BenchOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Number of nodes of the generated tree (at least 1; at most what this machine's memory holds, about 512 bytes per node). The default, 100,000, is a quick run (about 30 s on 2 cores); --nodes 1000000 is the full run (about 8 minutes).")
    var nodes: Int = 100_000

    @Option(help: "Shape of the generated tree: random, chain, wide or balanced.")
    var shape: TreeShape = .random

    @Option(parsing: .unconditional, help: "Seed of the tree and of the queries.")
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "Queries per operation (default: 1,000,000 for O(1) queries and conversions, every view but the root for layout, 100,000 mutations for interleavedMutation, 100,000 steps for churn, 100 for whole-tree groupings).")
    var queries: Int?

    @Option(parsing: .unconditional, help: "Comma-separated tags to group by (default: 7,13; with --input, the two most frequent nonzero tags, or 0 in a document that has none).", transform: BenchOptions.parseInts)
    var tags: [Int]?

    @Option(help: "Comma-separated type names to group by (default: Button,Label, from View, Control, Button, Label, ImageView, TextField, Slider, ScrollView, TableView, TableViewCell; with --input, element or value type names, at most 9, by default the two most frequent).", transform: BenchOptions.parseNames)
    var types: [String]?

    @Option(help: "Measure a real tree instead of a generated one: an XML, XHTML, HTML or JSON document, a directory (symlinks not followed), or a snapshot (--save-snapshot), told by its first bytes; a pipe, or - for standard input, is read to its end first.")
    var input: String?

    /// Internal: how reports and errors name `--input` when the run reads a copy of it (a
    /// pipe saved to a file, see `StreamInput`): the path as given, or "standard input".
    @Option(help: .hidden)
    var inputName: String?

    @Option(help: "The format of --input: xml, html, json or directory (default: from the path and its first bytes).")
    var inputFormat: ImportFormat?

    @Option(help: "What an import of --input keeps: skeleton (names, id, class, tag, JSON member names: the view-tree workload) or whole (text, comments, every attribute, JSON values).")
    var importContent: ImportContent = .skeleton

    @Option(help: "With --import-only: write the imported tree to this file (.xml or .json), and report the bytes and the time it took.")
    var exportTo: String?

    @Option(help: "Write a snapshot of the tree (generated or imported) to this file, and report its size and the time it took; load it back with --input.")
    var saveSnapshot: String?

    @Flag(help: "With a snapshot as --input: read the file into memory and load it from there, instead of mapping it (mmap) and loading it in place.")
    var snapshotRead = false

    @Flag(help: "With --input: import it, report the import (seconds, MB/s, nodes/s, arena bytes per node, peak memory) and stop, building no other tree and running no operation.")
    var importOnly = false

    @Option(help: "Comma-separated operations to run (default: all). One of: \(BenchOperation.allCases.map(\.rawValue).joined(separator: ", ")).", transform: BenchOptions.parseOperations)
    var ops: [BenchOperation] = BenchOperation.allCases

    @Option(help: "Which arena layer to compare with the naive core: core, facade or both.")
    var layer: LayerChoice = .both

    @Option(help: "Output format: table, json or csv.")
    var format: OutputFormat = .table

    @Option(parsing: .unconditional, help: "Comma-separated tree sizes for a scaling run (one row per size and operation); overrides --nodes.", transform: BenchOptions.parseInts)
    var sizes: [Int]?

    @Option(parsing: .unconditional, help: "Measure each query this many times (arena and naive core alike) and report the median with the spread of the speed-ups; build, layout and the mutations run once.")
    var runs: Int = 1

    @Option(parsing: .unconditional, help: "Minimum measuring time per operation and implementation, in milliseconds.")
    var minTime: Int = 100

    @Option(parsing: .unconditional, help: "Seconds the naive core may take to build its tree, and on one whole-tree grouping (tree building included), before it is stopped: its time is then reported as a lower bound (status lowerBound); a tree it could not build leaves it out of the run (status naiveNotBuilt).")
    var naiveBudget: Int = 120

    @Option(help: "Write churn's per-step latencies to this CSV file (created or emptied first): a header, then one line per step and implementation: implementation, step, mutation, query ns, step ns.")
    var latencyTrace: String?

    @Flag(help: "Run the unprepared churn instead of the table: a tree of --nodes nodes built by random appends through the public API (no reservation, no compaction), then --queries steps (default 300,000) of appends, inserts, removals and moves of leaves and of subtrees of every size, each followed by an isAncestor checked against a parent walk; --runs runs (seeds --seed, --seed + 1, ...). Reports the latency of steps by kind and of queries against the fresh tree's, and bytes per node at the end; --latency-trace gets one line per step (run, step, mutation, subtree size, query ns, step ns, mutation CPU ns).")
    var unpreparedChurn = false

    /// Internal: run one whole-tree grouping on the naive core and print its figures (used by the CLI itself).
    @Option(help: .hidden)
    var naiveWorker: BenchOperation?

    /// Internal: the naive worker's parent (the CLI that started it): the worker asks to be
    /// killed when that process ends (see `NaiveWorker.dieWithParent`).
    @Option(help: .hidden)
    var naiveWorkerParent: Int32?

    /// Internal: the program run as the naive worker (default: this binary). Tests point it
    /// at a program that fails, to check how a failed worker is reported.
    @Option(help: .hidden)
    var naiveWorkerExecutable: String?

    enum LayerChoice: String, ExpressibleByArgument, CaseIterable {
        case core, facade, both

        var layers: [BenchLayer] {
            switch self {
            case .core: [.core]
            case .facade: [.facade]
            case .both: [.core, .facade]
            }
        }
    }

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case table, json, csv
    }

    /// How reports and errors name `--input`.
    var inputLabel: String { inputName ?? input ?? "" }

    /// The tree sizes to run.
    var treeSizes: [Int] { sizes ?? [nodes] }

    /// Query counts per operation, from `--queries` or the defaults.
    func queryCount(for op: BenchOperation) -> Int {
        if let queries { return queries }
        if op.isWholeTree { return 100 }
        if op == .interleavedMutation || op == .churn { return 100_000 }
        return 1_000_000
    }

    /// Bytes per node a run may need, all implementations together (arena core ~48, facade
    /// ~165, naive core ~171, the spec, the handles and the query inputs): the estimate the
    /// memory check multiplies by the tree size.
    static let estimatedBytesPerNode = 512
    /// Bytes per query of the query inputs at their largest (node numbers, handles of both
    /// sides and their answers).
    static let estimatedBytesPerQuery = 48
    /// The most `--runs` accepted.
    static let mostRuns = 100
    /// The longest `--min-time` and `--naive-budget` accepted: a day.
    static let longestSeconds = 86_400

    mutating func validate() throws {
        let memory = Self.physicalMemory()
        let sizeOption = sizes != nil ? "--sizes" : "--nodes"
        for size in treeSizes {
            if size < 1 {
                throw ValidationError("\(sizeOption): a tree needs at least 1 node, got \(size)")
            }
            if size > Int(Int32.max) {
                throw ValidationError("\(sizeOption): at most \(grouped(Int(Int32.max))) nodes (node ids are 32-bit), got \(grouped(size))")
            }
            if let memory, size > memory / Self.estimatedBytesPerNode {
                throw ValidationError("\(sizeOption): \(grouped(size)) nodes need about \(gibibytes(Double(size) * Double(Self.estimatedBytesPerNode))) in the three implementations (\(Self.estimatedBytesPerNode) B per node), more than this machine's \(gibibytes(Double(memory))); at most \(grouped(memory / Self.estimatedBytesPerNode)) here")
            }
        }
        if let queries {
            if queries < 1 { throw ValidationError("--queries must be at least 1, got \(queries)") }
            if let memory, queries > memory / 2 / Self.estimatedBytesPerQuery {
                throw ValidationError("--queries: \(grouped(queries)) queries need about \(gibibytes(Double(queries) * Double(Self.estimatedBytesPerQuery))) of inputs and answers, more than half this machine's \(gibibytes(Double(memory))); at most \(grouped(memory / 2 / Self.estimatedBytesPerQuery)) here")
            }
        }
        if runs < 1 || runs > Self.mostRuns {
            throw ValidationError("--runs must be 1 to \(Self.mostRuns), got \(runs)")
        }
        if naiveBudget < 1 || naiveBudget > Self.longestSeconds {
            throw ValidationError("--naive-budget must be 1 to \(grouped(Self.longestSeconds)) seconds, got \(naiveBudget)")
        }
        if minTime < 1 || minTime > Self.longestSeconds * 1000 {
            throw ValidationError("--min-time must be 1 to \(grouped(Self.longestSeconds * 1000)) ms, got \(minTime)")
        }
        if importOnly && input == nil { throw ValidationError("--import-only needs --input") }
        if let exportTo {
            guard importOnly else { throw ValidationError("--export-to needs --import-only") }
            guard ExportFormat.detect(path: exportTo) != nil else { throw ValidationError("--export-to \(exportTo): the extension must be .xml or .json") }
        }
        if saveSnapshot != nil && (sizes?.count ?? 1) > 1 { throw ValidationError("--save-snapshot writes one tree: it cannot be combined with several --sizes") }
        if input != nil {
            if sizes != nil { throw ValidationError("--sizes and --input cannot be combined: an imported tree has one size") }
            if let types, types.count > TreeSource.maximumImportedTypes {
                throw ValidationError("--types: at most \(TreeSource.maximumImportedTypes) type names with --input, got \(types.count)")
            }
        } else {
            if inputFormat != nil { throw ValidationError("--input-format needs --input") }
            for name in types ?? [] where StockCatalog.index(named: name) == nil {
                throw ValidationError("--types: unknown type '\(name)'; expected one of \(StockCatalog.names.joined(separator: ", "))")
            }
        }
    }

    /// This machine's physical memory in bytes, or `nil` if the system does not say.
    static func physicalMemory() -> Int? {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, pageSize > 0 else { return nil }
        return pages.multipliedReportingOverflow(by: pageSize).overflow ? Int.max : pages * pageSize
    }

    static func parseInts(_ text: String) throws -> [Int] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let value = Int(trimmed.replacingOccurrences(of: "_", with: "")) else {
                throw ValidationError("'\(trimmed)' in '\(text)' is not an integer (or does not fit in 64 bits)")
            }
            return value
        }
    }

    static func parseNames(_ text: String) throws -> [String] {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw ValidationError("expected at least one type name, got '\(text)'") }
        return names
    }

    static func parseOperations(_ text: String) throws -> [BenchOperation] {
        try text.split(separator: ",").map { part in
            let name = part.trimmingCharacters(in: .whitespaces)
            guard let op = BenchOperation(rawValue: name) else {
                throw ValidationError("unknown operation '\(name)'; expected one of \(BenchOperation.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return op
        }
    }
}

extension TreeShape: ExpressibleByArgument {}
extension BenchOperation: ExpressibleByArgument {}
extension ImportFormat: ExpressibleByArgument {}
extension ImportContent: ExpressibleByArgument {}

import Foundation
