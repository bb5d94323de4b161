import Foundation

/// The whole result of a run, in the JSON shape scripts rely on.
struct Report: Encodable {
    struct Tree: Encodable {
        var source: String
        var nodes, maxDepth: Int
        var seed: UInt64
        /// The generated tree's shape (`random`, `chain`, `wide`, `balanced`), or
        /// `imported` for `--input`.
        var shape: String
        /// The tags and the type names the groupings asked for (empty for `--import-only`).
        var tags: [Int] = []
        var types: [String] = []
        /// How the tags were chosen when `--tags` was not given (`nil` for a generated tree).
        var tagsChosen: String?
    }

    struct Memory: Encodable {
        /// `nil` (JSON `null`) when it could not be measured.
        @NullWhenAbsent var arenaBytesPerNode: Double?
        @NullWhenAbsent var naiveBytesPerNode: Double?
        /// The facade in all (views, their store and the arena); `nil` (JSON `null`) when no
        /// facade was built.
        @NullWhenAbsent var facadeBytesPerNode: Double?

        init(arenaBytesPerNode: Double, naiveBytesPerNode: Double, facadeBytesPerNode: Double? = nil) {
            self.arenaBytesPerNode = arenaBytesPerNode.isFinite ? arenaBytesPerNode : nil
            self.naiveBytesPerNode = naiveBytesPerNode.isFinite ? naiveBytesPerNode : nil
            self.facadeBytesPerNode = facadeBytesPerNode.flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// An operation that could not run on a tree, and why (a one-node tree has no view to lay out).
    struct Skipped: Encodable {
        var op: String
        var nodes: Int
        var reason: String
    }

    var tool = "relative-view-bench"
    var version = RelativeViewBench.version
    var allocator: String
    var tree: Tree
    var results: [ResultRow]
    var skipped: [Skipped]
    var memory: Memory
    /// What importing `--input` took, for an imported tree.
    var importFigures: Import?

    /// One import of `--input`: its size, its speed and the memory it took.
    /// `--export-to`: the tree written as a document.
    struct Export: Encodable {
        var path: String
        var bytes: Int
        var seconds: Double
        var megabytesPerSecond: Double { Double(bytes) / 1e6 / max(seconds, 1e-9) }

        var line: String { "export: \(megabytes(bytes)) to \(path) in \(fixed(seconds, 3)) s: \(fixed(megabytesPerSecond, 1)) MB/s" }

        enum CodingKeys: String, CodingKey { case path, bytes, seconds, megabytesPerSecond }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(path, forKey: .path)
            try c.encode(bytes, forKey: .bytes)
            try c.encode(seconds, forKey: .seconds)
            try c.encode(megabytesPerSecond, forKey: .megabytesPerSecond)
        }
    }

    struct Import: Encodable {
        var format: String
        /// The document's size; `nil` for a directory.
        var bytes: Int?
        var nodes: Int
        var seconds: Double
        var megabytesPerSecond: Double?
        /// The file's bytes per node (a snapshot's size per node); `nil` for a directory.
        var fileBytesPerNode: Double?
        var nodesPerSecond: Double
        /// The imported tree's `memoryFootprint` per node: the memory of its own, which for a
        /// tree that reads a snapshot's columns in place leaves them out (see `readsFileInPlace`).
        var arenaBytesPerNode: Double
        /// Whether the loaded tree reads its columns in place from the snapshot file (mapped,
        /// or read into memory); `nil` for a document.
        var readsFileInPlace: Bool?
        /// The process's peak resident memory after the import.
        var peakResidentBytes: Int
        /// What the import kept of a document, `whole` or `skeleton` (`nil` for a snapshot
        /// or a directory).
        var content: String?

        init(format: String, bytes: Int?, nodes: Int, seconds: Double, arenaBytesPerNode: Double, peakResidentBytes: Int) {
            self.format = format
            self.bytes = bytes
            self.nodes = nodes
            self.seconds = seconds
            megabytesPerSecond = bytes.map { Double($0) / 1e6 / max(seconds, 1e-9) }
            fileBytesPerNode = bytes.map { Double($0) / Double(max(1, nodes)) }
            nodesPerSecond = Double(nodes) / max(seconds, 1e-9)
            self.arenaBytesPerNode = arenaBytesPerNode
            self.peakResidentBytes = peakResidentBytes
        }

