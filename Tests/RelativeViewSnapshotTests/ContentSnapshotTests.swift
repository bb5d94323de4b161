import Foundation
import RelativeViewCore
@testable import RelativeViewSnapshot
import Testing

/// Version 5's content (values and named attributes): saved and loaded back, and every
/// damage to its sections an error naming the byte, never a trap and never a tree.
@Suite struct ContentSnapshotTests {
    typealias Section = SnapshotLayout.Section
    typealias Field = SnapshotLayout.Field

    /// A small document: an element with attributes, text, a comment, an element whose
    /// attributes were edited (its run moved to the end of the table), a removed node.
    static let sample: ViewTree = {
        var tree = ViewTree()
        let root = tree.makeElement(named: "doc", attributes: ["xmlns:p": "urn:p", "id": "r"])
        tree.append(tree.makeContent(.text, "hello \u{1F600}"), to: root)
        let item = tree.appendChild(type: TypeRegistry.shared.typeID(named: "item"), to: root)
        tree.setAttribute(named: "p:n", "1", of: item)
        tree.setAttribute(named: "m", "two", of: item)
        tree.append(tree.makeContent(.comment, " c "), to: root)
        let gone = tree.appendChild(type: TypeRegistry.shared.typeID(named: "gone"), to: root)
        tree.setAttribute(named: "x", "y", of: gone)
        tree.setValue("v", of: gone)
        tree.removeSubtree(gone)
        tree.setAttribute(named: "id", "root", of: root)
        tree.setAttribute(named: "late", "z", of: root)
        return tree
    }()

    static let bytes = sample.snapshot()

    func content(_ tree: ViewTree) -> [String] {
        tree.roots.flatMap { [$0] + Array(tree.descendants(of: $0)) }.map { node in
            "\(tree.typeName(of: node)) \(tree.namedAttributes(of: node).map { "\($0.name)=\($0.value)" }) \(tree.value(of: node) ?? "-")"
        }
    }

    @Test func contentComesBack() throws {
        #expect(Self.bytes.withUnsafeBytes { $0.load(fromByteOffset: Field.version, as: UInt32.self) } == 6)
        let fromMemory = try ViewTree(snapshot: Self.bytes)
        #expect(content(fromMemory) == content(Self.sample))
        #expect(content(fromMemory).first == "doc [\"xmlns:p=urn:p\", \"id=root\", \"late=z\"] -")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("content-\(UUID().uuidString).rvsnap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.sample.writeSnapshot(to: path)
        for mapped in [true, false] {
            var loaded = try ViewTree(contentsOfSnapshot: path, mapped: mapped)
            #expect(content(loaded) == content(Self.sample), "mapped \(mapped)")
            // The values and the named attributes' texts are read where they lie in the file's
            // memory, not copied; an edit that writes a text makes its column the tree's own.
            #expect(loaded._storage.content.text.borrowed != nil && loaded._storage.content.attributes.texts.borrowed != nil, "mapped \(mapped)")
            #expect(loaded._storage.content.attributes.first.isBorrowed, "mapped \(mapped): the runs' first entries too")
            // It edits as any tree, and saves again the same way.
            let root = loaded.roots[0]
            loaded.setAttribute(named: "id", nil, of: root)
            loaded.setValue("changed", of: loaded.firstChild(of: root)!)
            #expect(content(try ViewTree(snapshot: loaded.snapshot())) == content(loaded))
            #expect(loaded._storage.content.text.borrowed == nil, "mapped \(mapped): the value set made the values the tree's own")
        }
        // Saved again at once: the same bytes.
        #expect(fromMemory.snapshot() == Self.bytes)
    }

    @Test func aVersion4SnapshotLoadsWithoutContent() throws {
        let version4 = Self.sample._snapshot(version: 4)
        let loaded = try ViewTree(snapshot: version4)
        #expect(!loaded.hasContent)
        #expect(loaded.count == Self.sample.count)
    }

    @Test func everyTruncation() { expectEveryTruncationFails(Self.bytes) }

