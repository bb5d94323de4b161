import Testing
@testable import RelativeViewCore
import RelativeViewEngine
import RelativeViewFixtures

/// A node's own text (`value`), its named attributes, text content, and their life
/// through edits, removals, copies and grafts.
@Suite struct ContentTests {
    static let div = TypeRegistry.shared.typeID(named: "div")

    @Test func attributesKeepTheirOrderThroughEdits() {
        var tree = ViewTree()
        let a = tree.makeElement(named: "a", attributes: ["x": "1", "y": "2", "z": "3"])
        let b = tree.makeElement(named: "b", attributes: ["k": "v"])
        #expect(tree.namedAttributes(of: a).map(\.name) == ["x", "y", "z"])
        // Replaced in place, added after the others (after another node's run: moved).
        tree.setAttribute(named: "y", "two", of: a)
        tree.setAttribute(named: "w", "4", of: a)
        #expect(tree.namedAttributes(of: a).map { "\($0.name)=\($0.value)" } == ["x=1", "y=two", "z=3", "w=4"])
        #expect(tree.namedAttributes(of: b).map { "\($0.name)=\($0.value)" } == ["k=v"])
        // Removed: the others close up.
        tree.setAttribute(named: "x", nil, of: a)
        #expect(tree.namedAttributes(of: a).map(\.name) == ["y", "z", "w"])
        tree.setAttribute(named: "w", nil, of: a)
        tree.setAttribute(named: "nope", nil, of: a)
        #expect(tree.attribute(named: "z", of: a) == "3")
        #expect(tree.attribute(named: "w", of: a) == nil)
        #expect(tree.attribute(named: "never-registered-\(#line)", of: a) == nil)
        tree.setAttribute(named: "y", nil, of: a)
        tree.setAttribute(named: "z", nil, of: a)
        #expect(tree.namedAttributes(of: a).isEmpty)
        tree.setAttribute(named: "again", "1", of: a)
        #expect(tree.namedAttributes(of: a).map(\.name) == ["again"])
        #expect(tree.namedAttributes(of: b).map(\.name) == ["k"])
    }

    @Test func textContentAndValues() {
        var tree = ViewTree()
        let p = tree.makeElement(named: "p")
        tree.append(tree.makeContent(.text, "a "), to: p)
        let b = tree.appendChild(type: TypeRegistry.shared.typeID(named: "b"), to: p)
        tree.append(tree.makeContent(.text, "bold"), to: b)
        tree.append(tree.makeContent(.comment, "not text"), to: p)
        tree.append(tree.makeContent(.cdata, " <c>"), to: p)
        #expect(tree.textContent(of: p) == "a bold <c>")
        #expect(tree.kind(of: p) == .element)
        #expect(tree.children(of: p).map { tree.kind(of: $0) } == [.text, .element, .comment, .cdata])
        // Setting an element's text content replaces its children with one text node.
        tree.setTextContent("new", of: b)
        #expect(tree.children(of: b).count == 1)
        #expect(tree.textContent(of: p) == "a new <c>")
        tree.setTextContent("", of: b)
        #expect(tree.firstChild(of: b) == nil)
        #expect(tree.textContent(of: b) == "")
        // On a comment it sets the value.
        let comment = Array(tree.children(of: p))[2]
        tree.setTextContent("changed", of: comment)
        #expect(tree.value(of: comment) == "changed")
        tree.setValue(nil, of: comment)
        #expect(tree.value(of: comment) == nil)
    }

    @Test func processingInstructionsAreTypedByTarget() {
        var tree = ViewTree()
        let pi = tree.makeNode(type: TypeRegistry.shared.typeID(named: NodeKind.processingInstructionTypeName(target: "xml-stylesheet")))
        tree.setValue("href='a.css'", of: pi)
        #expect(tree.kind(of: pi) == .processingInstruction)
        #expect(NodeKind(typeName: "#text") == .text)
        #expect(NodeKind(typeName: "#other") == .element)
        #expect(NodeKind(typeName: "View") == .element)
    }

