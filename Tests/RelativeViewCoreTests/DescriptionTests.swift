import Testing
@testable import RelativeViewCore

/// A tree's one-line summary and `recursiveDescription`: exact text for small hand-built
/// trees, the cut line's count, deep chains, and stale against fresh index.
@Suite struct DescriptionTests {
    enum Ty {
        static let window = TypeRegistry.shared.typeID(named: "Window")
        static let label = TypeRegistry.shared.typeID(named: "Label")
        static let view = TypeRegistry.shared.typeID(named: "View")
        static let button = TypeRegistry.shared.typeID(named: "Button")
    }

    /// Ten nodes with geometry, built before any frame is set (so the columns cover all ten):
    ///
    ///     r [a, b [b1, b2 [b21], b3], c [c1], d]
    static func ten() -> (tree: ViewTree, nodes: [String: NodeID]) {
        var t = ViewTree()
        let r = t.makeNode(tag: 0, type: Ty.window)
        let a = t.appendChild(tag: 3, type: Ty.label, to: r)
        let b = t.appendChild(tag: 0, type: Ty.view, to: r)
        let b1 = t.appendChild(tag: 7, type: Ty.button, to: b)
        let b2 = t.appendChild(tag: 8, type: Ty.button, to: b)
        let b21 = t.appendChild(tag: 9, type: Ty.label, to: b2)
        let b3 = t.appendChild(tag: -1, type: Ty.view, to: b)
        let c = t.appendChild(tag: 1_000_000_000_000, type: Ty.view, to: r)
        let c1 = t.appendChild(tag: 11, type: Ty.label, to: c)
        let d = t.appendChild(tag: 12, type: Ty.view, to: r)
        func frame(_ n: NodeID, _ x: Double, _ y: Double, _ w: Double, _ h: Double) {
            t.setFrameOrigin(SIMD2(x, y), of: n)
            t.setFrameSize(SIMD2(w, h), of: n)
        }
        frame(r, 0, 0, 320, 480)
        frame(a, 10, 10, 100, 20)
        frame(b, 0, 40, 320, 440)
        frame(b1, 8, 8, 60, 30)
        frame(b2, 80, 8, 60, 30)
        frame(b21, 0.5, -3, 10.25, 5)
        t._checkInvariants()
        return (t, ["r": r, "a": a, "b": b, "b1": b1, "b2": b2, "b21": b21, "b3": b3, "c": c, "c1": c1, "d": d])
    }

    static let tenLines = [
        "<Window: frame = (0 0; 320 480); tag = 0; node = #0.0>",
        "   | <Label: frame = (10 10; 100 20); tag = 3; node = #1.0>",
        "   | <View: frame = (0 40; 320 440); tag = 0; node = #2.0>",
        "   |    | <Button: frame = (8 8; 60 30); tag = 7; node = #3.0>",
        "   |    | <Button: frame = (80 8; 60 30); tag = 8; node = #4.0>",
        "   |    |    | <Label: frame = (0.5 -3; 10.25 5); tag = 9; node = #5.0>",
        "   |    | <View: frame = (0 0; 0 0); tag = -1; node = #6.0>",
        "   | <View: frame = (0 0; 0 0); tag = 1000000000000; node = #7.0>",
        "   |    | <Label: frame = (0 0; 0 0); tag = 11; node = #8.0>",
        "   | <View: frame = (0 0; 0 0); tag = 12; node = #9.0>",
    ]

    // MARK: The summary

    @Test func summaryOfAnEmptyTree() {
        let t = ViewTree()
        #expect(t.debugDescription == "ViewTree(0 nodes in 0 roots, 0 slots (0 free), index: 0 blocks of 64 slots, geometry: none)")
        #expect(t.rootCount == 0)
    }

    @Test func printShowsTheSummaryNotTheStorage() {
        var t = ViewTree()
        t.makeNode(type: Ty.view)
        let printed = String(describing: t)
        #expect(!printed.contains("_storage"), "\(printed)")
        #expect(printed == t.debugDescription)
        #expect(String(reflecting: t) == t.debugDescription)
        #expect("\(t)" == "ViewTree(1 node in 1 root, 1 slot (0 free), index: 1 block of 64 slots, geometry: none)")
    }