        /// One line for the table.
        var line: String {
            let kept = content.map { " (\($0))" } ?? ""
            let size = bytes.map { "\(megabytes($0)) of \(format)\(kept) " } ?? "\(format)\(kept) "
            let speed = megabytesPerSecond.map { "\(fixed($0, 1)) MB/s, " } ?? ""
            let file = fileBytesPerNode.map { "file \(fixed($0, 1)) B/node, " } ?? ""
            let own = readsFileInPlace == true ? " of its own (its columns read in place from the file)" : ""
            return "import: \(size)in \(fixed(seconds, 3)) s: \(speed)\(fixed(nodesPerSecond / 1e6, 2)) M nodes/s (\(grouped(nodes)) nodes); \(file)arena \(fixed(arenaBytesPerNode, 1)) B/node\(own), peak resident \(megabytes(peakResidentBytes))"
        }
    }

    /// The snapshot `--save-snapshot` wrote.
    var savedSnapshot: SavedSnapshot?

    /// The document `--export-to` wrote.
    var export: Export?

    /// One snapshot written: where, its size, and how long writing it took.
    struct SavedSnapshot: Encodable {
        var path: String
        var bytes, nodes: Int
        var bytesPerNode, seconds: Double

        init(path: String, bytes: Int, nodes: Int, seconds: Double) {
            self.path = path
            self.bytes = bytes
            self.nodes = nodes
            bytesPerNode = Double(bytes) / Double(max(1, nodes))
            self.seconds = seconds
        }

