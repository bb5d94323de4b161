import Foundation
import RelativeViewCore
import RelativeViewFixtures
@testable import RelativeViewSnapshot
import Testing

/// Damaged and hostile snapshots of format version 1 (the pre-order; see
/// `ColumnCorruptionTests` for version 2): each is an error naming the byte offset and
/// what is wrong, never a trap and never a tree.
@Suite struct CorruptionTests {
    typealias Field = SnapshotLayout.Field
    typealias Section = SnapshotLayout.Section

    /// A small tree with every section in use: two free slots, 12 and 13 (13 removed last,
    /// so it heads the free list), a wide tag, geometry and attributes.
    static let sample: (tree: ViewTree, ids: [NodeID], bytes: [UInt8]) = {
        var tree = ViewTree()
        let type = TypeRegistry.shared.typeID(named: "CorruptionTestView")
        let other = TypeRegistry.shared.typeID(named: "CorruptionTestLabel")
        var ids = [tree.makeNode(tag: 1, type: type)]
        for i in 1 ..< 12 { ids.append(tree.appendChild(tag: i, type: i % 2 == 0 ? type : other, to: ids[(i - 1) / 3])) }
        tree.setTag(.min, of: ids[4])
        tree.setFrameOrigin(SIMD2(3, 4), of: ids[2])
        tree.setAttribute(.id, "x", of: ids[5])
        let extra = tree.appendChild(tag: 0, type: type, to: ids[0])
        let extra2 = tree.appendChild(tag: 0, type: type, to: ids[1])
        // Geometry up to the last slot, so the free slots have (zero) geometry entries.
        tree.setFrameOrigin(SIMD2(1, 1), of: extra2)
        tree.removeSubtree(extra)
        tree.removeSubtree(extra2)
        return (tree, ids, tree._snapshot(version: 1))
    }()

    var bytes: [UInt8] { Self.sample.bytes }

    func at(_ section: Section) -> Int {
        Int(layoutOf(bytes)!.sections[section.rawValue].lowerBound)
    }

    /// The error loading `bytes` gives (see ``snapshotLoadError(_:sourceLocation:)``).
    func loadError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> SnapshotError? {
        snapshotLoadError(bytes, sourceLocation: sourceLocation)
    }

    /// The sample with `value` stored little-endian at `offset` and the checksum made to match.
    func patched<T: FixedWidthInteger>(_ value: T, at offset: Int, reseal: Bool = true) -> [UInt8] {
        patching(bytes, value, at: offset, reseal: reseal)
    }

    @Test func theSampleLoads() throws {
        let loaded = try ViewTree(snapshot: bytes)
        loaded._checkInvariants()
        #expect(loaded.slotCount == 14 && loaded.count == 12)
    }

    /// Every prefix of the snapshot, from empty to one byte short: an error, at the end of
    /// what is there or at the header field that disagrees with it.
    @Test func everyTruncation() { expectEveryTruncationFails(bytes) }

