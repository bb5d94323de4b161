import Foundation
import RelativeViewCore
import RelativeViewEngine
import RelativeViewFixtures
import RelativeViewImport
@testable import RelativeViewQuery
@testable import RelativeViewSnapshot
import Testing

/// A query on a snapshot's sections read in place (`_SnapshotQuerySource`, what
/// `relative-view query SNAPSHOT` answers a count or element numbers from), checking only
/// the groups of sections the query may read, against the same query on the tree a whole
/// load gives. A query that read a group its analysis left out would find no attribute or
/// no value there, and answer otherwise.
@Suite struct SnapshotInPlaceTests {
    /// The file a tree's snapshot is written to, removed by the caller.
    static func written(_ tree: ViewTree) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("in-place-\(UUID().uuidString).rvtree").path
        try tree.writeSnapshot(to: path)
        return path
    }

    /// The source, with the groups `query` may read checked (as the tool checks them; the
    /// attributes each as it is read where `onRead`, but for a document that declares
    /// namespaces).
    static func source(_ path: String, attributes: Bool, values: Bool, onRead: Bool = false) throws -> _SnapshotQuerySource {
        let source = try #require(_SnapshotQuerySource.open(path))
        #expect(source.checkStructure())
        if attributes || source.declaresNamespaces { #expect(source.checkAttributes(onRead: onRead && !source.declaresNamespaces)) }
        if values { #expect(source.checkValues()) }
        return source
    }

    /// An XPath value as both ways give it: a node-set as its count and its elements' ranks.
    enum Value: Equatable {
        case boolean(Bool), number(String), string(String), nodes(Int, [Int32]), error
    }

    static func whole(_ tree: ViewTree, _ query: XPath) -> Value {
        guard let value = try? tree.evaluate(query) else { return .error }
        switch value {
        case .boolean(let b): return .boolean(b)
        case .number(let n): return .number(XPath.string(n))
        case .string(let s): return .string(s)
        case .nodes(let nodes):
            let elements = nodes.compactMap { n -> Int32? in
                guard n.attributeName == nil, n.namespacePrefix == nil, let node = n.node, tree.kind(of: node) == .element else { return nil }
                return Int32(node.index)  // an import's slots are its ranks
            }
            return .nodes(nodes.count, elements)
        }
    }

    static func inPlace(_ source: _SnapshotQuerySource, _ query: XPath) -> Value {
        source.withView { view in
            guard let value = try? _ColumnQueries.evaluate(query, count: source.count, isHTML: source.isHTML, view: view, typeCounts: source.typeCounts) else {
                return .error
            }
            switch value {
            case .boolean(let b): return .boolean(b)
            case .number(let n): return .number(XPath.string(n))
            case .string(let s): return .string(s)
            case .nodes(let count, let elements): return .nodes(count, elements)
            }
        }
    }

    /// Generated documents (mixed content, namespaces) and expressions: the same values,
    /// with the named attributes checked before the query and as it reads them.
    @Test(arguments: 1 ... 6 as ClosedRange<UInt64>)
    func generatedExpressions(seed: UInt64) throws {
        var fuzz = XPathFuzz(seed: seed)
        fuzz.prefixes = seed % 2 == 0
        var mismatches: [String] = []
        for k in 0 ..< 3 {
            let text = fuzz.document(elements: 80, mixed: true, namespaces: seed % 2 == 0 && k != 1)
            let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "doc.xml")
            let path = try Self.written(tree)
            defer { try? FileManager.default.removeItem(atPath: path) }
            for _ in 0 ..< 120 {
                let e = fuzz.expression()
                let namespaces = fuzz.prefixes ? ["q": "urn:p", "d": "urn:d", "e": "urn:e"] : [:]
                guard let query = try? XPath(e, namespaces: namespaces) else { continue }
                // A source of its own for each: only the groups this query asks for are read.
                let theirs = Self.whole(tree, query)
                for onRead in [false, true] {
                    let source = try Self.source(path, attributes: query.readsAttributes, values: query.readsValues, onRead: onRead)
                    let ours = Self.inPlace(source, query)
                    #expect(!source.attributesFlawed, "\(e)")
                    if ours != theirs && mismatches.count < 8 {
                        // (A document that declares namespaces has its runs checked first all the same.)
                        let checkedOnRead = onRead && !source.declaresNamespaces
                        mismatches.append("\(e) (attributes \(query.readsAttributes), values \(query.readsValues), on read \(checkedOnRead))\n  in place: \(ours)\n  whole:    \(theirs)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    }

    /// CSS selectors, with the named attributes read only where the selector asks for them.
    @Test func selectors() throws {
        var fuzz = XPathFuzz(seed: 40)
        let text = fuzz.document(elements: 150, mixed: true)
        let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "doc.xml")
        let path = try Self.written(tree)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for css in ["a", "a b", "a > b", "a + b", "a ~ c", "*", "[id]", "[x='1']", "a[x^='f']", "#i3", ".c", ":root > *", "b:first-child",
                    "c:nth-of-type(2n)", "d:empty", "a:not([y])", ":is(a, b) > c", "a:has(> b[x])", "b:lang(en)", "d:only-child", "c:last-of-type"] {
            let selector = try CSSSelector(css)
            let theirs = try tree.select(selector).map { Int32($0.index) }
            for onRead in [false, true] {
                let source = try Self.source(path, attributes: selector.readsAttributes, values: false, onRead: onRead)
                let ours = try source.withView { view in
                    try _ColumnQueries.select(selector, count: source.count, isHTML: source.isHTML, view: view, threads: 2, typeCounts: source.typeCounts)
                }
                #expect(ours == theirs, "\(css): \(ours.count) in place, \(theirs.count) whole (on read \(onRead))")
                #expect(!source.attributesFlawed)
            }
        }
        // Read with nothing but the structure, an attribute selector finds no attribute.
        let bare = try #require(_SnapshotQuerySource.open(path))
        #expect(bare.checkStructure())
        let none = try bare.withView { view in try _ColumnQueries.select(CSSSelector("[x]"), count: bare.count, isHTML: false, view: view) }
        let some = try tree.select(CSSSelector("[x]"))
        #expect(none.isEmpty && !some.isEmpty)
    }

    /// Element numbers as the tool prints them: each element's place among the elements.
    @Test func elementNumbers() throws {
        let tree = try TreeImporter().importTree(Array("<r>t<a/><!--c--><b><a/>u</b><a/></r>".utf8), format: .xml, path: "r.xml")
        let path = try Self.written(tree)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Self.source(path, attributes: false, values: false)
        let numbers = try source.withView { view in
            let ranks = try _ColumnQueries.select(CSSSelector("a"), count: source.count, isHTML: false, view: view)
            return _ColumnQueries.elementNumbers(of: ranks, count: source.count, view: view)
        }
        #expect(numbers == [1, 3, 4])
    }

    /// The files it does not read (a whole load reads them): none of a version before 6, of
    /// a tree with free slots; a tree saved after moves (slots not in document order) fails
    /// the structure's check.
    @Test func whatItLeavesToAWholeLoad() throws {
        var tree = try TreeImporter().importTree(Array("<r><a/><b><c/></b><d/></r>".utf8), format: .xml, path: "r.xml")
        let old = FileManager.default.temporaryDirectory.appendingPathComponent("v5-\(UUID().uuidString).rvtree").path
        #expect(FileManager.default.createFile(atPath: old, contents: Data(tree._snapshot(version: 5))))
        defer { try? FileManager.default.removeItem(atPath: old) }
        #expect(_SnapshotQuerySource.open(old) == nil)
        let root = try #require(tree.documentElement)
        let children = Array(tree.children(of: root))
        tree.append(children[0], to: children[2])  // a under d: slots out of document order
        let moved = try Self.written(tree)
        defer { try? FileManager.default.removeItem(atPath: moved) }
        let source = try #require(_SnapshotQuerySource.open(moved))
        #expect(!source.checkStructure())
        tree.removeSubtree(children[1])
        let freed = try Self.written(tree)
        defer { try? FileManager.default.removeItem(atPath: freed) }
        #expect(_SnapshotQuerySource.open(freed) == nil)
        #expect(_SnapshotQuerySource.open("/nonexistent/file.rvtree") == nil)
    }

    /// The structure's rule four ways, one slot at a time in Swift and in C, eight at a time
    /// in C with AVX2 and sixteen with AVX-512 (each where the processor has it; with a small
    /// type table and a wide one): the same verdict on every range of a tree's columns, each changed at random in
    /// a type, a parent or a span.
    @Test func theStructureChecksAgree() throws {
        var fuzz = XPathFuzz(seed: 91)
        let tree = try TreeImporter().importTree(Array(fuzz.document(elements: 70, mixed: true).utf8), format: .xml, path: "doc.xml")
        let bytes = tree.snapshot()
        let (_, _, counts, ranges) = try bytes.withUnsafeBytes { raw in try SnapshotReader(bytes: raw, path: nil).readHeader() }
        let n = Int(counts.live)
        func at(_ s: SnapshotLayout.Section) -> Int { Int(ranges[s.rawValue].lowerBound) }
        let types = try bytes.withUnsafeBytes { raw in try SnapshotReader(bytes: raw, path: nil).typeTable(counts: counts, at: at) }
        let usable = types.map { !$0.unused }
        let table = usable.map { Int32($0 ? 1 : 0) } + [0]
        // The same table with 300 entries no node may have: past 256 entries the vector path
        // gathers each type's usability, where below it reads a bit of one vector.
        let wide = table.dropLast() + [Int32](repeating: 0, count: 301)
        var type: [Int32] = (0 ..< n).map { k in bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at(.typeID) + 4 * k, as: Int32.self) } }
        var parent: [Int32] = (0 ..< n).map { k in bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at(.parent) + 4 * k, as: Int32.self) } }
        var span: [_TourBlocks.Span] = (0 ..< n).map { k in
            bytes.withUnsafeBytes { _TourBlocks.Span(enter: $0.loadUnaligned(fromByteOffset: at(.span) + 8 * k, as: UInt32.self),
                                                     exit: $0.loadUnaligned(fromByteOffset: at(.span) + 8 * k + 4, as: UInt32.self)) }
        }
        let (originalType, originalParent, originalSpan) = (type, parent, span)
        var rng = SplitMix64(seed: 92)
        var (held, failed) = (0, 0)
        for trial in 0 ..< 1500 {
            (type, parent, span) = (originalType, originalParent, originalSpan)
            if trial > 0 {
                let x = Int.random(in: 0 ..< n, using: &rng)
                let near = Int32(x) + Int32.random(in: -3 ... 3, using: &rng)
                switch trial % 5 {
                case 0: type[x] = Int32.random(in: -1 ... Int32(types.count), using: &rng)
                case 1: parent[x] = near
                case 2: parent[x] = Int32.random(in: .min ... .max, using: &rng)
                case 3: span[x].exit = span[x].exit &+ UInt32(bitPattern: Int32.random(in: -4 ... 4, using: &rng))
                default: span[x].enter = UInt32.random(in: 0 ... UInt32(2 * n + 2), using: &rng)
                }
            }
            let lower = trial % 3 == 0 ? 0 : Int.random(in: 0 ..< n, using: &rng)
            let range = lower ..< (trial % 2 == 0 ? n : Int.random(in: lower ... n, using: &rng))
            let verdicts = type.withUnsafeBufferPointer { t in
                parent.withUnsafeBufferPointer { p in
                    span.withUnsafeBufferPointer { s in
                        usable.withUnsafeBufferPointer { u in
                            [_SnapshotQuerySource.structureHolds(range, count: n, type: t.baseAddress!, usable: u, parent: p.baseAddress!, span: s.baseAddress!),
                             _SnapshotQuerySource.structureHoldsInC(range, count: n, type: t.baseAddress!, usable: table, parent: p.baseAddress!, span: s.baseAddress!, vector: 0),
                             _SnapshotQuerySource.structureHoldsInC(range, count: n, type: t.baseAddress!, usable: table, parent: p.baseAddress!, span: s.baseAddress!, vector: 1),
                             _SnapshotQuerySource.structureHoldsInC(range, count: n, type: t.baseAddress!, usable: Array(wide), parent: p.baseAddress!, span: s.baseAddress!, vector: 1),
                             _SnapshotQuerySource.structureHoldsInC(range, count: n, type: t.baseAddress!, usable: table, parent: p.baseAddress!, span: s.baseAddress!, vector: 2),
                             _SnapshotQuerySource.structureHoldsInC(range, count: n, type: t.baseAddress!, usable: Array(wide), parent: p.baseAddress!, span: s.baseAddress!, vector: 2)]
                        }
                    }
                }
            }
            #expect(Set(verdicts).count == 1, "trial \(trial), slots \(range): \(verdicts)")
            if verdicts[0] { held += 1 } else { failed += 1 }
            if trial == 0 { #expect(verdicts == [Bool](repeating: true, count: 6), "the tree as written") }
        }
        #expect(held > 100 && failed > 500, "\(held) held, \(failed) failed")
    }

    /// Hostile structure: one parent or span changed, the file sealed again (so that only
    /// the structure's check can see it). The check passes only where what a query reads
    /// (each subtree's end and each parent) is still the tree's; a damaged block, unsealed,
    /// fails it; a damage in the tour, which no query reads, does not.
    @Test func aChangedParentOrSpanIsCaught() throws {
        var fuzz = XPathFuzz(seed: 77)
        let tree = try TreeImporter().importTree(Array(fuzz.document(elements: 60, mixed: true).utf8), format: .xml, path: "doc.xml")
        let bytes = tree.snapshot()
        let (_, _, counts, ranges) = try bytes.withUnsafeBytes { raw in try SnapshotReader(bytes: raw, path: nil).readHeader() }
        let n = Int(counts.live)
        let (parentAt, spanAt) = (Int(ranges[SnapshotLayout.Section.parent.rawValue].lowerBound), Int(ranges[SnapshotLayout.Section.span.rawValue].lowerBound))
        func structure(_ b: [UInt8]) -> (ends: [Int], parents: [Int32]) {
            b.withUnsafeBytes { raw in
                let ends = (0 ..< n).map { x -> Int in
                    let enter = raw.loadUnaligned(fromByteOffset: spanAt + 8 * x, as: UInt32.self)
                    let exit = raw.loadUnaligned(fromByteOffset: spanAt + 8 * x + 4, as: UInt32.self)
                    return x + Int((Int64(exit) - Int64(enter) + 1) >> 1)
                }
                return (ends, (0 ..< n).map { raw.loadUnaligned(fromByteOffset: parentAt + 4 * $0, as: Int32.self) })
            }
        }
        let original = structure(bytes)
        var rng = SplitMix64(seed: 78)
        var caught = 0
        for trial in 0 ..< 400 {
            var damaged = bytes
            let x = Int.random(in: 0 ..< n, using: &rng)
            let offset = trial % 2 == 0 ? parentAt + 4 * x : spanAt + 8 * x + 4 * Int.random(in: 0 ... 1, using: &rng)
            let value: Int32 = trial % 4 < 2 ? Int32.random(in: -2 ... Int32(n) + 2, using: &rng) : Int32.random(in: .min ... .max, using: &rng)
            withUnsafeBytes(of: value.littleEndian) { for k in 0 ..< 4 { damaged[offset + k] = $0[k] } }
            damaged.withUnsafeMutableBytes { ViewTree.sealSnapshot($0) }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString).rvtree").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(damaged)))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let source = try #require(_SnapshotQuerySource.open(path))
            if source.checkStructure() {
                let now = structure(damaged)
                #expect(now.ends == original.ends && now.parents == original.parents, "trial \(trial): slot \(x) at \(offset) = \(value) passed")
            } else {
                caught += 1
            }
        }
        #expect(caught > 300, "\(caught) of 400 changes caught")
        // A damaged block, not sealed: its digest no longer matches.
        var unsealed = bytes
        unsealed[parentAt] ^= 0x01
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unsealed-\(UUID().uuidString).rvtree").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(unsealed)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(_SnapshotQuerySource.open(path)?.checkStructure() != true)
    }

    /// The types the structure's check counts are the index's own counts of the type
    /// column, in all and in the first half, on a document large enough (2^20 nodes and
    /// more) that the index keeps the halves apart, and on a small one.
    @Test func theStructuresTypeCountsAreTheIndexs() throws {
        var text = "<r>"
        for k in 0 ..< 640_000 { text += k % 3 == 0 ? "<a>t</a>" : k % 3 == 1 ? "<b/>" : "<c><d/></c>" }
        text += "</r>"
        for (large, document) in [(true, text), (false, "<r><a/>x<b><a/></b></r>")] {
            let tree = try TreeImporter().importTree(Array(document.utf8), format: .xml, path: "doc.xml")
            let path = try Self.written(tree)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let source = try Self.source(path, attributes: false, values: false)
            #expect((source.count >= 1 << 20) == large)
            let counted = try #require(source.typeCounts)
            let index = source.withView { view in
                _DocumentIndex.counts(UnsafeBufferPointer(start: view.typeID, count: source.count), bound: counted.total.count)
            }
            #expect(counted.total == index.total && counted.firstHalf == index.firstHalf, "\(source.count) nodes")
            #expect(counted.total.reduce(0, +) == Int32(source.count))
        }
    }

    /// The nodes of the types the structure's check collects (a query's names) are every
    /// node of each type in document order, the index's own collection of the type column,
    /// on a document whose types lie across many pieces and both halves, and on a small
    /// one; a type no node has and an id out of the table collect nothing; and a query
    /// answered with them answers as the tree does.
    @Test func theStructuresCollectedTypesAreTheIndexs() throws {
        var text = "<r>"
        for k in 0 ..< 640_000 { text += k % 3 == 0 ? "<a>t</a>" : k % 3 == 1 ? "<b/>" : "<c><d/></c>" }
        text += "</r>"
        _ = TypeRegistry.shared.typeID(named: "absent-from-the-document")
        for (large, document) in [(true, text), (false, "<r><a/>x<b><a/></b><c><d/></c></r>")] {
            let tree = try TreeImporter().importTree(Array(document.utf8), format: .xml, path: "doc.xml")
            let path = try Self.written(tree)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let source = try #require(_SnapshotQuerySource.open(path))
            let names = ["a", "d", "absent-from-the-document", "r"]
            let wanted = names.compactMap { TypeRegistry.shared.existingTypeID(named: $0)?.rawValue } + [Int32.max, -1]
            #expect(source.checkStructure(collecting: wanted))
            #expect((source.count >= 1 << 20) == large)
            let counted = try #require(source.typeCounts)
            for name in ["a", "d", "r"] {
                let t = try #require(TypeRegistry.shared.existingTypeID(named: name)?.rawValue)
                let given = try #require(source.collected[t], "\(name) collected")
                let index = source.withView { view in
                    _DocumentIndex.collect(t, count: Int(counted.total[Int(t)]), firstHalf: Int(counted.firstHalf[Int(t)]),
                                           in: UnsafeBufferPointer(start: view.typeID, count: source.count))
                }
                #expect(given == index, "\(name) on \(source.count) nodes")
                #expect(!given.isEmpty)
            }
            #expect(source.collected.count == 3, "only the types some node has: \(source.collected.keys.sorted())")
            for css in ["a", "r > c > d", "c:first-of-type d"] {
                let selector = try CSSSelector(css)
                let ranks = try source.withView { view in
                    try _ColumnQueries.select(selector, count: source.count, isHTML: false, view: view, typeCounts: source.typeCounts, collected: source.collected)
                }
                #expect(ranks == (try tree.select(selector).map { Int32($0.index) }), "\(css)")
            }
        }
    }

    /// The names a query's postings may be read for: its compounds' and its name tests'
    /// on the child and descendant axes, each once, in the order written.
    @Test func theNamesAQueryTests() throws {
        #expect(try CSSSelector("open_auction > bidder:first-of-type increase, Item:not(b), *").elementNames(isHTML: false) == ["open_auction", "bidder", "increase", "Item"])
        #expect(try CSSSelector("DIV P, div").elementNames(isHTML: true) == ["div", "p"])
        #expect(try XPath("//person[@id='p1']/name | (//item)[100]/parent::x | count(a/b[c])").elementNames == ["person", "name", "item", "a", "b", "c"])
        #expect(try XPath("//p:a/ancestor::b/@c").elementNames == ["p:a"])
    }

    /// A document whose runs the runs' tests change (generated elements with attributes
    /// under a root with a value of 20,000 bytes, a three-byte length, which the C kernel
    /// leaves to the load's check), its snapshot, and where the sections lie.
    struct RunsFixture {
        let tree: ViewTree
        let bytes: [UInt8]
        let counts: SnapshotLayout.Counts
        let ranges: [Range<UInt64>]
        /// Slots with a first entry, entries, bytes of the values' texts.
        let slots: Int, entries: Int, texts: Int

        init(seed: UInt64) throws {
            var fuzz = XPathFuzz(seed: seed)
            let long = String(repeating: "v", count: 20_000)
            let text = "<w long='\(long)'>" + fuzz.document(elements: 120, mixed: true) + "</w>"
            tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "doc.xml")
            bytes = tree.snapshot()
            (_, _, counts, ranges) = try bytes.withUnsafeBytes { raw in try SnapshotReader(bytes: raw, path: nil).readHeader() }
            (slots, entries, texts) = (Int(counts.content.namedFirst), Int(counts.content.namedEntries), Int(counts.content.namedValueBytes))
        }

        func at(_ s: SnapshotLayout.Section) -> Int { Int(ranges[s.rawValue].lowerBound) }

        /// The snapshot with one first entry, name or value start changed at random
        /// (`trial % 4` says which; below trial 12 a name or a start just out of range: the
        /// table's count, the texts' end), sealed again; and whether the change names a type
        /// out of the table or a start past the texts. Trial 0 changes nothing.
        func damaged(trial: Int, using rng: inout SplitMix64) -> (bytes: [UInt8], outOfRange: Bool) {
            guard trial > 0 else { return (bytes, false) }
            var damaged = bytes
            let (offset, value): (Int, UInt32)
            var outOfRange = false
            let edge = trial < 12
            switch trial % 4 {
            case 0: (offset, value) = (at(.namedFirst) + 4 * Int.random(in: 0 ..< slots, using: &rng), UInt32(bitPattern: Int32.random(in: -2 ... Int32(entries) + 1, using: &rng)))
            case 1:
                let name = edge ? UInt32(counts.types) : UInt32.random(in: 0 ... UInt32(counts.types) + 2, using: &rng)
                (offset, value) = (at(.namedNames) + 4 * Int.random(in: 0 ..< entries, using: &rng), name | (Bool.random(using: &rng) ? 1 << 31 : 0))
                outOfRange = value & ~(1 << 31) >= UInt32(counts.types)
            case 2:
                let start = edge ? UInt32(texts) : UInt32.random(in: 0 ... UInt32(texts) + 2, using: &rng)
                (offset, value) = (at(.namedValueStarts) + 4 * Int.random(in: 0 ..< entries, using: &rng), start)
                outOfRange = value >= UInt32(texts)
            default:
                (offset, value) = (at(.namedValueStarts) + 4 * Int.random(in: 0 ..< entries, using: &rng), UInt32.random(in: .min ... .max, using: &rng))
                outOfRange = value >= UInt32(texts)
            }
            withUnsafeBytes(of: value.littleEndian) { for k in 0 ..< 4 { damaged[offset + k] = $0[k] } }
            damaged.withUnsafeMutableBytes { ViewTree.sealSnapshot($0) }
            return (damaged, outOfRange)
        }
    }

    /// The named attributes' runs checked in C (with the load's check for a piece it does
    /// not pass) against the load's check alone, on a tree's runs each changed at random
    /// in a first entry, a name or a value start, the file sealed again: the same verdict.
    /// A value of 20,000 bytes (a three-byte length, which the kernel leaves to the load's
    /// check) passes.
    @Test func theRunsChecksAgree() throws {
        let fixture = try RunsFixture(seed: 93)
        let (bytes, counts, slots, entries, texts) = (fixture.bytes, fixture.counts, fixture.slots, fixture.entries, fixture.texts)
        func at(_ s: SnapshotLayout.Section) -> Int { fixture.at(s) }
        #expect(entries > 20)
        func loadsVerdict(_ b: [UInt8]) -> Bool {
            b.withUnsafeBytes { raw in
                let reader = SnapshotReader(bytes: raw, path: nil)
                let names: [UInt32] = reader.column(at(.namedNames), count: entries)
                let valueAt: [UInt32] = reader.column(at(.namedValueStarts), count: entries)
                let first: [Int32] = reader.column(at(.namedFirst), count: slots)
                let piece = first.withUnsafeBufferPointer { f in
                    SnapshotReader.checkRuns(
                        0 ..< slots, first: f.baseAddress!, names: names, valueAt: valueAt,
                        namedBytes: UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + at(.namedValueBytes), count: texts),
                        parent: nil, anyFree: false, typeCount: Int(counts.types), places: (at(.namedFirst), at(.namedNames), at(.namedValueStarts)))
                }
                return SnapshotReader.runsFlaw([piece], entries: entries, places: (at(.namedFirst), at(.namedNames))) == nil
            }
        }
        var rng = SplitMix64(seed: 94)
        var (held, failed) = (0, 0)
        for trial in 0 ..< 300 {
            let damaged = fixture.damaged(trial: trial, using: &rng).bytes
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString).rvtree").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(damaged)))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let source = try #require(_SnapshotQuerySource.open(path))
            #expect(source.checkStructure())
            let ours = source.checkAttributes(), theirs = loadsVerdict(damaged)
            #expect(ours == theirs, "trial \(trial): in place \(ours), load \(theirs)")
            if trial == 0 { #expect(ours, "the tree as written, with a value of 20,000 bytes") }
            if ours { held += 1 } else { failed += 1 }
        }
        #expect(held > 20 && failed > 100, "\(held) held, \(failed) failed")
        // A damaged block of the first entries, or of the texts, not sealed: its digest no
        // longer matches, and the attributes are not read.
        for offset in [at(.namedFirst) + 4 * (slots / 2), at(.namedValueBytes) + texts / 2] {
            var unsealed = bytes
            unsealed[offset] ^= 0x10
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("runs-unsealed-\(UUID().uuidString).rvtree").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(unsealed)))
            defer { try? FileManager.default.removeItem(atPath: path) }
            // (A small file is one block, which also holds the type table that opening
            // checks; the structure's blocks may share a block with the first entries.)
            let caught = _SnapshotQuerySource.open(path).map { !($0.checkStructure() && $0.checkAttributes()) } ?? true
            #expect(caught, "a flipped bit at \(offset)")
        }
    }

    /// The named attributes checked as a query reads them (`_RunsOnRead`), on a tree's runs
    /// each changed at random in a first entry, a name or a value start, the file sealed
    /// again, with queries that read every run: where the load's check passes, the same
    /// answers as the whole check gives and no flaw; a name out of the type table or a value
    /// start past the texts is a flaw (every entry is read); a flaw only where the load's
    /// check fails (true of these changes, which leave every length as written).
    @Test func runsCheckedOnRead() throws {
        let fixture = try RunsFixture(seed: 95)
        #expect(fixture.entries > 20)
        let queries = try ["count(//@*)", "//*[@*]", "string(//@*[last()])", "count(//*[@x = '1'] | //*[@id])"].map { try XPath($0) }
        /// Each query's value, and whether a run read was flawed, from `path` read in place.
        func onRead(_ path: String) throws -> (values: [Value], flawed: Bool)? {
            guard let source = _SnapshotQuerySource.open(path), source.checkStructure() else { return nil }
            #expect(source.checkAttributes(onRead: true))
            let values = queries.map { Self.inPlace(source, $0) }
            return (values, source.attributesFlawed)
        }
        let pristine = queries.map { Self.whole(fixture.tree, $0) }
        var rng = SplitMix64(seed: 96)
        var (flawed, mustBe, loadFails) = (0, 0, 0)
        for trial in 0 ..< 300 {
            let (damaged, outOfRange) = fixture.damaged(trial: trial, using: &rng)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("on-read-\(UUID().uuidString).rvtree").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(damaged)))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let whole = try #require(_SnapshotQuerySource.open(path))
            #expect(whole.checkStructure())
            let loads = whole.checkAttributes()
            let (values, isFlawed) = try #require(try onRead(path))
            if loads {
                // A sound file: the answers of the file as loaded (the change may have kept a value).
                let loaded = try ViewTree(contentsOfSnapshot: path)
                #expect(!isFlawed, "trial \(trial): a flaw in runs the load's check passes")
                let same = values == queries.map { Self.whole(loaded, $0) }
                #expect(same, "trial \(trial): other answers than the loaded file's")
                if trial == 0 { #expect(values == pristine, "the file as written") }
            } else {
                loadFails += 1
            }
            if outOfRange {
                mustBe += 1
                #expect(isFlawed, "trial \(trial): an entry out of range read without a flaw")
            }
            if isFlawed { flawed += 1 }
        }
        #expect(mustBe > 50 && flawed >= mustBe && loadFails >= flawed, "\(flawed) flawed, \(mustBe) out of range, \(loadFails) the load's check fails")
    }

    /// On a document of 2^18 elements, a third with an attribute, spread over several
    /// checksum blocks: the runs checked as they are read on two threads at once answer as
    /// the whole check does, with no flaw; a bit flipped in a block of the first entries or
    /// of the texts, not sealed (its digest no longer matches), is a flaw once a query
    /// reads the block, and not before.
    @Test func runsCheckedOnReadOnTwoThreads() throws {
        var text = "<r>"
        for k in 0 ..< 1 << 18 { text += k % 3 == 0 ? "<a x='\(k % 7)'/>" : k % 3 == 1 ? "<b/>" : "<c y='\(k)'><d/></c>" }
        text += "</r>"
        let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "doc.xml")
        let path = try Self.written(tree)
        defer { try? FileManager.default.removeItem(atPath: path) }
        func select(_ css: String, _ source: _SnapshotQuerySource) throws -> [Int32] {
            let selector = try CSSSelector(css)
            return try source.withView { view in
                try _ColumnQueries.select(selector, count: source.count, isHTML: false, view: view, threads: 2, typeCounts: source.typeCounts)
            }
        }
        for css in ["a[x='3']", "c[y$='7'] > d", "[x]", "c:not([y^='1'])"] {
            let answers = try [false, true].map { onRead in
                let source = try Self.source(path, attributes: true, values: false, onRead: onRead)
                let ranks = try select(css, source)
                #expect(!source.attributesFlawed)
                return ranks
            }
            #expect(answers[0] == answers[1] && !answers[0].isEmpty, "\(css): \(answers[0].count) checked first, \(answers[1].count) on read")
        }
        let bytes = tree.snapshot()
        let (_, _, counts, ranges) = try bytes.withUnsafeBytes { raw in try SnapshotReader(bytes: raw, path: nil).readHeader() }
        let block = SnapshotLayout.checksumBlock
        // The blocks opening and the structure's check read.
        let before = Set([SnapshotLayout.Section.typeEntries, .typeNames, .typeID, .parent, .span].flatMap { _SnapshotQuerySource.blockIndices(of: ranges[$0.rawValue]) })
        for (section, middle) in [(SnapshotLayout.Section.namedFirst, Int(counts.content.namedFirst) * 2), (.namedValueBytes, Int(counts.content.namedValueBytes) / 2)] {
            let offset = Int(ranges[section.rawValue].lowerBound) + middle
            try #require(!before.contains(offset / block), "the block of \(section) is one the structure's check reads")
            var unsealed = bytes
            unsealed[offset] ^= 0x10
            let damaged = FileManager.default.temporaryDirectory.appendingPathComponent("on-read-unsealed-\(UUID().uuidString).rvtree").path
            #expect(FileManager.default.createFile(atPath: damaged, contents: Data(unsealed)))
            defer { try? FileManager.default.removeItem(atPath: damaged) }
            // Checked on read even where the type table names `xmlns:…` (as it may in a
            // process whose other trees registered such names first).
            let source = try #require(_SnapshotQuerySource.open(damaged))
            #expect(source.checkStructure())
            #expect(source.checkAttributes(onRead: true))
            _ = try select("r > b", source)
            // (Where the table names `xmlns:…`, a name test reads every run for declarations.)
            if !source.declaresNamespaces { #expect(!source.attributesFlawed, "\(section): no run read yet") }
            _ = try select("[x], [y]", source)
            #expect(source.attributesFlawed, "\(section): a flipped bit at \(offset) read without a flaw")
            // The whole check finds it too.
            let whole = try #require(_SnapshotQuerySource.open(damaged))
            #expect(whole.checkStructure())
            #expect(!whole.checkAttributes())
        }
        #expect(try CSSSelector("a[x='3']").attributeOwners(isHTML: false) == ["a"])
    }

    /// The elements whose attributes a query may read, which the tool counts to choose
    /// between checking the runs first and checking each as it is read.
    @Test func theElementsWhoseAttributesAQueryReads() throws {
        #expect(try XPath("//person[@id='p1']/name").attributeOwners == ["person"])
        #expect(try XPath("//open_auction[bidder]/@id | //item[@x > 2]").attributeOwners == ["open_auction", "item"])
        #expect(try XPath("count(//p:a/@b) + count(//c[d/@e])").attributeOwners == ["p:a", "d"])
        #expect(try XPath("//item/name").attributeOwners == [])
        for any in ["//@id", "//*[@category]", "//a/parent::*[@x]", "id('x')", "//a[lang('en')]", "$v/@x", "(//a)[1][@x]", "//a/node()[@x]"] {
            #expect(try XPath(any).attributeOwners == nil, "\(any)")
        }
        #expect(try CSSSelector("person[id] > name, item.featured, open_auction:has(> bidder#b1)").attributeOwners(isHTML: false) == ["person", "item", "bidder"])
        #expect(try CSSSelector("DIV:not(.x) P").attributeOwners(isHTML: true) == ["div"])
        #expect(try CSSSelector("a:is(.x)").attributeOwners(isHTML: false) == ["a"])
        #expect(try CSSSelector("a b:first-child").attributeOwners(isHTML: false) == [])
        for any in ["[x]", "a *.c", "a:lang(en)", ":is(a, *[x])", "a:has(> [x])"] {
            #expect(try CSSSelector(any).attributeOwners(isHTML: false) == nil, "\(any)")
        }
    }

    /// Structural pseudo-classes over sets whose members' parents nest (each `a` a child of
    /// an `a` with `a` siblings after it): the places kept per chain of parents, and those
    /// numbered over a type's postings once enough parents were walked, give what the
    /// tree's own evaluation gives, for every variant.
    @Test func siblingPlacesOverNestedParents() throws {
        var text = "<r>"
        // More parents than a variant walks before it numbers a type's postings.
        for i in 0 ..< 3 * _SiblingPlaces.walksBeforePostings {
            text += "<a><b/>"
            for j in 0 ..< 5 { text += (i + j) % 2 == 0 ? "<a><a/><b/><a/></a>" : "<b><a/></b>" }
            text += "<a/></a>"
        }
        text += "</r>"
        let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "doc.xml")
        let path = try Self.written(tree)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Self.source(path, attributes: false, values: false)
        for css in ["a:first-child", "a:first-of-type", "a:last-child", "a:last-of-type", "a:nth-child(2n+1)", "a:nth-of-type(2)",
                    "a:nth-last-child(2)", "a:nth-last-of-type(odd)", "a:only-of-type", "a a:first-of-type", "r > a > a:last-of-type",
                    "a:has(> a:first-child) a:nth-of-type(2)", "b ~ a:nth-of-type(3)"] {
            let selector = try CSSSelector(css)
            let ours = try source.withView { view in
                try _ColumnQueries.select(selector, count: source.count, isHTML: false, view: view, typeCounts: source.typeCounts)
            }
            let theirs = try tree.select(selector).map { Int32($0.index) }
            #expect(ours == theirs, "\(css): \(ours) in place, \(theirs) whole")
        }
        // Both ways against places counted here from the tree's children, one selector of
        // each variant, of one name and of any (`*`: many types, each numbered once), and
        // the first and last of a type asked of the same nodes.
        let elements = ([tree.roots[0]] + Array(tree.descendants(of: tree.roots[0]))).filter { tree.kind(of: $0) == .element }.sorted { $0.index < $1.index }
        func places(_ e: NodeID) -> (first: Int, last: Int, firstOfType: Int, lastOfType: Int) {
            let siblings = (tree.parent(of: e).map { Array(tree.children(of: $0)) } ?? tree.roots).filter { tree.kind(of: $0) == .element }
            let same = siblings.filter { tree.typeID(of: $0) == tree.typeID(of: e) }
            let (i, j) = (siblings.firstIndex(of: e)!, same.firstIndex(of: e)!)
            return (i + 1, siblings.count - i, j + 1, same.count - j)
        }
        let known = Dictionary(uniqueKeysWithValues: elements.map { ($0, places($0)) })
        typealias Places = (first: Int, last: Int, firstOfType: Int, lastOfType: Int)
        let rules: [(pseudo: String, holds: (Places) -> Bool)] = [
            ("first-child", { $0.first == 1 }), ("last-child", { $0.last == 1 }), ("nth-child(2n+1)", { $0.first % 2 == 1 }),
            ("nth-last-child(2)", { $0.last == 2 }), ("first-of-type", { $0.firstOfType == 1 }), ("last-of-type", { $0.lastOfType == 1 }),
            ("nth-of-type(2)", { $0.firstOfType == 2 }), ("nth-last-of-type(odd)", { $0.lastOfType % 2 == 1 }),
            ("only-of-type", { $0.firstOfType == 1 && $0.lastOfType == 1 }), ("first-of-type:last-of-type", { $0.firstOfType == 1 && $0.lastOfType == 1 }),
            ("last-of-type:nth-of-type(2)", { $0.lastOfType == 1 && $0.firstOfType == 2 }),
        ]
        for name in ["a", "*"] {
            for (pseudo, holds) in rules {
                let css = "\(name):\(pseudo)"
                let selector = try CSSSelector(css)
                let expected = elements.filter { (name == "*" || tree.typeName(of: $0) == name) && holds(known[$0]!) }.map { Int32($0.index) }
                let ours = try source.withView { view in
                    try _ColumnQueries.select(selector, count: source.count, isHTML: false, view: view, typeCounts: source.typeCounts)
                }
                let theirs = try tree.select(selector).map { Int32($0.index) }
                #expect(ours == expected && theirs == expected && !expected.isEmpty, "\(css): \(ours.count) in place, \(theirs.count) whole, \(expected.count) counted")
            }
        }
    }
}