        /// One line for the table.
        var line: String {
            "snapshot: \(megabytes(bytes)) (\(fixed(bytesPerNode, 1)) B/node) written to \(path) in \(fixed(seconds, 3)) s"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case tool, version, allocator, tree, results, skipped, memory
        case importFigures = "import"
        case savedSnapshot = "snapshot"
        case export
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// One line per row and per skipped operation (`status` "skipped"); empty cells where a
    /// figure is missing; `status` says whether `speedup` is measured or a lower bound.
    func csv() -> String {
        let latencyColumns = ["QueryP50", "QueryP99", "QueryP999", "QueryMax", "StepMax", "RestQueryP50"]
        var lines = [(["op", "layer", "nodes", "queries", "arenaNsPerOp", "naiveNsPerOp", "speedup", "status", "agree", "note"]
            + latencyColumns.map { "arena\($0)" } + latencyColumns.map { "naive\($0)" }).joined(separator: ",")]
        func latencyCells(_ l: ChurnLatency?) -> [String] {
            guard let l else { return Array(repeating: "", count: latencyColumns.count) }
            return [l.queryP50, l.queryP99, l.queryP999, l.queryMax, l.stepMax, l.restQueryP50].map { fixed($0, 0) }
        }
        for r in results {
            let cells = [
                r.op, r.layer, "\(r.nodes)", "\(r.queries)", fixed(r.arenaNsPerOp, 2), r.naiveNsPerOp.map { fixed($0, 2) } ?? "",
                r.speedup.map { fixed($0, 2) } ?? "", r.status.rawValue, r.agree.map(String.init) ?? "", csvField(r.note ?? ""),
            ] + latencyCells(r.latency?.arena) + latencyCells(r.latency?.naive)
            lines.append(cells.joined(separator: ","))
        }
        for s in skipped {
            lines.append(([s.op, "", "\(s.nodes)", "", "", "", "", "skipped", "", csvField(s.reason)] + latencyCells(nil) + latencyCells(nil)).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// The table of an `--import-only` run: the tree and the import.
    func importTable() -> String {
        var out = ["relative-view-bench \(version): \(tree.source), \(grouped(tree.nodes)) nodes, max depth \(grouped(tree.maxDepth)), allocator \(allocator)", ""]
        if let importFigures { out.append(importFigures.line) }
        if let savedSnapshot { out.append(savedSnapshot.line) }
        if let export { out.append(export.line) }
        return out.joined(separator: "\n")
    }

    /// The CSV of an `--import-only` run: a header and one line.
    func importCSV() -> String {
        guard let i = importFigures else { return "" }
        let cells: [String] = [
            csvField(tree.source), i.format, i.bytes.map(String.init) ?? "", "\(i.nodes)", fixed(i.seconds, 6),
            i.megabytesPerSecond.map { fixed($0, 2) } ?? "", fixed(i.nodesPerSecond, 0), fixed(i.arenaBytesPerNode, 2), "\(i.peakResidentBytes)",
            i.fileBytesPerNode.map { fixed($0, 2) } ?? "",
        ]
        return "source,format,bytes,nodes,seconds,megabytesPerSecond,nodesPerSecond,arenaBytesPerNode,peakResidentBytes,fileBytesPerNode\n" + cells.joined(separator: ",")
    }

    func table() -> String {
        let spread = results.contains { $0.runs != nil }
        let header = ["op", "layer", "nodes", "queries", "arena", "naive", "speed-up"] + (spread ? ["runs (low-high)"] : []) + ["agree"]
        let rows = results.map { r in
            let bound = r.status == .lowerBound ? ">" : ""
            let naive: String
            let speedup: String
            switch r.status {
            case .measured, .lowerBound:
                naive = bound + duration(r.naiveNsPerOp ?? .nan)
                speedup = bound + fixed(r.speedup ?? .nan, 1) + "x"
            case .noMatch:
                (naive, speedup) = (duration(r.naiveNsPerOp ?? .nan), "no match")
            case .naiveFailed:
                (naive, speedup) = ("failed", "-")
            case .naiveNotBuilt:
                (naive, speedup) = ("not built", "-")
            }
            let range = r.status == .noMatch ? "" : r.speedupSpread.map { "\(r.runs?.count ?? 0): \(fixed($0.low, 1))-\(fixed($0.high, 1))x" } ?? ""
            let agree = r.agree.map { $0 ? "yes" : "NO" } ?? "unchecked"
            return [r.op, r.layer, grouped(r.nodes), grouped(r.queries), duration(r.arenaNsPerOp), naive, speedup] + (spread ? [range] : []) + [agree]
        }
        let widths = header.indices.map { c in ([header[c]] + rows.map { $0[c] }).map(\.count).max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in
                c < 2 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }
        var out = [
            "relative-view-bench \(version): \(tree.source) tree, \(grouped(tree.nodes)) nodes, max depth \(grouped(tree.maxDepth)), seed \(tree.seed), allocator \(allocator)",
            "grouping by tags \(tree.tags.map(String.init).joined(separator: ",")) and types \(tree.types.joined(separator: ","))" + (tree.tagsChosen.map { " (\($0))" } ?? ""),
            "",
            line(header),
            line(widths.map { String(repeating: "-", count: $0) }),
        ]
        out += rows.map(line)
        out.append("")
        out.append("arena and naive: time per operation (per node for build); speed-up: naive / arena" + (spread ? "; with --runs, the medians, and the lowest and highest speed-up of the runs" : ""))
        if results.contains(where: { $0.status == .lowerBound }) {
            out.append(">: a lower bound: the naive core was stopped by its time budget (--naive-budget). Where agree says yes, the arena's whole answer was checked against a linear-time walk of the naive tree.")
        }
        // Each distinct reason once, with the operations it applies to: why a row has no naive
        // figure, or was not compared.
        var opsByNote: [(note: String, ops: [String])] = []
        for r in results where r.status == .naiveFailed || r.status == .naiveNotBuilt || r.status == .noMatch || (r.status == .lowerBound && r.agree == nil) {
            guard let note = r.note else { continue }
            if let k = opsByNote.firstIndex(where: { $0.note == note }) {
                if !opsByNote[k].ops.contains(r.op) { opsByNote[k].ops.append(r.op) }
            } else {
                opsByNote.append((note, [r.op]))
            }
        }
        for (note, ops) in opsByNote { out.append("\(ops.joined(separator: ", ")): \(note)") }
        for s in skipped { out.append("\(s.op): skipped: \(s.reason)") }
        out += churnLatencyTable()
        if let importFigures { out.append(importFigures.line) }
        if let savedSnapshot { out.append(savedSnapshot.line) }
        var memoryLine = "memory per node: arena core \(bytes(memory.arenaBytesPerNode)), naive core \(bytes(memory.naiveBytesPerNode))"
        if let facadeBytesPerNode = memory.facadeBytesPerNode { memoryLine += ", facade (views + store + arena) \(bytes(facadeBytesPerNode))" }
        out.append(memoryLine)
        return out.joined(separator: "\n")
    }

    /// The per-step latencies of `churn`: one line per layer and one for the naive core,
    /// and the query p50 against the same queries timed alone at rest and against the same
    /// run's `isRelativeAncestor` (back to back).
    private func churnLatencyTable() -> [String] {
        let churn = results.filter { $0.latency != nil }
        guard let first = churn.first?.latency else { return [] }
        let header = ["churn latency", "query p50", "p99", "p99.9", "max", "step max", "at rest p50"]
        var rows = churn.compactMap { r in r.latency.map { (r.layer, $0.arena) } }
        if let naive = first.naive { rows.append(("naive", naive)) }
        let cells = rows.map { name, l in [name] + [l.queryP50, l.queryP99, l.queryP999, l.queryMax, l.stepMax, l.restQueryP50].map(duration) }
        let widths = header.indices.map { c in ([header[c]] + cells.map { $0[c] }).map(\.count).max() ?? 0 }
        func line(_ row: [String]) -> String {
            row.enumerated().map { c, cell in
                c == 0 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }
        var out = [line(header)] + cells.map(line)
        for r in churn {
            guard let l = r.latency?.arena else { continue }
            // Two comparisons. The same queries timed alone at rest (before the replay) are
            // the like-for-like one; isRelativeAncestor's row is a throughput of back-to-back
            // queries, whose cache misses overlap.
            if l.queryP50 < 1 || !(l.restQueryP50 >= 1) {
                out.append("churn (\(r.layer)): query p50 \(fixed(l.queryP50, 0)) ns, at rest \(fixed(l.restQueryP50, 0)) ns: below the clock's resolution once its own cost is subtracted, no ratio")
                continue
            }
            var line = "churn (\(r.layer)): query p50 is \(fixed(l.queryP50 / l.restQueryP50, 2))x the same queries timed alone on the tree at rest (\(fixed(l.restQueryP50, 0)) ns)"
            if let back = results.first(where: { $0.op == "isRelativeAncestor" && $0.layer == r.layer }) {
                line += " and \(fixed(l.queryP50 / back.arenaNsPerOp, 1))x this run's isRelativeAncestor back to back (\(fixed(back.arenaNsPerOp, 1)) ns per query)"
            }
            out.append(line)
        }
        return out
    }

    private func bytes(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "not measured" }
        return "\(fixed(value, 1)) B"
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
    private func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A time given in nanoseconds, in the unit a person reads: `12.3 ns`, `4.56 µs`,
/// `78.9 ms`, `1.23 s` (three significant digits).
func duration(_ nanoseconds: Double) -> String {
    guard nanoseconds.isFinite else { return "-" }
    let (value, unit): (Double, String) = switch abs(nanoseconds) {
    case ..<1e3: (nanoseconds, "ns")
    case ..<1e6: (nanoseconds / 1e3, "µs")
    case ..<1e9: (nanoseconds / 1e6, "ms")
    default: (nanoseconds / 1e9, "s")
    }
    let digits = abs(value) >= 100 ? 0 : abs(value) >= 10 ? 1 : 2
    return "\(fixed(value, digits)) \(unit)"
}

func fixed(_ x: Double, _ digits: Int) -> String {
    x.isFinite ? String(format: "%.\(digits)f", x) : "\(x)"
}

/// `bytes` in decimal megabytes with one decimal: "154.0 MB".
func megabytes(_ bytes: Int) -> String {
    "\(fixed(Double(bytes) / 1e6, 1)) MB"
}

func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, ch) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(ch)
    }
    return (n < 0 ? "-" : "") + out
}

/// Bytes as GiB with one decimal, for messages.
func gibibytes(_ bytes: Double) -> String {
    "\(fixed(bytes / Double(1 << 30), 1)) GiB"
}

/// An optional that JSON shows as `null` when it is absent (the encoder's default leaves the
/// key out), so that every row and report has the same keys for the scripts that read them.
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