    /// Every single flipped bit: the checksum catches each one (its steps are bijections,
    /// so no one-word change can keep it), or an earlier header check does.
    @Test(.enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it")) func everyFlippedBit() { expectEveryFlippedBitFails(bytes) }

    @Test func headerDefects() {
        #expect(loadError(patched(UInt8(0x88), at: 0))?.description == "snapshot: byte 0: not a RelativeView snapshot: its first 8 bytes are not the snapshot magic \\x89RVTREE\\n")
        #expect(loadError(patched(UInt32(7), at: Field.version)) == SnapshotError(offset: Field.version, reason: "format version 7: this reader reads versions 1 to 6"))
        // Versions 2 to 6 have a larger header: a version 1 file relabelled is caught there.
        #expect(loadError(patched(UInt32(6), at: Field.version)) == SnapshotError(offset: Field.headerSize, reason: "header size 144: version 6's is 200"))
        #expect(loadError(patched(UInt32(5), at: Field.version)) == SnapshotError(offset: Field.headerSize, reason: "header size 144: version 5's is 200"))
        #expect(loadError(patched(UInt32(4), at: Field.version)) == SnapshotError(offset: Field.headerSize, reason: "header size 144: version 4's is 160"))
        #expect(loadError(patched(UInt32(2), at: Field.version)) == SnapshotError(offset: Field.headerSize, reason: "header size 144: version 2's is 160"))
        #expect(loadError(patched(UInt32(3), at: Field.version)) == SnapshotError(offset: Field.headerSize, reason: "header size 144: version 3's is 160"))
        #expect(loadError(patched(SnapshotLayout.byteOrderMark.byteSwapped, at: Field.byteOrder)) == SnapshotError(offset: Field.byteOrder, reason: "wrong byte order: the snapshot is big-endian; this reader reads little-endian snapshots"))
        #expect(loadError(patched(UInt32(0x1234), at: Field.byteOrder))?.offset == Field.byteOrder)
        #expect(loadError(patched(UInt32(200), at: Field.headerSize))?.offset == Field.headerSize)
        #expect(loadError(patched(UInt32(2), at: Field.flags))?.reason == "unknown flags 0x2")
        // Bit 0 (an HTML document) is known: the same tree, read as HTML.
        #expect((try? ViewTree(snapshot: patched(UInt32(1), at: Field.flags)))?.isHTMLDocument == true)
        #expect(loadError(patched(UInt8(1), at: Field.reserved + 3))?.offset == Field.reserved + 3)
        #expect(loadError(patched(UInt64(99), at: Field.freeCount))?.offset == Field.freeCount)
    }

    /// Counts that do not add up to the length, or that overflow: the counts' field.
    @Test func countsThatDoNotMatchTheLength() {
        for field in [Field.typeCount, Field.typeNameBytes, Field.wideTagCount, Field.geometryCount, Field.attributeStarts, Field.attributeBytes + 8] {
            let error = loadError(patched(UInt64(999), at: field))
            #expect(error?.offset == Field.slotCount && error?.reason.contains("the counts do not match the length") == true, "field \(field): \(String(describing: error))")
        }
        #expect(loadError(patched(UInt64.max - 100, at: Field.typeNameBytes))?.reason.contains("more than 2^64 bytes") == true)
    }

    @Test func aChecksumThatDoesNotMatch() {
        let body = bytes.count - SnapshotLayout.trailerSize
        let error = loadError(patched(Int32(77), at: at(.generation) + 8, reseal: false))
        #expect(error?.offset == body && error?.reason.hasPrefix("checksum mismatch") == true)
    }

    // MARK: Hostile files (resealed): the structure itself is checked

    // The sample's pre-order: slots 0, 1, 4, 5, 6, 2, 7, 8, 9, 3, 10, 11 (node k is the
    // k-th); its free list: 13, 12.

    /// The byte offset of field `field` (0 slot, 1 parent, 2 tag, 3 type) of pre-order node `k`.
    func node(_ k: Int, _ field: Int) -> Int { at(.nodes) + SnapshotLayout.nodeSize * k + 4 * field }

    @Test func nodesOnSlotsOutOfRange() {
        #expect(loadError(patched(Int32(500), at: node(3, 0))) == SnapshotError(offset: node(3, 0), reason: "pre-order node 3 is on slot 500, not a slot of 14"))
        #expect(loadError(patched(Int32(-1), at: node(3, 0)))?.offset == node(3, 0))
    }

    /// Slot 1 made the child of its own child (slot 6, node 4): a parent must come before
    /// its child in the pre-order, so a cycle cannot be written.
    @Test func parentLinksThatFormACycle() {
        #expect(loadError(patched(Int32(4), at: node(1, 1))) == SnapshotError(offset: node(1, 1), reason: "pre-order node 1 (slot 1) has parent 4: a parent comes before its child, so -1 or 0 ... 0"))
        #expect(loadError(patched(Int32(-2), at: node(1, 1)))?.offset == node(1, 1))
    }

    /// A child run that does not close: node 6 (slot 7) given node 1 (slot 1) as parent,
    /// whose children ended when node 5 (slot 2, a child of the root) began.
    @Test func childRunsThatDoNotClose() {
        #expect(loadError(patched(Int32(1), at: node(6, 1))) == SnapshotError(offset: node(6, 1), reason: "pre-order node 6 (slot 7) is not in its parent 1's run: the parent's children ended before it"))
    }

    /// A slot named twice (in the pre-order, on the free list, or in both) leaves another
    /// named by nothing, which is reported.
    @Test func slotsNamedTwiceOrNotAtAll() {
        let twice = loadError(patched(Int32(5), at: node(2, 0)))
        #expect(twice == SnapshotError(offset: at(.generation) + 16, reason: "slot 4 is neither in the pre-order nor on the free list (another slot is named twice)"))
        // A live slot on the free list: free slot 13 is then named by nothing.
        #expect(loadError(patched(Int32(3), at: at(.free)))?.reason == "slot 13 is neither in the pre-order nor on the free list (another slot is named twice)")
        #expect(loadError(patched(Int32(99), at: at(.free) + 4)) == SnapshotError(offset: at(.free) + 4, reason: "free-list entry 1 is slot 99, not a slot of 14"))
    }

    @Test func countsOfLiveAndFreeThatDisagree() {
        #expect(loadError(patched(UInt64(3), at: Field.freeCount))?.offset == Field.freeCount)
        #expect(loadError(patched(UInt64(20), at: Field.liveCount))?.offset == Field.freeCount)
        #expect(loadError(patched(UInt64(999), at: Field.slotCount))?.offset == Field.freeCount)
    }

    @Test func typeTableDefects() {
        let names = at(.typeNames)
        let notUTF8 = loadError(patched(UInt8(0xFF), at: names + 1))
        #expect(notUTF8?.offset == names && notUTF8?.reason == "type 0's name is not valid UTF-8")
        #expect(loadError(patched(UInt32(9999), at: at(.typeEntries)))?.offset == at(.typeEntries))
        #expect(loadError(patched(UInt32(2), at: at(.typeEntries) + 4))?.reason == "type 0 has kind 2: 0 (a name) or 1 (a class)")
        #expect(loadError(patched(Int32(2), at: node(5, 3))) == SnapshotError(offset: node(5, 3), reason: "pre-order node 5 (slot 2) has type 2, not in the type table of 2"))
    }

    @Test func wideTagDefects() {
        let table = at(.wideTags)
        #expect(loadError(patched(Int64(7), at: table + 8))?.reason == "wide tag 0 (slot 4, tag 7) is not a tag that needs the wide table")
        #expect(loadError(patched(Int64(3), at: table))?.offset == table)
        #expect(loadError(patched(Int64(-1), at: table))?.reason == "wide tag 0 is for slot -1, not a slot")
        // Slot 4 (node 2) no longer says its tag is in the wide table.
        #expect(loadError(patched(Int32(0), at: node(2, 2)))?.reason == "1 wide tags for 0 nodes that need one")
    }

    @Test func geometryAndAttributeDefects() {
        // Geometry on a free slot (13, the free-list head).
        #expect(loadError(patched(UInt64(1), at: at(.frameOrigin) + 16 * 13))?.reason == "free slot 13 has geometry")
        let starts = at(.starts(.id))
        #expect(loadError(patched(Int64(1000), at: starts + 8 * 5))?.reason == "id: slot 5's text starts at 1000, outside the 2 bytes")
        #expect(loadError(patched(Int64(-7), at: starts + 8 * 5))?.offset == starts + 40)
        #expect(loadError(patched(UInt16(0x8585), at: at(.bytes(.id))))?.reason == "id: slot 5's text length runs past the bytes")
        #expect(loadError(patched(UInt8(0x05), at: at(.bytes(.id))))?.reason == "id: slot 5's text of 5 bytes runs past the bytes")
    }

    /// A file of several megabytes, so that the checksum and the text check run on a
    /// thread of their own: a damaged text is found there, and reported as in memory.
    @Test func aTextDefectInALargeFileIsFoundBesideThePass() throws {
        let tree = largeTree(nodes: 100_000, type: "CorruptionTestView", fanOut: 4, tags: 5, idEvery: 3, id: { "node-\($0)" }, classEvery: 7)
        var bytes = tree._snapshot(version: 1)
        #expect(bytes.count > 2 << 20)
        let layout = try #require(layoutOf(bytes))
        let starts = Int(layout.sections[Section.starts(.className).rawValue].lowerBound)
        withUnsafeBytes(of: Int64(1 << 40).littleEndian) { for k in 0 ..< 8 { bytes[starts + 8 * 77_000 + k] = $0[k] } }
        resealed(&bytes)
        let error = loadError(bytes)
        #expect(error?.offset == starts + 8 * 77_000)
        #expect(error?.reason.hasPrefix("class: slot 77000's text starts at 1099511627776, outside") == true)
    }

    /// An attribute column that reaches a free slot: the flaw reported is the lowest slot's,
    /// a free slot before a text flaw at the same slot, attributes in their order, on every
    /// path (the review's cases: a text flaw on a free slot, flaws in two columns, two flaws
    /// in one column).
    @Test func attributeFlawsAroundAFreeSlot() throws {
        var tree = ViewTree()
        let type = TypeRegistry.shared.typeID(named: "CorruptionTestView")
        let root = tree.makeNode(tag: 0, type: type)
        let children = (1 ... 5).map { _ in tree.appendChild(tag: 0, type: type, to: root) }
        tree.removeSubtree(children[1])  // slot 2 is free
        for slot in [1, 5] {
            tree.setAttribute(.key, "k\(slot)", of: children[slot - 1])
            tree.setAttribute(.id, "i\(slot)", of: children[slot - 1])
        }
        let base = tree._snapshot(version: 1)
        let layout = try #require(layoutOf(base))
        func start(_ attribute: NodeAttribute, _ slot: Int) -> Int { Int(layout.sections[Section.starts(attribute).rawValue].lowerBound) + 8 * slot }
        func with(_ patches: [(Int, Int64)]) -> [UInt8] {
            var copy = base
            for (offset, value) in patches { withUnsafeBytes(of: value.littleEndian) { for k in 0 ..< 8 { copy[offset + k] = $0[k] } } }
            resealed(&copy)
            return copy
        }
        let a = loadError(with([(start(.key, 2), 1 << 40)]))
        #expect(a?.offset == start(.key, 2) && a?.reason == "key: free slot 2 has a text")
        let b = loadError(with([(start(.key, 1), 1 << 40), (start(.id, 2), 0)]))
        #expect(b?.offset == start(.key, 1) && b?.reason.hasPrefix("key: slot 1's text starts at") == true)
        let c = loadError(with([(start(.key, 2), 0), (start(.key, 5), 1 << 40)]))
        #expect(c?.offset == start(.key, 2) && c?.reason == "key: free slot 2 has a text")
    }
}

/// The error loading `bytes` gives, or `nil` if it loads. Loaded three ways, which must
/// agree (offset and reason): from memory (every column copied and checked in line), and
/// from a file, mapped and read (read in place where the format allows, the attribute
/// texts checked apart from the structural pass and merged with it).
func snapshotLoadError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> SnapshotError? {
    let inMemory: SnapshotError?
    do {
        _ = try ViewTree(snapshot: bytes)
        inMemory = nil
    } catch {
        inMemory = error
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(UUID().uuidString).rvtree").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        Issue.record("cannot write \(path)", sourceLocation: sourceLocation)
        return inMemory
    }
    for mapped in [true, false] {
        var fromFile: SnapshotError?
        do {
            _ = try ViewTree(contentsOfSnapshot: path, mapped: mapped)
        } catch {
            fromFile = error
        }
        #expect(fromFile?.offset == inMemory?.offset && fromFile?.reason == inMemory?.reason,
                "mapped \(mapped): \(String(describing: fromFile)) from the file, \(String(describing: inMemory)) from memory", sourceLocation: sourceLocation)
    }
    return inMemory
}

