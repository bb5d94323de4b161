import RelativeViewEngine
// What a person debugging a tree reads: a one-line summary of the arena (counts, not
// internals) and a bounded, indented pre-order listing of a subtree in the spirit of UIKit's
// `recursiveDescription`. Both are cold paths: nothing here is inlinable.
//
// The listing writes one line per node, `<Type: frame = (x y; w h); tag = t; node = #i.g>`,
// the frame only once the tree has geometry columns (before the first geometry write every
// frame is zero). A node at depth d below the listed node is indented with d copies of
// "   | " (UIKit's), up to `_maxIndentedDepth`; deeper lines start with "[depth d] "
// instead, so a line a million levels down is as short as one near the top. After
// `maxLines` lines one last line says how many nodes of the subtree were left out.

extension ViewTree: CustomStringConvertible, CustomDebugStringConvertible {
    /// A one-line summary of the arena, the same as ``debugDescription``.
    ///
    /// - Complexity: O(1)
    public var description: String { debugDescription }

    /// A one-line summary of the arena: live nodes, roots, slots and free slots, whether the
    /// index is fresh, and whether the geometry columns exist, e.g.
    /// `ViewTree(1,000,000 nodes in 1 root, 1,000,000 slots (0 free), index: 31,250 blocks of 64 slots, geometry: none)`.
    ///
    /// With geometry the last part is `geometry: columns for N slots` (the columns cover the
    /// first N slots; nodes past them have zero geometry). It never reads a node, so it is
    /// safe to print for a tree of any size.
    /// - Complexity: O(1)
    @inline(never)
    public var debugDescription: String {
        let s = _storage
        let free = s.slotCount - s.liveCount
        let geometry = s.frameOrigin.isEmpty ? "none" : "columns for \(Self._grouped(s.frameOrigin.count, "slot"))"
        return "ViewTree(\(Self._grouped(s.liveCount, "node")) in \(Self._grouped(s.rootCount, "root")), "
            + "\(Self._grouped(s.slotCount, "slot")) (\(Self._grouped(free)) free), "
            + "index: \(Self._grouped(s.tour.liveBlocks, "block")) of \(_TourBlocks.capacity) slots, geometry: \(geometry))"
    }

    /// The subtree of `node` as text, one line per node in depth-first pre-order, indented by
    /// depth below `node`, as UIKit's `recursiveDescription`:
    ///
    /// ```
    /// <Window: frame = (0 0; 320 480); tag = 0; node = #0.0>
    ///    | <Label: frame = (10 10; 100 20); tag = 3; node = #1.0>
    ///    | <View: frame = (0 40; 320 440); tag = 0; node = #2.0>
    ///    |    | <Button: frame = (8 8; 60 30); tag = 7; node = #3.0>
    /// ```
    ///
    /// Each line is `<Type: frame = (x y; w h); tag = t; node = #slot.generation>`; the frame
    /// part appears only once the tree has geometry columns, and whole numbers print without
    /// a fraction. Depths past 64 are written as `[depth d] ` instead of 5 × d characters of
    /// indentation, so no line grows with the depth. After `maxLines` lines, a last line
    /// `… N more nodes` gives the exact number of the subtree's nodes left out. Lines are
    /// separated by `"\n"`, with none after the last. Iterative: a million-deep chain is fine.
    ///
    /// Traps if `node` is stale or `maxLines` is less than 1.
    /// - Parameters:
    ///   - node: The top of the subtree; it is the first line, at depth 0.
    ///   - maxLines: The most node lines to write, at least 1.
    /// - Returns: The listing, at most `maxLines + 1` lines.
    /// - Complexity: O(lines written), plus the subtree's size when lines are left out:
    ///   O(size / 32) to count them.
    @inline(never)
    public func recursiveDescription(of node: NodeID, maxLines: Int = 1_000) -> String {
        let registry = TypeRegistry.shared
        let s = _storage
        s.check(node)
        Self._checkMaxLines(maxLines)
        let geometry = !s.frameOrigin.isEmpty
        var names: [Int32: String] = [:]
        var text = ""
        var lines = 0
        var x: Int32? = node.index
        var depth = 0
        while let n = x {
            if lines == maxLines {
                text += "\n" + Self._moreNodesLine(subtreeSize(of: node) - lines)
                break
            }
            if lines > 0 { text += "\n" }
            let type = s.typeID[Int(n)]
            let name: String
            if let known = names[type] {
                name = known
            } else {
                // One registry lock per distinct type, not per line.
                name = registry.name(of: TypeID(rawValue: type))
                names[type] = name
            }
            text += Self._indentation(depth)
            text += Self._nodeLine(
                typeName: name,
                frame: geometry ? (s._geometry(\.frameOrigin, at: n), s._geometry(\.frameSize, at: n)) : nil,
                tag: s.tag(at: n), node: "#\(n).\(s.generation(at: Int(n)))",
                extras: s.attributes.indices.compactMap { a in
                    s.attributes[a].text(at: Int(n)).map { "\(NodeAttribute(rawValue: a)!) = \(Self._quoted($0))" }
                } + Self._contentExtras(s, n))
            lines += 1
            x = Self._preorderStep(s, root: node.index, from: n, depth: &depth)
        }
        return text
    }

