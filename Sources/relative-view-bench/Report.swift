import Foundation

/// The whole result of a run, in the JSON shape scripts rely on.
struct Report: Encodable {
    struct Tree: Encodable {
        var source: String
        var nodes: Int
        var maxDepth: Int
        var seed: UInt64
    }

    struct Memory: Encodable {
        var arenaBytesPerNode: Double
        var naiveBytesPerNode: Double
    }

    var tool = "relative-view-bench"
    var version = RelativeViewBench.version
    var allocator: String
    var tree: Tree
    var results: [ResultRow]
    var memory: Memory
    /// Bytes per node of the facade (views, their store and the arena); shown in the table only.
    var facadeBytesPerNode: Double?

    private enum CodingKeys: String, CodingKey {
        case tool, version, allocator, tree, results, memory
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    func csv() -> String {
        var lines = ["op,layer,nodes,queries,arenaNsPerOp,naiveNsPerOp,speedup,agree"]
        for r in results {
            lines.append("\(r.op),\(r.layer),\(r.nodes),\(r.queries),\(fixed(r.arenaNsPerOp, 2)),\(fixed(r.naiveNsPerOp, 2)),\(fixed(r.speedup, 2)),\(r.agree)")
        }
        return lines.joined(separator: "\n")
    }

    func table() -> String {
        let header = ["op", "layer", "nodes", "queries", "arena ns/op", "naive ns/op", "speed-up", "agree"]
        let rows = results.map { r in
            [r.op, r.layer, grouped(r.nodes), grouped(r.queries), fixed(r.arenaNsPerOp, 1), (r.naiveTimedOut ? ">" : "") + fixed(r.naiveNsPerOp, 1), (r.naiveTimedOut ? ">" : "") + fixed(r.speedup, 1) + "x", r.agree ? "yes" : "NO"]
        }
        let widths = header.indices.map { c in ([header[c]] + rows.map { $0[c] }).map(\.count).max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in
                c < 2 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0) : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }
        var out = [
            "relative-view-bench \(version): \(tree.source) tree, \(grouped(tree.nodes)) nodes, max depth \(grouped(tree.maxDepth)), seed \(tree.seed), allocator \(allocator)",
            "",
            line(header),
            line(widths.map { String(repeating: "-", count: $0) }),
        ]
        out += rows.map(line)
        out.append("")
        if results.contains(where: \.naiveTimedOut) {
            out.append(">: the naive core did not finish one query within its budget (--naive-budget); its time is a lower bound, and the arena's answer was checked against a linear-time walk of the naive tree.")
        }
        var memoryLine = "memory per node: arena core \(fixed(memory.arenaBytesPerNode, 1)) B, naive core \(fixed(memory.naiveBytesPerNode, 1)) B"
        if let facadeBytesPerNode { memoryLine += ", facade (views + store + arena) \(fixed(facadeBytesPerNode, 1)) B" }
        out.append(memoryLine)
        return out.joined(separator: "\n")
    }
}

func fixed(_ x: Double, _ digits: Int) -> String {
    x.isFinite ? String(format: "%.\(digits)f", x) : "\(x)"
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