/// `bytes` with `value` stored little-endian at `offset` and, with `reseal`, the checksum
/// made to match.
func patching<T: FixedWidthInteger>(_ bytes: [UInt8], _ value: T, at offset: Int, reseal: Bool = true) -> [UInt8] {
    var copy = bytes
    withUnsafeBytes(of: value.littleEndian) { for k in 0 ..< $0.count { copy[offset + k] = $0[k] } }
    if reseal { resealed(&copy) }
    return copy
}

/// Every prefix of `bytes`, from empty to one byte short, fails to load: at the end of what
/// is there or at the header field that disagrees with it; and one byte too many fails at
/// the file size field.
func expectEveryTruncationFails(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    for length in 0 ..< bytes.count {
        let error = snapshotLoadError(Array(bytes[..<length]))
        #expect(error != nil, "\(length) bytes loaded", sourceLocation: sourceLocation)
        if let error, length >= SnapshotLayout.headerSize + SnapshotLayout.trailerSize {
            #expect(error.offset == length && error.reason.contains("truncated"), "\(length): \(error)", sourceLocation: sourceLocation)
        }
    }
    #expect(snapshotLoadError(bytes + [0])?.offset == SnapshotLayout.Field.fileSize, sourceLocation: sourceLocation)
}

/// No single flipped bit of `bytes` loads.
func expectEveryFlippedBitFails(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    var loaded = 0
    for bit in 0 ..< bytes.count * 8 {
        var copy = bytes
        copy[bit / 8] ^= 1 << UInt8(bit % 8)
        if snapshotLoadError(copy) == nil { loaded += 1 }
    }
    #expect(loaded == 0, "\(loaded) flipped bits went unnoticed", sourceLocation: sourceLocation)
}

