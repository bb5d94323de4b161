import Foundation
import RelativeViewCore
import RelativeViewFixtures
@testable import RelativeViewSnapshot
import Testing

/// Damaged and hostile snapshots of the format version written (6: the columns and the index
/// as a tree holds them, read in place, as from version 2): each is an error naming the byte offset and what is wrong,
/// never a trap and never a tree, the same from memory (columns copied) as from a file
/// mapped or read (columns borrowed).
@Suite struct ColumnCorruptionTests {
    typealias Field = SnapshotLayout.Field
    typealias Section = SnapshotLayout.Section

    /// The version 1 suite's sample (free slots 13 then 12, a wide tag on slot 4, geometry,
    /// an attribute), saved in the version written (4).
    static let bytes = CorruptionTests.sample.tree.snapshot()
    var bytes: [UInt8] { Self.bytes }

    func at(_ section: Section) -> Int { Int(layoutOf(bytes)!.sections[section.rawValue].lowerBound) }

    func int32(_ offset: Int) -> Int32 { bytes.withUnsafeBytes { Int32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Int32.self)) } }

    /// The tour's tokens, in tour order.
    var tokens: [Int32] {
        let live = CorruptionTests.sample.tree.count
        return (0 ..< 2 * live).map { int32(at(.tourToken) + 4 * $0) }
    }

    func enter(_ slot: Int) -> Int { tokens.firstIndex(of: Int32(slot))! }
    func exit(_ slot: Int) -> Int { tokens.firstIndex(of: ~Int32(slot))! }

    func loadError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> SnapshotError? {
        snapshotLoadError(bytes, sourceLocation: sourceLocation)
    }

    func patched<T: FixedWidthInteger>(_ value: T, at offset: Int, reseal: Bool = true) -> [UInt8] {
        patching(bytes, value, at: offset, reseal: reseal)
    }

    @Test func theSampleLoadsInPlaceFromAFileAndCopiedFromMemory() throws {
        #expect(int32(Field.version) == 6)
        let fromMemory = try ViewTree(snapshot: bytes)
        fromMemory._checkInvariants()
        #expect(!fromMemory._borrowsMemory && fromMemory.snapshot() == bytes)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("columns-\(UUID().uuidString).rvtree").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        for mapped in [true, false] {
            var loaded = try ViewTree(contentsOfSnapshot: path, mapped: mapped)
            loaded._shareIdentity(with: CorruptionTests.sample.tree)  // asked with the sample's ids
            loaded._checkInvariants()
            #expect(loaded._borrowsMemory && loaded.snapshot() == bytes, "mapped \(mapped)")
            // Its first change copies the columns, and it goes on as any tree.
            let ids = CorruptionTests.sample.ids
            let leaf = loaded.appendChild(tag: 5, type: loaded.typeID(of: ids[0]), to: ids[3])
            loaded.removeSubtree(ids[1])
            loaded._checkInvariants()
            #expect(!loaded._borrowsMemory && loaded.isAncestor(ids[3], of: leaf) && !loaded.contains(ids[4]))
        }
    }

    /// Version 2 is version 3 with the checksum of one piece: each version's file loads
    /// under its own checksum and fails under the other's. Version 4 is version 3 with
    /// 4-byte attribute starts, under version 3's checksum.
    @Test func eachVersionHasItsOwnChecksum() throws {
        let version2 = CorruptionTests.sample.tree._snapshot(version: 2)
        let version3 = CorruptionTests.sample.tree._snapshot(version: 3)
        #expect(Array(version2[..<(version2.count - 8)]) == Array(patching(version3, UInt32(2), at: Field.version, reseal: false)[..<(version3.count - 8)]))
        #expect(try ViewTree(snapshot: version2).snapshot() == bytes)
        #expect(try ViewTree(snapshot: version3).snapshot() == bytes)
        // Relabelled, each file keeps a checksum of the other version's, and fails.
        #expect(loadError(patching(version3, UInt32(2), at: Field.version, reseal: false))?.reason.hasPrefix("checksum mismatch") == true)
        #expect(loadError(patching(version2, UInt32(3), at: Field.version, reseal: false))?.reason.hasPrefix("checksum mismatch") == true)
        // The two checksums, and version 3's blocks: the digests of 1 MiB blocks combined;
        // version 4's is version 3's.
        let body = bytes.count - 8
        bytes.withUnsafeBytes { raw in
            let all = UnsafeRawBufferPointer(rebasing: raw[..<body])
            #expect(SnapshotLayout.checksum(all, version: 2) != SnapshotLayout.checksum(all, version: 3))
            #expect(SnapshotLayout.checksum(all, version: 3) == SnapshotLayout.combine([SnapshotLayout.blockDigest(all, index: 0)]))
            #expect(SnapshotLayout.checksum(all, version: 4) == SnapshotLayout.checksum(all, version: 3))
        }
        // Version 3's starts take 8 bytes a slot, version 4's 4: a file relabelled from one
        // to the other has the wrong length for its counts.
        let version4 = CorruptionTests.sample.tree._snapshot(version: 4)
        #expect(try ViewTree(snapshot: version4).snapshot() == bytes)
        #expect(version3.count > version4.count)
        #expect(loadError(patching(version3, UInt32(4), at: Field.version))?.reason.hasPrefix("the counts do not match the length") == true)
        #expect(loadError(patching(version4, UInt32(3), at: Field.version))?.reason.hasPrefix("the counts do not match the length") == true)
        // Version 6 is version 4 with a larger header (the content's counts), the content's
        // sections, none here, and one block's digest: 40 + 8 bytes more.
        #expect(bytes.count == version4.count + 40 + 8)
    }

    /// Version 4's starts point into texts of fewer than 2^32 - 1 bytes (0xFFFFFFFF is none):
    /// a tree with longer texts of one attribute is written in version 3.
    @Test func longTextsAreWrittenInVersion3() {
        #expect(SnapshotLayout.versionWritten(mostAttributeTextBytes: 0) == 6)
        #expect(SnapshotLayout.versionWritten(mostAttributeTextBytes: Int(UInt32.max) - 1) == 6)
        #expect(SnapshotLayout.versionWritten(mostAttributeTextBytes: Int(UInt32.max)) == 3)
        #expect(SnapshotLayout.versionWritten(mostAttributeTextBytes: 1 << 40) == 3)
        // The longest texts of the sample's attributes: its one id text, "x" and its length.
        #expect(CorruptionTests.sample.tree._mostAttributeTextBytes == 2)
    }

    /// A header that gives version 4 texts of 2^32 - 1 bytes or more, which its starts
    /// cannot point into (the writer writes version 3 then).
    @Test func version4TextsAreFewerThan4GiB() {
        let id = Field.attributeBytes + 8 * NodeAttribute.id.rawValue
        #expect(loadError(patched(UInt64(UInt32.max), at: id)) == SnapshotError(offset: id, reason: "\(UInt32.max) bytes of id texts: version 6's 4-byte starts point into fewer than \(UInt32.max)"))
    }

    /// Narrow starts through the loader's checks: from memory (copied, each start read), and
    /// from a file, mapped and read (in place, eight starts at a time with AVX2), the same
    /// verdict, for a start past every text, one of 2^31 (negative as a signed 32-bit
    /// number) and the largest short of none.
    @Test func narrowStartsOutOfRange() throws {
        var tree = ViewTree()
        let type = TypeRegistry.shared.typeID(named: "NarrowStartNode")
        var ids = [tree.makeNode(tag: 0, type: type)]
        for i in 1 ..< 40 { ids.append(tree.appendChild(tag: i, type: type, to: ids[0])) }
        for (i, id) in ids.enumerated() where i % 3 != 1 { tree.setAttribute(.id, "node-\(i)", of: id) }
        let base = tree.snapshot()
        let layout = try #require(layoutOf(base))
        let starts = Int(layout.sections[Section.starts(.id).rawValue].lowerBound)
        let texts = layout.sections[Section.bytes(.id).rawValue].count
        #expect(snapshotLoadError(base) == nil)
        for value in [UInt32(texts), UInt32(1) << 31, UInt32.max - 1] {
            #expect(snapshotLoadError(patching(base, value, at: starts + 4 * 17))
                    == SnapshotError(offset: starts + 68, reason: "id: slot 17's text starts at \(value), outside the \(texts) bytes"))
        }
        // A start moved onto another text's length byte: sound, and that text read.
        let moved = try ViewTree(snapshot: patching(base, UInt32(0), at: starts + 4 * 17)).answering(idsOf: tree)
        #expect(moved.attribute(.id, of: ids[17]) == "node-0")
    }

    @Test func everyTruncation() { expectEveryTruncationFails(bytes) }

    @Test(.enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it")) func everyFlippedBit() { expectEveryFlippedBitFails(bytes) }

    @Test func headerDefects() {
        #expect(loadError(patched(UInt32(144), at: Field.headerSize)) == SnapshotError(offset: Field.headerSize, reason: "header size 144: version 6's is 200"))
        #expect(loadError(patched(UInt64(15), at: Field.generationCount)) == SnapshotError(offset: Field.generationCount, reason: "a generation column of 15 entries for 14 slots"))
        #expect(loadError(patched(Int64(99), at: Field.freeHead)) == SnapshotError(offset: Field.freeHead, reason: "the free list starts at slot 99, not a slot of 14 (or -1)"))
        #expect(loadError(patched(UInt64(3), at: Field.generationCount))?.reason.contains("the counts do not match the length") == true)
    }

    // MARK: Hostile files (resealed): the structure itself is checked

    @Test func tokensOutOfRange() {
        let p = enter(1)
        #expect(loadError(patched(Int32(500), at: at(.tourToken) + 4 * p)) == SnapshotError(offset: at(.tourToken) + 4 * p, reason: "tour position \(p) enters slot 500, not a slot of 14"))
    }

    @Test func spansThatDoNotPointBack() {
        let p = enter(4)
        #expect(loadError(patched(UInt32(9), at: at(.span) + 8 * 4)) == SnapshotError(offset: at(.span) + 32, reason: "slot 4 is entered at tour position \(p), but its span says 9"))
        let q = exit(4)
        #expect(loadError(patched(UInt32(1), at: at(.span) + 8 * 4 + 4)) == SnapshotError(offset: at(.span) + 32, reason: "slot 4 is exited at tour position \(q), but its span says 1"))
    }

    /// Slot 1 given its own child (slot 6) as parent, and the root given a parent: the
    /// parent is the open node's, so a cycle cannot be written.
    @Test func parentLinksThatFormACycle() {
        #expect(loadError(patched(Int32(6), at: at(.parent) + 4)) == SnapshotError(offset: at(.parent) + 4, reason: "slot 1 is entered at tour position \(enter(1)) inside slot 0, but its parent is 6"))
        #expect(loadError(patched(Int32(3), at: at(.parent))) == SnapshotError(offset: at(.parent), reason: "slot 0 begins a tree at tour position 0 (no node is open there), but its parent is 3, not -1"))
    }

    /// A tour of enters alone (slot 12, free, entered where slot 4 exits, and so on) would
    /// open more nodes than there are live ones: found before the stack of open nodes
    /// overflows, whatever else is wrong.
    @Test func moreNodesOpenThanLive() throws {
        // A tree of one node and two free slots: its tour is [0, ~0]; made [0, 1] with slot
        // 1's span and parent to match, both entered, both open.
        var tree = ViewTree()
        let type = TypeRegistry.shared.typeID(named: "CorruptionTestView")
        let root = tree.makeNode(tag: 0, type: type)
        tree.removeSubtree(tree.appendChild(tag: 0, type: type, to: root))
        tree.removeSubtree(tree.appendChild(tag: 0, type: type, to: root))
        let base = tree.snapshot()
        let layout = try #require(layoutOf(base))
        func at(_ s: Section) -> Int { Int(layout.sections[s.rawValue].lowerBound) }
        let rootType = base.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at(.typeID), as: Int32.self) }
        var copy = patching(base, Int32(1), at: at(.tourToken) + 4, reseal: false)
        copy = patching(copy, Int32(0), at: at(.tourTag) + 4, reseal: false)
        copy = patching(copy, rootType, at: at(.tourType) + 4, reseal: false)
        copy = patching(copy, rootType, at: at(.typeID) + 4, reseal: false)
        copy = patching(copy, UInt64(1), at: at(.span) + 8, reseal: false)
        copy = patching(copy, Int32(0), at: at(.parent) + 4)
        #expect(loadError(copy) == SnapshotError(offset: at(.tourToken) + 4, reason: "tour position 1 enters slot 1 with all 1 live nodes open"))
    }

    /// Slot 4's exit token made slot 1's, while slot 4 is open: a child run that does not close.
    @Test func childRunsThatDoNotClose() {
        let p = exit(4)
        #expect(loadError(patched(~Int32(1), at: at(.tourToken) + 4 * p)) == SnapshotError(offset: at(.tourToken) + 4 * p, reason: "tour position \(p) exits slot 1 where slot 4 is open (a child run that does not close)"))
    }

    @Test func copiesThatDisagreeWithTheColumns() {
        let p = enter(5)
        #expect(loadError(patched(Int32(99), at: at(.tourTag) + 4 * p)) == SnapshotError(offset: at(.tourTag) + 4 * p, reason: "tour position \(p) copies tag 99, slot 5 has 5"))
        let type = int32(at(.typeID) + 20)
        #expect(loadError(patched(type + 1, at: at(.tourType) + 4 * p))?.offset == at(.tourType) + 4 * p)
        let q = exit(5)
        #expect(loadError(patched(Int32(0), at: at(.tourTag) + 4 * q))?.reason == "tour position \(q) exits slot 5 with tag copy 0, not an exit's -2147483648")
        #expect(loadError(patched(Int32(0), at: at(.tourType) + 4 * q)) == SnapshotError(offset: at(.tourType) + 4 * q, reason: "tour position \(q) exits slot 5 with type copy 0, not an exit's -1"))
    }

    @Test func typesOutOfTheTable() {
        let types = Int(try! #require(layoutOf(bytes)).sections[Section.typeEntries.rawValue].count) / SnapshotLayout.typeEntrySize
        #expect(loadError(patched(Int32(types), at: at(.typeID) + 8)) == SnapshotError(offset: at(.typeID) + 8, reason: "slot 2 has type \(types), not in the type table of \(types)"))
        #expect(loadError(patched(Int32(-1), at: at(.typeID) + 8))?.offset == at(.typeID) + 8)
    }

    /// The type table lists every id up to the largest in use, the ones no node has marked
    /// as such (registered by name, no factory asked); a node of such a type is an error.
    @Test func aNodeOfATypeMarkedUnused() throws {
        // Types registered in this order: the middle one no node has.
        let first = TypeRegistry.shared.typeID(named: "UnusedTestFirst")
        let middle = TypeRegistry.shared.typeID(named: "UnusedTestMiddle")
        let last = TypeRegistry.shared.typeID(named: "UnusedTestLast")
        var tree = ViewTree()
        let root = tree.makeNode(tag: 0, type: first)
        let child = tree.appendChild(tag: 0, type: last, to: root)
        let base = tree.snapshot()
        let layout = try #require(layoutOf(base))
        func at(_ s: Section) -> Int { Int(layout.sections[s.rawValue].lowerBound) }
        func int32(_ offset: Int) -> Int32 { base.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) } }
        let kinds = (0 ... Int(last.rawValue)).map { int32(at(.typeEntries) + 8 * $0 + 4) }
        #expect(kinds[Int(middle.rawValue)] & 2 != 0 && kinds[Int(first.rawValue)] & 2 == 0 && kinds[Int(last.rawValue)] & 2 == 0)
        let slot = Int(child.index)
        var copy = patching(base, middle.rawValue, at: at(.typeID) + 4 * slot, reseal: false)
        copy = patching(copy, middle.rawValue, at: at(.tourType) + 4)
        #expect(loadError(copy) == SnapshotError(offset: at(.typeID) + 4 * slot, reason: "slot \(slot) has type \(middle.rawValue), which the type table marks as no node's"))
        #expect(loadError(patching(base, UInt32(4), at: at(.typeEntries) + 4))?.reason == "type 0 has kind 4: 0 (a name) or 1 (a class), plus 2 for an id no node has")
    }

    /// The free list (13, then 12) must take the two free slots and end.
    @Test func freeListDefects() {
        #expect(loadError(patched(Int64(5), at: Field.freeHead)) == SnapshotError(offset: Field.freeHead, reason: "free-list entry 0 is slot 5, which is live"))
        // Slot 12 linked back to 13: a cycle.
        let cycle = patched(_freeMark(next: 13), at: at(.parent) + 4 * 12)
        #expect(loadError(cycle) == SnapshotError(offset: at(.parent) + 48, reason: "the free list goes on past the 2 free slots (a cycle, or a live slot on it)"))
        // Slot 13 made the last: slot 12 is then on no list.
        #expect(loadError(patched(_freeMark(next: -1), at: at(.parent) + 4 * 13)) == SnapshotError(offset: at(.parent) + 52, reason: "the free list ends after 1 slots, 2 are free"))
        #expect(loadError(patched(Int32(1), at: at(.typeID) + 4 * 13)) == SnapshotError(offset: at(.typeID) + 52, reason: "free slot 13 has a type, tag or span"))
        #expect(loadError(patched(UInt64(3), at: at(.span) + 8 * 12))?.reason == "free slot 12 has a type, tag or span")
    }

    @Test func extrasAreCheckedAsInVersion1() {
        #expect(loadError(patched(Int64(7), at: at(.wideTags) + 8))?.reason == "wide tag 0 (slot 4, tag 7) is not a tag that needs the wide table")
        #expect(loadError(patched(UInt64(1), at: at(.frameOrigin) + 16 * 13))?.reason == "free slot 13 has geometry")
        let starts = at(.starts(.id))
        #expect(loadError(patched(UInt32(1000), at: starts + 4 * 5)) == SnapshotError(offset: starts + 20, reason: "id: slot 5's text starts at 1000, outside the 2 bytes"))
        // The largest start short of none (0xFFFFFFFF, slot 4's) is out of range; a start
        // of 0 on slot 4 gives it slot 5's text.
        #expect(loadError(patched(UInt32.max - 1, at: starts + 4 * 5))?.reason == "id: slot 5's text starts at \(UInt32.max - 1), outside the 2 bytes")
        #expect(UInt32(bitPattern: int32(starts + 4 * 4)) == UInt32.max)
        let shared = try? ViewTree(snapshot: patched(UInt32(0), at: starts + 4 * 4)).answering(idsOf: CorruptionTests.sample.tree)
        #expect(shared?.attribute(.id, of: CorruptionTests.sample.ids[4]) == "x" && shared?.attribute(.id, of: CorruptionTests.sample.ids[5]) == "x")
        // Version 3's 8-byte starts, the same check.
        let version3 = CorruptionTests.sample.tree._snapshot(version: 3)
        let starts3 = Int(layoutOf(version3)!.sections[Section.starts(.id).rawValue].lowerBound)
        #expect(snapshotLoadError(patching(version3, Int64(1000), at: starts3 + 8 * 5)) == SnapshotError(offset: starts3 + 40, reason: "id: slot 5's text starts at 1000, outside the 2 bytes"))
    }

    /// Type names are registered only from a snapshot whose checksum matches, though the
    /// structure is checked before the checksum is known: a damaged file adds no name.
    @Test func aDamagedFileRegistersNoTypeName() throws {
        let tag = UUID().uuidString.prefix(8)
        var tree = ViewTree()
        tree.makeNode(tag: 0, type: TypeRegistry.shared.typeID(named: "GateA\(tag)"))
        let base = tree.snapshot()
        let layout = try #require(layoutOf(base))
        let names = Int(layout.sections[Section.typeNames.rawValue].lowerBound)
        let length = Int(layout.sections[Section.typeNames.rawValue].count)
        let at = try #require((names ..< names + length - 4).first { Array(base[$0 ..< $0 + 5]) == Array("GateA".utf8) })
        var renamed = base
        renamed[at + 4] = UInt8(ascii: "B")
        #expect(loadError(renamed)?.reason.hasPrefix("checksum mismatch") == true)
        #expect(TypeRegistry.shared.typeIDs(named: "GateB\(tag)").isEmpty)
        resealed(&renamed)
        let loaded = try ViewTree(snapshot: renamed)
        #expect(TypeRegistry.shared.typeIDs(named: "GateB\(tag)") == [loaded.typeID(of: try #require(loaded.node(atSlot: 0)))])
    }

    /// A process whose type numbers are not the file's reads the type columns renumbered
    /// (copied), the rest in place; queries by type see this process's ids.
    @Test func typesRenumberedOnLoad() throws {
        let tree = CorruptionTests.sample.tree
        let ids = CorruptionTests.sample.ids
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("renumber-\(UUID().uuidString).rvtree").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        var renamed = try ViewTree._withSnapshotFile(path, mapped: true) { (raw, owner) throws(SnapshotError) in
            try ViewTree(snapshot: raw, path: path, owner: owner, oneRoot: false) { name, _, _ in
                TypeRegistry.shared.typeID(named: "Renumbered\(name)")
            }
        }
        renamed._shareIdentity(with: tree)  // asked with the sample's ids
        renamed._checkInvariants()
        #expect(renamed._borrowsMemory)
        let old = tree.typeID(of: ids[2])
        let new = renamed.typeID(of: ids[2])
        #expect(new != old && TypeRegistry.shared.name(of: new) == "Renumbered" + TypeRegistry.shared.name(of: old))
        #expect(renamed.group(.descendants, of: ids[0], byTypes: [new])[new] == tree.group(.descendants, of: ids[0], byTypes: [old])[old])
        #expect(renamed.first(.ancestors, of: ids[7], withTypes: [renamed.typeID(of: ids[2])]) == tree.first(.ancestors, of: ids[7], withTypes: [old]))
    }
}