    @Test func aFreedSlotKeepsNoContent() {
        var tree = ViewTree()
        let root = tree.makeElement(named: "r")
        let child = tree.appendChild(type: Self.div, to: root)
        tree.setAttribute(named: "x", "1", of: child)
        tree.setValue("v", of: child)
        tree.removeSubtree(child)
        let reused = tree.appendChild(type: Self.div, to: root)
        #expect(reused.index == child.index)
        #expect(tree.namedAttributes(of: reused).isEmpty)
        #expect(tree.value(of: reused) == nil)
    }

    @Test func aCopyIsUntouchedByEdits() {
        var tree = ViewTree()
        let a = tree.makeElement(named: "a", attributes: ["x": "1"])
        tree.setValue("v", of: a)
        let copy = tree
        tree.setAttribute(named: "x", "2", of: a)
        tree.setValue("w", of: a)
        #expect(copy.attribute(named: "x", of: a) == "1")
        #expect(copy.value(of: a) == "v")
        #expect(tree.attribute(named: "x", of: a) == "2")
        // A removal writes the runs' first entries (a column, not copied on write): the
        // copy keeps its own.
        let again = tree
        tree.setAttribute(named: "x", nil, of: a)
        #expect(tree.attribute(named: "x", of: a) == nil)
        #expect(again.attribute(named: "x", of: a) == "2" && copy.attribute(named: "x", of: a) == "1")
    }

    /// Runs whose first entries are borrowed (as a loaded snapshot's are, read in place):
    /// each kind of change copies them first and leaves the memory they were read from as
    /// it was.
    @Test func borrowedRunsAreCopiedOnTheirFirstChange() {
        let x = TypeRegistry.shared.typeID(named: "x"), y = TypeRegistry.shared.typeID(named: "y")
        var owned = _AttributeRuns()
        owned.appendToLastRun(name: x, valueAt: 0, slot: 0)
        owned.appendToLastRun(name: y, valueAt: 0, slot: 2)
        owned.appendToLastRun(name: x, valueAt: 0, slot: 2)
        let memory: [Int32] = owned.first.array
        #expect(memory == [0, -1, 1])
        let value = [UInt8]("v".utf8)
        let changes: [(String, [Int32], (inout _AttributeRuns) -> Void)] = [
            ("remove", [-1, -1, 1], { $0.remove(x, at: 0) }),
            ("clear", [0, -1, -1], { $0.clear(at: 2) }),
            ("append", [0, -1, 1, 3], { $0.appendToLastRun(name: y, valueAt: 0, slot: 3) }),
            ("set", [0, 3, 1], { runs in value.withUnsafeBufferPointer { runs.set(y, $0, at: 1) } }),
        ]
        for (name, expected, change) in changes {
            memory.withUnsafeBufferPointer { base in
                var runs = owned
                runs.first = _Column<Int32>(borrowing: base.baseAddress!, count: base.count, owner: Holder())
                #expect(runs.first.isBorrowed, "\(name)")
                change(&runs)
                #expect(!runs.first.isBorrowed, "\(name): the change made them its own")
                #expect(runs.first.array == expected, "\(name)")
                #expect(Array(base) == [0, -1, 1], "\(name): the borrowed memory is untouched")
            }
        }
    }

    @Test(arguments: [3, 300])
    func graftsCopyContent(_ size: Int) {
        var source = ViewTree()
        let root = source.makeElement(named: "r", attributes: ["id": "root"])
        for k in 0 ..< size {
            let e = source.appendChild(type: Self.div, to: root)
            source.setAttribute(named: "n", "\(k)", of: e)
            source.append(source.makeContent(.text, "t\(k)"), to: e)
        }
        // Into an empty tree (streamed through a builder) and under a node (one by one).
        var empty = ViewTree()
        let copy = empty.graft(root, of: source)
        var other = ViewTree()
        let host = other.makeElement(named: "host")
        let under = other.graft(root, of: source, under: host)
        for (tree, node) in [(empty, copy), (other, under)] {
            #expect(tree.attribute(named: "id", of: node) == "root")
            #expect(tree.textContent(of: node) == (0 ..< size).map { "t\($0)" }.joined())
            #expect(tree.children(of: node).map { tree.attribute(named: "n", of: $0) } == (0 ..< size).map { "\($0)" })
        }
    }