    @Test func summaryCountsRootsFreeSlotsIndexAndGeometry() {
        var (t, n) = Self.ten()
        #expect(t.debugDescription == "ViewTree(10 nodes in 1 root, 10 slots (0 free), index: 1 block of 64 slots, geometry: columns for 10 slots)")
        t.detach(n["c"]!)
        #expect(t.rootCount == 2)
        t.removeSubtree(n["b"]!)
        t._checkInvariants()
        #expect(t.debugDescription == "ViewTree(5 nodes in 2 roots, 10 slots (5 free), index: 1 block of 64 slots, geometry: columns for 10 slots)")
        t.makeNode(type: Ty.view)
        t.append(n["c"]!, to: n["r"]!)
        t._checkInvariants()
        #expect(t.rootCount == 2)
        #expect(t.debugDescription == "ViewTree(6 nodes in 2 roots, 10 slots (4 free), index: 1 block of 64 slots, geometry: columns for 10 slots)")
    }

    @Test func summaryGroupsThousands() {
        var b = ViewTreeBuilder()
        b.open(type: Ty.view)
        for _ in 0 ..< 1_233 { b.open(type: Ty.label); b.close() }
        b.close()
        b.open(type: Ty.view)
        b.close()
        let t = b.finish()
        #expect(t.debugDescription == "ViewTree(1,235 nodes in 2 roots, 1,235 slots (0 free), index: 39 blocks of 64 slots, geometry: none)")
        #expect(ViewTree._grouped(0) == "0")
        #expect(ViewTree._grouped(999) == "999")
        #expect(ViewTree._grouped(-1_234_567, "node") == "-1,234,567 nodes")
        #expect(ViewTree._grouped(1_000_000) == "1,000,000")
    }

    // MARK: The listing, exact

    @Test func oneNode() {
        var t = ViewTree()
        let a = t.makeNode(tag: 3, type: Ty.label)
        #expect(t.recursiveDescription(of: a) == "<Label: tag = 3; node = #0.0>")
        #expect(t.recursiveDescription(of: a, maxLines: 1) == "<Label: tag = 3; node = #0.0>")
    }