/// A large file read into memory (`mapped: false`) is read in two halves at once, the
/// second on a thread of its own: it must load as the same bytes, and a damaged byte in
/// either half must fail as it does in memory.
@Suite struct TwoHalfReadTests {
    @Test func aLargeFileIsReadInTwoHalves() throws {
        let tree = largeTree(nodes: 250_000, type: "TwoHalfReadView", fanOut: 3, tags: 9, idEvery: 5, id: { "n\($0)" })
        let bytes = tree.snapshot()
        // Over the threshold, and not a whole number of pages: the halves meet at a page.
        #expect(bytes.count > ViewTree.twoThreadReadBytes && bytes.count % 4096 != 0)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("halves-\(UUID().uuidString).rvtree").path
        try tree.writeSnapshot(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = try ViewTree(contentsOfSnapshot: path, mapped: false)
        #expect(read.snapshot() == bytes)
        for offset in [bytes.count / 4, bytes.count * 3 / 4] {
            var damaged = bytes
            damaged[offset] ^= 0x10
            // From memory, and from a file mapped and read: the same error, at the start of
            // the damaged byte's block (version 6 names the block whose digest differs).
            let error = snapshotLoadError(damaged)
            let block = offset / SnapshotLayout.checksumBlock * SnapshotLayout.checksumBlock
            #expect(error?.offset == block && error?.reason.hasPrefix("checksum mismatch: block \(offset / SnapshotLayout.checksumBlock) ") == true, "byte \(offset): \(String(describing: error))")
        }
    }
}

/// A tree of `nodes` nodes of type `type` for the large-file tests: node i (from 1) under
/// node (i - 1) / `fanOut`, with tag i % `tags`, an `id` attribute `id(i)` on every
/// `idEvery`-th node and a `class` attribute on every `classEvery`-th.
func largeTree(
    nodes: Int, type name: String, fanOut: Int, tags: Int, idEvery: Int, id: (Int) -> String, classEvery: Int? = nil
) -> ViewTree {
    var tree = ViewTree()
    let type = TypeRegistry.shared.typeID(named: name)
    var ids = [tree.makeNode(tag: 0, type: type)]
    for i in 1 ..< nodes {
        ids.append(tree.appendChild(tag: i % tags, type: type, to: ids[(i - 1) / fanOut]))
        if i % idEvery == 0 { tree.setAttribute(.id, id(i), of: ids[i]) }
        if let classEvery, i % classEvery == 0 { tree.setAttribute(.className, "c\(i % 11)", of: ids[i]) }
    }
    return tree
}