    @Test func builderContentIsRolledBack() {
        var builder = ViewTreeBuilder()
        builder.open(type: Self.div)
        builder.addAttribute(name: "a", value: "1")
        let mark = builder.mark
        builder.addAttribute(name: "b", value: "2")
        builder.appendLeaf(type: Self.div)
        builder.setValue("gone")
        builder.addAttribute(name: "c", value: "3")
        builder.rollBack(to: mark)
        builder.close()
        let tree = builder.finish()
        #expect(tree.count == 1)
        #expect(tree.namedAttributes(of: tree.roots[0]).map(\.name) == ["a"])
    }

    /// `setValue(words:count:)` (a JSON scanner's values as two words, written straight into
    /// a builder's reserved memory when it has a capacity and shares no values) gives the
    /// same values as `setValue(utf8:)`: with a capacity too small, exact and large, with
    /// more than a stage (64 KiB) of texts, values of 0 to 16 bytes and longer ones mixed
    /// in, nodes without values, and a roll-back in the middle.
    @Test(arguments: [0, 5_000, 30_000, 100_000])
    func valuesGivenAsWordsAreTheValuesGivenAsBytes(capacity: Int) {
        var rng = SplitMix64(seed: 9)
        var words = ViewTreeBuilder(minimumCapacity: capacity)
        words.sharesRecentValues = false
        var bytes = ViewTreeBuilder()
        var expected: [String?] = []
        func value() -> String? {
            switch Int.random(in: 0 ..< 10, using: &rng) {
            case 0: return nil
            case 1: return String(repeating: "é", count: Int.random(in: 9 ..< 40, using: &rng))
            default: return String((0 ..< Int.random(in: 0 ... 16, using: &rng)).map { _ in "abc019\"-.".randomElement(using: &rng)! })
            }
        }
        func give(_ v: String, to builder: inout ViewTreeBuilder, asWords: Bool) {
            var v = v
            v.withUTF8 { utf8 in
                guard asWords && utf8.count <= 16 else { return builder.setValue(utf8: utf8) }
                var padded = Array(utf8) + Array(repeating: 0, count: 16 - utf8.count)
                let w = padded.withUnsafeMutableBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
                builder.setValue(words: (UInt64(littleEndian: w.0), UInt64(littleEndian: w.1)), count: utf8.count)
            }
        }
        words.open(type: Self.div)
        bytes.open(type: Self.div)
        expected.append(nil)
        for k in 0 ..< 25_000 {
            if k == 12_000 {
                // Abandoned: 500 leaves on `words` only, rolled back.
                let mark = words.mark
                for _ in 0 ..< 500 {
                    words.appendLeaf(type: Self.div)
                    give("abandoned", to: &words, asWords: true)
                }
                words.rollBack(to: mark)
            }
            words.appendLeaf(type: Self.div)
            bytes.appendLeaf(type: Self.div)
            let v = value()
            if let v {
                give(v, to: &words, asWords: true)
                give(v, to: &bytes, asWords: false)
            }
            expected.append(v)
        }
        words.close()
        bytes.close()
        let a = words.finish(), b = bytes.finish()
        a._checkInvariants()
        let got = [a.value(of: a.roots[0])] + a.descendants(of: a.roots[0]).map { a.value(of: $0) }
        #expect(got == [b.value(of: b.roots[0])] + b.descendants(of: b.roots[0]).map { b.value(of: $0) })
        #expect(got == expected)
    }

    @Test func descriptionsShowContent() {
        var tree = ViewTree()
        let a = tree.makeElement(named: "a", attributes: ["x": "1"])
        tree.append(tree.makeContent(.text, "hi\n"), to: a)
        let text = tree.recursiveDescription(of: a)
        #expect(text.contains("@x = \"1\""))
        #expect(text.contains("value = \"hi\\n\""))
    }
}

/// An owner for borrowed test memory.
private final class Holder {}