    @Test func everyFlippedBitOfTheContent() throws {
        // The content's sections and counts, bit by bit (the rest is the other suites').
        let layout = try #require(layoutOf(Self.bytes))
        let from = Int(layout.sections[Section.valueStarts.rawValue].lowerBound)
        let to = Self.bytes.count - 8
        var loaded = 0
        let sections: Range<Int> = from * 8 ..< to * 8
        let counts: Range<Int> = Field.valueStarts * 8 ..< (Field.namedValueBytes + 8) * 8
        for bit in Array(sections) + Array(counts) {
            var copy = Self.bytes
            copy[bit / 8] ^= 1 << UInt8(bit % 8)
            if snapshotLoadError(copy) == nil { loaded += 1 }
        }
        #expect(loaded == 0)
    }

    @Test func damagedContentIsAnErrorNamingTheByte() throws {
        let layout = try #require(layoutOf(Self.bytes))
        func at(_ s: Section) -> Int { Int(layout.sections[s.rawValue].lowerBound) }
        let valueBytes = layout.sections[Section.valueBytes.rawValue].count
        // A value start past the texts (slot 1, the text node).
        #expect(snapshotLoadError(patching(Self.bytes, UInt32(valueBytes), at: at(.valueStarts) + 4))
                == SnapshotError(offset: at(.valueStarts) + 4, reason: "value: slot 1's text starts at \(valueBytes), outside the \(valueBytes) bytes"))
        // A value on the removed (free) slot 4.
        #expect(snapshotLoadError(patching(Self.bytes, UInt32(0), at: at(.valueStarts) + 16))?.reason == "value: free slot 4 has a text")
        // A run that does not start where the previous one ended.
        #expect(snapshotLoadError(patching(Self.bytes, Int32(1), at: at(.namedFirst)))
                == SnapshotError(offset: at(.namedFirst), reason: "slot 0's named attributes start at entry 1, not 0 (runs follow each other in slot order)"))
        // A name past the type table.
        #expect(snapshotLoadError(patching(Self.bytes, UInt32(1 << 30), at: at(.namedNames)))?.offset == at(.namedNames))
        // A value start past the value texts.
        #expect(snapshotLoadError(patching(Self.bytes, UInt32(1 << 20), at: at(.namedValueStarts) + 4))?.offset == at(.namedValueStarts) + 4)
        // The last entry's mark cleared: the run goes past the entries.
        let entries = Int(Self.bytes.withUnsafeBytes { $0.load(fromByteOffset: Field.namedEntries, as: UInt64.self) })
        let lastName = Self.bytes.withUnsafeBytes { $0.load(fromByteOffset: at(.namedNames) + 4 * (entries - 1), as: UInt32.self) }
        #expect(snapshotLoadError(patching(Self.bytes, lastName & ~(1 << 31), at: at(.namedNames) + 4 * (entries - 1)))?.reason
                .contains("run past the \(entries) entries") == true)
        // A free slot's run: slot 2's run given to slot 1 (removed, so free); the runs still
        // follow each other, but a free slot has none.
        var freed = ViewTree()
        let root = freed.makeElement(named: "doc", attributes: ["a": "0"])
        let removed = freed.makeElement(named: "e", attributes: ["b": "1"])
        freed.append(removed, to: root)
        freed.append(freed.makeElement(named: "e", attributes: ["c": "2"]), to: root)
        freed.removeSubtree(removed)
        let freedBytes = freed.snapshot()
        let freedLayout = try #require(layoutOf(freedBytes))
        let firstAt = Int(freedLayout.sections[Section.namedFirst.rawValue].lowerBound)
        let firstRuns: [Int32] = freedBytes.withUnsafeBytes { raw in (0 ..< 3).map { i in raw.load(fromByteOffset: firstAt + 4 * i, as: Int32.self) } }
        #expect(firstRuns == [0, -1, 1])
        #expect(snapshotLoadError(patching(patching(freedBytes, Int32(1), at: firstAt + 4, reseal: false), Int32(-1), at: firstAt + 8))
                == SnapshotError(offset: firstAt + 4, reason: "free slot 1 has named attributes"))
        // More value starts than slots.
        #expect(snapshotLoadError(patching(Self.bytes, UInt64(1000), at: Field.valueStarts))?.offset == Field.valueStarts)
    }
}