    @Test func twoNodes() {
        var t = ViewTree()
        let r = t.makeNode(type: Ty.window)
        let c = t.appendChild(tag: 3, type: Ty.label, to: r)
        #expect(t.recursiveDescription(of: r) == """
            <Window: tag = 0; node = #0.0>
               | <Label: tag = 3; node = #1.0>
            """)
        #expect(t.recursiveDescription(of: c) == "<Label: tag = 3; node = #1.0>")
        #expect(t.recursiveDescription(of: r, maxLines: 1) == """
            <Window: tag = 0; node = #0.0>
            … 1 more node
            """)
    }

    @Test func tenNodesWithGeometry() {
        let (t, n) = Self.ten()
        #expect(t.recursiveDescription(of: n["r"]!) == Self.tenLines.joined(separator: "\n"))
        // A subtree lists only itself, dedented, and never runs on into its siblings.
        #expect(t.recursiveDescription(of: n["b"]!) == """
            <View: frame = (0 40; 320 440); tag = 0; node = #2.0>
               | <Button: frame = (8 8; 60 30); tag = 7; node = #3.0>
               | <Button: frame = (80 8; 60 30); tag = 8; node = #4.0>
               |    | <Label: frame = (0.5 -3; 10.25 5); tag = 9; node = #5.0>
               | <View: frame = (0 0; 0 0); tag = -1; node = #6.0>
            """)
        #expect(t.recursiveDescription(of: n["b21"]!) == "<Label: frame = (0.5 -3; 10.25 5); tag = 9; node = #5.0>")
        #expect(t.recursiveDescription(of: n["d"]!) == "<View: frame = (0 0; 0 0); tag = 12; node = #9.0>")
    }

    @Test func cutListingsCountWhatIsLeft() {
        let (t, n) = Self.ten()
        for fresh in [false, true] {
            for maxLines in 1 ... 12 {
                let shown = min(maxLines, 10)
                var expected = Self.tenLines.prefix(shown).joined(separator: "\n")
                if shown < 10 { expected += "\n… \(10 - shown) more node\(10 - shown == 1 ? "" : "s")" }
                #expect(t.recursiveDescription(of: n["r"]!, maxLines: maxLines) == expected, "maxLines \(maxLines), fresh \(fresh)")
            }
            #expect(t.recursiveDescription(of: n["b"]!, maxLines: 2) == """
                <View: frame = (0 40; 320 440); tag = 0; node = #2.0>
                   | <Button: frame = (8 8; 60 30); tag = 7; node = #3.0>
                … 3 more nodes
                """)
        }
    }

    @Test func recycledSlotsShowTheirGenerationAndNoOldGeometry() {
        var (t, n) = Self.ten()
        t.removeSubtree(n["a"]!)
        let again = t.makeNode(tag: 5, type: Ty.label)
        #expect(again.index == 1)
        #expect(t.recursiveDescription(of: again) == "<Label: frame = (0 0; 0 0); tag = 5; node = #1.1>")
        // A node past the end of the geometry columns reads as zero geometry.
        let past = t.appendChild(tag: 6, type: Ty.view, to: again)
        #expect(t.recursiveDescription(of: again) == """
            <Label: frame = (0 0; 0 0); tag = 5; node = #1.1>
               | <View: frame = (0 0; 0 0); tag = 6; node = #10.0>
            """)
        #expect(past.index == 10)
        #expect(t.debugDescription == "ViewTree(11 nodes in 2 roots, 11 slots (0 free), index: 1 block of 64 slots, geometry: columns for 10 slots)")
    }

    @Test func coordinatesPrintLikeUIKit() {
        #expect(ViewTree._coordinate(0) == "0")
        #expect(ViewTree._coordinate(-0.0) == "0")
        #expect(ViewTree._coordinate(-3) == "-3")
        #expect(ViewTree._coordinate(0.5) == "0.5")
        #expect(ViewTree._coordinate(1e20) == "1e+20")
        #expect(ViewTree._coordinate(.infinity) == "inf")
        #expect(ViewTree._coordinate(.nan) == "nan")
    }

    // MARK: Stale and fresh

    @Test func staleIndexGivesTheSameTextAsFresh() {
        var (t, n) = Self.ten()
        // Move b2 (with b21) to the end of r, and c1 in front of a: the index goes stale.
        t.append(n["b2"]!, to: n["r"]!)
        t.insert(n["c1"]!, before: n["a"]!)
        var stale: [String] = []
        for node in n.values.sorted(by: { $0.index < $1.index }) {
            for maxLines in 1 ... 11 { stale.append(t.recursiveDescription(of: node, maxLines: maxLines)) }
        }
        let summary = t.debugDescription
        var fresh: [String] = []
        for node in n.values.sorted(by: { $0.index < $1.index }) {
            for maxLines in 1 ... 11 { fresh.append(t.recursiveDescription(of: node, maxLines: maxLines)) }
        }
        #expect(stale == fresh)
        #expect(summary == t.debugDescription)
        #expect(t.recursiveDescription(of: n["r"]!) == """
            <Window: frame = (0 0; 320 480); tag = 0; node = #0.0>
               | <Label: frame = (0 0; 0 0); tag = 11; node = #8.0>
               | <Label: frame = (10 10; 100 20); tag = 3; node = #1.0>
               | <View: frame = (0 40; 320 440); tag = 0; node = #2.0>
               |    | <Button: frame = (8 8; 60 30); tag = 7; node = #3.0>
               |    | <View: frame = (0 0; 0 0); tag = -1; node = #6.0>
               | <View: frame = (0 0; 0 0); tag = 1000000000000; node = #7.0>
               | <View: frame = (0 0; 0 0); tag = 12; node = #9.0>
               | <Button: frame = (80 8; 60 30); tag = 8; node = #4.0>
               |    | <Label: frame = (0.5 -3; 10.25 5); tag = 9; node = #5.0>
            """)
    }

    // MARK: Deep chains

    /// A chain `depth` nodes deep built with `appendChild` (so the index is stale).
    static func chain(_ depth: Int) -> (ViewTree, NodeID) {
        var t = ViewTree(minimumCapacity: depth)
        let top = t.makeNode(tag: 0, type: Ty.view)
        var x = top
        for i in 1 ..< depth { x = t.appendChild(tag: i % 10, type: i % 2 == 0 ? Ty.view : Ty.label, to: x) }
        return (t, top)
    }

    @Test func aHundredThousandDeepChainIsBounded() {
        let depth = 100_000
        let (t, top) = Self.chain(depth)
        for _ in 0 ..< 2 {
            let text = t.recursiveDescription(of: top)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 1_001)
            #expect(lines.last == "… 99,000 more nodes")
            #expect(lines[64] == String(repeating: "   | ", count: 64) + "<View: tag = 4; node = #64.0>")
            #expect(lines[65] == "[depth 65] <Label: tag = 5; node = #65.0>")
            #expect(lines[999] == "[depth 999] <Label: tag = 9; node = #999.0>")
            // No line is longer than the deepest indentation drawn plus a node's text.
            #expect(lines.allSatisfy { $0.utf8.count <= 5 * 64 + 40 })
            #expect(text.utf8.count < 1_001 * 80)
        }
    }

    @Test func aWholeHundredThousandDeepListingStaysLinearInSize() {
        let depth = 100_000
        let (t, top) = Self.chain(depth)
        let text = t.recursiveDescription(of: top, maxLines: depth)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == depth)
        #expect(lines.last == "[depth 99,999] <Label: tag = 9; node = #99999.0>")
        #expect(text.utf8.count < depth * 60)
        #expect(t.recursiveDescription(of: top, maxLines: depth - 1).hasSuffix("\n… 1 more node"))
    }

    @Test func indentationCapsAt64Levels() {
        #expect(ViewTree._indentation(0) == "")
        #expect(ViewTree._indentation(2) == "   |    | ")
        #expect(ViewTree._indentation(64).utf8.count == 5 * 64)
        #expect(ViewTree._indentation(65) == "[depth 65] ")
        #expect(ViewTree._indentation(1_000_000) == "[depth 1,000,000] ")
    }

    // MARK: Root count

    @Test func rootCountFollowsEveryMutation() {
        var t = ViewTree()
        let r = t.makeNode(type: Ty.view)
        let a = t.makeNode(type: Ty.view)
        let b = t.makeNode(type: Ty.view)
        #expect(t.rootCount == 3)
        t.append(a, to: r)
        t.insert(b, into: a, at: 0)
        #expect(t.rootCount == 1)
        t.insert(b, before: a)
        #expect(t.rootCount == 1)
        t.detach(a)
        #expect(t.rootCount == 2)
        t.detach(a)
        #expect(t.rootCount == 2)
        t.removeSubtree(a)
        #expect(t.rootCount == 1)
        t.removeSubtree(b)
        #expect(t.rootCount == 1)
        t.removeSubtree(r)
        #expect(t.rootCount == 0)
        t._checkInvariants()
        var g = ViewTree()
        let top = g.makeNode(type: Ty.view)
        let source = Self.ten()
        g.graft(source.nodes["r"]!, of: source.tree)
        #expect(g.rootCount == 2)
        g.graft(source.nodes["b"]!, of: source.tree, under: top)
        #expect(g.rootCount == 2)
        g._checkInvariants()
    }

    // MARK: Misuse

    @Test func maxLinesBelowOneTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var t = ViewTree()
            let a = t.makeNode(type: DescriptionTests.Ty.view)
            _ = t.recursiveDescription(of: a, maxLines: 0)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("maxLines >= 1"), "\(message)")
    }

    @Test func aStaleNodeTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var t = ViewTree()
            let a = t.makeNode(type: DescriptionTests.Ty.view)
            t.removeSubtree(a)
            _ = t.recursiveDescription(of: a)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("stale NodeID"), "\(message)")
    }
}