/// The parent entry of a free slot whose successor on the free list is `next` (-1 for none),
/// as the core marks it.
func _freeMark(next: Int32) -> Int32 { -2 - 1 - next }

/// Version 6 stores the digest of each block of its checksum before the checksum, so that a
/// part of the file can be checked alone: each block is checked against its digest (a
/// damaged byte is named by its block, and the sections it holds), the digests against the
/// checksum.
@Suite struct BlockDigestTests {
    typealias Layout = SnapshotLayout

    static let tree = largeTree(nodes: 120_000, type: "DigestView", fanOut: 4, tags: 7, idEvery: 3, id: { "d\($0)" })
    static let bytes = tree.snapshot()

    /// Where the digests start (from the file's length).
    static var digestsStart: Int { Layout.digestsStart(fileSize: bytes.count)! }

    @Test func eachBlocksDigestIsStored() throws {
        let at = Self.digestsStart
        let blocks = Layout.checksumBlocks(at)
        #expect(blocks >= 3, "a file of several blocks")
        #expect(at + 8 * blocks + Layout.trailerSize == Self.bytes.count)
        Self.bytes.withUnsafeBytes { raw in
            let covered = UnsafeRawBufferPointer(rebasing: raw[..<at])
            let stored = (0 ..< blocks).map { raw.loadUnaligned(fromByteOffset: at + 8 * $0, as: UInt64.self) }
            #expect(stored == (0 ..< blocks).map { Layout.blockDigest(covered, index: $0) })
            // The checksum is the blocks' checksum of the bytes before the digests.
            #expect(raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self) == ViewTree.snapshotChecksum(covered, formatVersion: 6))
            #expect(Layout.combine(stored) == ViewTree.snapshotChecksum(covered, formatVersion: 6))
        }
        #expect(try ViewTree(snapshot: Self.bytes).snapshot() == Self.bytes)
    }