    /// The content of slot `n` in a description line: its named attributes (`@name =
    /// "value"`, in their order), then its value (`value = "..."`).
    static func _contentExtras(_ s: _TreeStorage, _ n: Int32) -> [String] {
        let a = s.content.attributes
        var extras = a.run(of: Int(n)).map { "@\(TypeRegistry.shared.name(of: a.name(at: $0))) = \(_quoted(a.value(at: $0)))" }
        if let value = s.content.text.text(at: Int(n)) { extras.append("value = \(_quoted(value))") }
        return extras
    }

    // MARK: Formatting, shared with the facade

    /// Depths up to this are drawn with "   | " per level; deeper ones as a number.
    package static let _maxIndentedDepth = 64

    /// `text` in double quotes, with `"`, `\\` and control characters escaped, so that a
    /// line stays one line whatever an imported document held.
    package static func _quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// How listings name `node`: `#slot.generation` (its slot, and the slot's generation
    /// when the node was made).
    package func _listingName(of node: NodeID) -> String {
        "#\(node.index).\(_storage.generation(of: node))"
    }

    /// Traps unless `maxLines` is at least 1.
    package static func _checkMaxLines(_ maxLines: Int) {
        precondition(maxLines >= 1, "recursiveDescription needs maxLines >= 1 (got \(maxLines))")
    }

    /// One node's text: `<Type: frame = (x y; w h); tag = t; node = #i.g; extra; ...>`, the
    /// frame only if given, `node = none` for a node not in any tree (`node` as
    /// ``_listingName(of:)`` gives it).
    package static func _nodeLine(
        typeName: String, frame: (origin: SIMD2<Double>, size: SIMD2<Double>)?, tag: Int, node: String?, extras: [String] = []
    ) -> String {
        var parts: [String] = []
        if let frame {
            let numbers = [frame.origin.x, frame.origin.y, frame.size.x, frame.size.y].map(_coordinate)
            parts.append("frame = (\(numbers[0]) \(numbers[1]); \(numbers[2]) \(numbers[3]))")
        }
        parts.append("tag = \(tag)")
        parts.append("node = \(node ?? "none")")
        parts += extras
        return "<\(typeName): \(parts.joined(separator: "; "))>"
    }

    /// The last line of a cut listing: `… 1 more node`, `… 1,234 more nodes`.
    static func _moreNodesLine(_ remaining: Int) -> String {
        "… \(_grouped(remaining, "more node"))"
    }

    /// The indentation of a line `depth` levels below the listed node.
    static func _indentation(_ depth: Int) -> String {
        depth <= _maxIndentedDepth ? String(repeating: "   | ", count: depth) : "[depth \(_grouped(depth))] "
    }

    /// A coordinate as UIKit prints one: whole numbers without a fraction (`0`, `-3`, `100`),
    /// others as Swift does (`0.5`, `nan`, `inf`).
    static func _coordinate(_ value: Double) -> String {
        value.rounded() == value && value.magnitude < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `n` with thousands separators, followed by `unit` in the singular or plural if given:
    /// `1 root`, `1,000,000 nodes`.
    package static func _grouped(_ n: Int, _ unit: String? = nil) -> String {
        let digits = String(n.magnitude)
        var text = n < 0 ? "-" : ""
        for (k, digit) in digits.enumerated() {
            if k > 0 && (digits.count - k) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        guard let unit else { return text }
        return "\(text) \(unit)\(n == 1 ? "" : "s")"
    }

    /// The node after `x` in the pre-order of the subtree of `root`, or `nil` at the end,
    /// keeping `depth` (below `root`) up to date. Amortized O(1): each climb undoes descents.
    static func _preorderStep(_ s: _TreeStorage, root: Int32, from x: Int32, depth: inout Int) -> Int32? {
        let child = s.firstChild(x)
        if child != _TreeStorage.none {
            depth += 1
            return child
        }
        var y = x
        while y != root {
            let sibling = s.nextSibling(y)
            if sibling != _TreeStorage.none { return sibling }
            y = s.parent[Int(y)]
            depth -= 1
        }
        return nil
    }
}

extension _TreeStorage {
    /// Slot `i`'s entry in a geometry column (zero past the column's end).
    func _geometry(_ column: KeyPath<_TreeStorage, [SIMD2<Double>]>, at i: Int32) -> SIMD2<Double> {
        let values = self[keyPath: column]
        return Int(i) < values.count ? values[Int(i)] : .zero
    }
}