    /// The digests' place from the length alone, for every length a file can have around
    /// block boundaries; lengths no file has give none.
    @Test func theDigestsPlaceFromTheLength() {
        var starts = Array(stride(from: 0, through: 4096, by: 8))
        for k in 1 ... 3 { starts += Array(stride(from: k * Layout.checksumBlock - 64, through: k * Layout.checksumBlock + 64, by: 8)) }
        for start in starts {
            let size = start + 8 * Layout.checksumBlocks(start) + Layout.trailerSize
            #expect(Layout.digestsStart(fileSize: size) == start, "\(size) bytes")
        }
        // Just past a block: one more block's digest, so a length 8 bytes short of that fits none.
        let past = Layout.checksumBlock + 8
        #expect(Layout.digestsStart(fileSize: past + 8 * 2 + Layout.trailerSize - 8) == nil)
        #expect(Layout.digestsStart(fileSize: 7) == nil && Layout.digestsStart(fileSize: 8 + 4) == nil)
    }

    /// A damaged byte in a block, a damaged digest, a damaged checksum: each a checksum
    /// mismatch at the place that differs, the same from memory as from a file.
    @Test func eachDamageIsNamedWhereItIs() {
        let at = Self.digestsStart
        let inBlock2 = 2 * Layout.checksumBlock + 100
        var damaged = Self.bytes
        damaged[inBlock2] ^= 0x04
        let error = snapshotLoadError(damaged)
        #expect(error?.offset == 2 * Layout.checksumBlock)
        #expect(error?.reason.hasPrefix("checksum mismatch: block 2 (bytes \(2 * Layout.checksumBlock) to \(3 * Layout.checksumBlock), ") == true, "\(String(describing: error))")
        // A digest: its block no longer matches it.
        var digest = Self.bytes
        digest[at + 8 * 1 + 3] ^= 0x80
        #expect(snapshotLoadError(digest)?.offset == Layout.checksumBlock)
        // The checksum: the digests no longer give it.
        var sum = Self.bytes
        sum[sum.count - 1] ^= 0x01
        let sumError = snapshotLoadError(sum)
        #expect(sumError?.offset == at && sumError?.reason.hasPrefix("checksum mismatch: the snapshot says") == true, "\(String(describing: sumError))")
    }

    /// `sealSnapshot` writes the digests and the checksum as the writer does: a changed byte
    /// then reaches the structural checks, and an unchanged file is sealed as it was.
    @Test func sealingRepairsAsTheWriterWrites() {
        var copy = Self.bytes
        copy.withUnsafeMutableBytes { ViewTree.sealSnapshot($0) }
        #expect(copy == Self.bytes)
        // The checksum zeroed, sealed: as written.
        var hostile = Self.bytes
        for k in 0 ..< 8 { hostile[Self.bytes.count - 1 - k] = 0 }
        hostile.withUnsafeMutableBytes { ViewTree.sealSnapshot($0) }
        #expect(hostile == Self.bytes)
        // A column entry changed and sealed: the structure's error, not the checksum's.
        var patched = patching(Self.bytes, Int32(999_999), at: 2 * Layout.checksumBlock + 4, reseal: true)
        let error = snapshotLoadError(patched)
        #expect(error != nil && error?.reason.hasPrefix("checksum mismatch") == false, "\(String(describing: error))")
        patched.withUnsafeMutableBytes { ViewTree.sealSnapshot($0) }
        #expect(snapshotLoadError(patched) == error)
    }
}
