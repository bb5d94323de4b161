import CSnapshotKernels
import RelativeViewCore

/// The byte layout of a snapshot, versions 1 to 4 (see the module's documentation for the
/// tables).
///
/// Every field and column is little-endian; every section starts at a multiple of 8 from
/// the start of the file. The sections follow the header in a fixed order, each as long as
/// the header's counts say, and the file ends with an 8-byte checksum of everything before
/// it, so the counts alone give the file's length.
///
/// Version 1 stores the live nodes in pre-order (slot, parent's position, tag, type) and
/// the free list, from which a load builds the columns and the index. Version 2 stores the
/// columns and the index as a tree holds them in memory (``_ColumnImage``), so that a load
/// reads them in place and only checks them. Version 3 has version 2's layout and a
/// checksum in blocks (``blockChecksum(_:)``) that two threads compute apart. Version 4 is
/// version 3 with narrow attribute starts (4 bytes, ``noText`` for none, in place of 8):
/// Version 5 is version 4 with a tree's content after the attributes (``ContentCounts``):
/// each node's value (a text column as the attributes' are) and the named attributes (per
/// slot the first of its entries, per entry a name from the type table and a value). It is
/// Version 6 is version 5 with the digest of each of its checksum's blocks stored before
/// the checksum (``Section/digests``), so that a reader can check a part of the file
/// without reading the rest. It is what ``ViewTree/snapshot()`` writes, unless an
/// attribute's texts reach 2^32 - 1 bytes (then version 3, which a tree with content cannot
/// be written in).
enum SnapshotLayout {
    /// The first 8 bytes: a byte with the high bit set (caught by 7-bit transfers), "RVTREE",
    /// and a line feed (caught by text-mode newline translation).
    static let magic: [UInt8] = [0x89, 0x52, 0x56, 0x54, 0x52, 0x45, 0x45, 0x0A]
    /// The version written; all of `versions` are read.
    static let version: UInt32 = 6
    static let versions: ClosedRange<UInt32> = 1 ... 6
    /// Version 4: a narrow attribute start for a slot with no text. A column's texts are
    /// fewer bytes than this, so every other start may point into them.
    static let noText = UInt32.max

    /// The version ``ViewTree/snapshot()`` writes for a tree whose longest attribute texts
    /// (one attribute's, over all its nodes, lengths included) take `bytes`: ``version``, or
    /// 3 (8-byte starts) if its 4-byte starts could not point into them all.
    static func versionWritten(mostAttributeTextBytes bytes: Int) -> UInt32 {
        UInt64(bytes) < UInt64(noText) ? version : 3
    }

    /// Each version's attribute start size: 8 bytes (an `Int64`, -1 for none) up to version
    /// 3, 4 from version 4 (a `UInt32`, ``noText`` for none).
    static func attributeStartSize(_ version: UInt32) -> Int { version >= 4 ? 4 : 8 }
    /// Written little-endian: a reader that sees 0x0D0C0B0A has a big-endian file.
    static let byteOrderMark: UInt32 = 0x0A0B_0C0D
    /// Each version's header size.
    static func headerSize(_ version: UInt32) -> Int { version == 1 ? 144 : version < 5 ? 160 : 200 }
    /// The smaller header, the least any snapshot has.
    static let headerSize = 144
    static let trailerSize = 8

    /// Header field offsets.
    enum Field {
        static let magic = 0
        static let version = 8
        static let byteOrder = 12
        static let headerSize = 16
        static let flags = 20
        static let fileSize = 24
        static let slotCount = 32
        static let liveCount = 40
        /// The number of free slots: the slot count less the live count.
        static let freeCount = 48
        static let typeCount = 56
        static let typeNameBytes = 64
        static let wideTagCount = 72
        static let geometryCount = 80
        /// Three `UInt64`s: each attribute's entry count (slots with a start), in
        /// `NodeAttribute` order.
        static let attributeStarts = 88
        /// Three `UInt64`s: each attribute's text byte count.
        static let attributeBytes = 112
        static let reserved = 136
        /// Version 2: the generation column's length (at most the slot count: a slot past
        /// it has generation 0).
        static let generationCount = 144
        /// Version 2: the free list's first slot (`Int64`, -1 for none).
        static let freeHead = 152
        /// Version 5: the value column's starts (at most the slot count).
        static let valueStarts = 160
        /// Version 5: the value column's text bytes.
        static let valueBytes = 168
        /// Version 5: the named attributes' first-entry column (at most the slot count).
        static let namedFirst = 176
        /// Version 5: the named attributes' entries.
        static let namedEntries = 184
        /// Version 5: the named attributes' value bytes.
        static let namedValueBytes = 192
    }

    /// The known header flags (a set bit this reader does not know is an error): bit 0,
    /// ``htmlFlag``.
    static let knownFlags: UInt32 = htmlFlag
    /// An HTML parser read the document (``ViewTree/isHTMLDocument``): written only then, so
    /// that a snapshot of anything else reads as before, and an earlier reader refuses this
    /// one with an error rather than answer queries by XML's rules.
    static let htmlFlag: UInt32 = 1

    /// One type table entry: the end of its name in the names section (`UInt32`), and its
    /// kind (`UInt32`: 0 a bare name, 1 a class; in version 2, plus 2 for an id no node
    /// has, listed to keep the numbering: see ``unusedKind``).
    static let typeEntrySize = 8
    /// Version 2: the kind bit of a type table entry that no node has. Such an entry is
    /// registered by its name, as the others are, so that type numbers match the writer's;
    /// a loader asks no factory for it, and a node of that type is an error.
    static let unusedKind: UInt32 = 2
    /// One wide tag: the slot (`Int64`) and the tag (`Int64`).
    static let wideTagSize = 16
    /// One pre-order node: its slot, its parent's pre-order position (-1 for a root), its
    /// tag and its type-table index, each an `Int32`.
    static let nodeSize = 16

    /// The sections of both versions (``order(_:)`` gives each version's, in file order).
    enum Section: Int, CaseIterable, CustomStringConvertible {
        case generation, nodes, free
        case parent, typeID, narrowTag, span, tourToken, tourTag, tourType
        case wideTags, typeEntries, typeNames
        case frameOrigin, frameSize, boundsOrigin
        case keyStarts, keyBytes, idStarts, idBytes, classStarts, classBytes
        case valueStarts, valueBytes, namedFirst, namedNames, namedValueStarts, namedValueBytes
        /// Version 6: the digest (``blockDigest(_:index:vector:)``, 8 bytes) of each block of
        /// ``checksumBlock`` bytes of everything before this section, in order. The file's
        /// checksum is ``combine(_:)`` of them: the table is checked against the checksum,
        /// each block against its digest.
        case digests

        var description: String {
            switch self {
            case .generation: "generation column"
            case .nodes: "pre-order nodes"
            case .free: "free list"
            case .parent: "parent column"
            case .typeID: "type column"
            case .narrowTag: "tag column"
            case .span: "span column"
            case .tourToken: "tour tokens"
            case .tourTag: "tour tag copies"
            case .tourType: "tour type copies"
            case .wideTags: "wide tag table"
            case .typeEntries: "type table"
            case .typeNames: "type names"
            case .frameOrigin: "frame origin column"
            case .frameSize: "frame size column"
            case .boundsOrigin: "bounds origin column"
            case .keyStarts: "key attribute starts"
            case .keyBytes: "key attribute texts"
            case .idStarts: "id attribute starts"
            case .idBytes: "id attribute texts"
            case .classStarts: "class attribute starts"
            case .classBytes: "class attribute texts"
            case .valueStarts: "value starts"
            case .valueBytes: "value texts"
            case .namedFirst: "named attribute runs"
            case .namedNames: "named attribute names"
            case .namedValueStarts: "named attribute value starts"
            case .namedValueBytes: "named attribute value texts"
            case .digests: "block digests"
            }
        }

        /// The starts section of `attribute`.
        static func starts(_ attribute: NodeAttribute) -> Section {
            Section(rawValue: Section.keyStarts.rawValue + 2 * attribute.rawValue)!
        }

        /// The texts section of `attribute`.
        static func bytes(_ attribute: NodeAttribute) -> Section {
            Section(rawValue: Section.keyBytes.rawValue + 2 * attribute.rawValue)!
        }

        /// The sections of a snapshot of `version`, in file order.
        static func order(_ version: UInt32) -> [Section] {
            let structure: [Section] = version == 1
                ? [.generation, .nodes, .free]
                : [.generation, .parent, .typeID, .narrowTag, .span, .tourToken, .tourTag, .tourType]
            let content: [Section] = version >= 5
                ? [.valueStarts, .valueBytes, .namedFirst, .namedNames, .namedValueStarts, .namedValueBytes] : []
            return structure + [.wideTags, .typeEntries, .typeNames, .frameOrigin, .frameSize, .boundsOrigin,
                                .keyStarts, .keyBytes, .idStarts, .idBytes, .classStarts, .classBytes] + content
                + (version >= 6 ? [.digests] : [])
        }
    }

    /// The counts a header gives, from which every section's place follows.
    struct Counts: Equatable {
        var version: UInt32 = SnapshotLayout.version
        var slots: UInt64 = 0
        var live: UInt64 = 0
        var free: UInt64 = 0
        /// Version 2: the generation column's length (version 1 has one per slot).
        var generation: UInt64 = 0
        var types: UInt64 = 0
        var typeNameBytes: UInt64 = 0
        var wideTags: UInt64 = 0
        var geometry: UInt64 = 0
        var attributeStarts: [UInt64] = [0, 0, 0]
        var attributeBytes: [UInt64] = [0, 0, 0]
        /// Version 5: the content's counts.
        var content = ContentCounts()

        /// Version 2: the tour's slots, its 2 × live tokens in whole blocks of 64, or `nil`
        /// if that overflows.
        var tourSlots: UInt64? {
            guard live <= UInt64.max / 4 else { return nil }
            return (2 * live + 63) / 64 * 64
        }

        /// Each section's element count and element size, by ``Section``.
        func shape(_ section: Section) -> (count: UInt64, size: UInt64) {
            switch section {
            case .generation: (version == 1 ? slots : generation, 4)
            case .nodes: (live, UInt64(nodeSize))
            case .free: (free, 4)
            case .parent, .typeID, .narrowTag: (slots, 4)
            case .span: (slots, 8)
            case .tourToken, .tourTag, .tourType: (tourSlots ?? UInt64.max, 4)
            case .wideTags: (wideTags, UInt64(wideTagSize))
            case .typeEntries: (types, UInt64(typeEntrySize))
            case .typeNames: (typeNameBytes, 1)
            case .frameOrigin, .frameSize, .boundsOrigin: (geometry, 16)
            case .keyStarts, .idStarts, .classStarts:
                (attributeStarts[(section.rawValue - Section.keyStarts.rawValue) / 2], UInt64(attributeStartSize(version)))
            case .keyBytes, .idBytes, .classBytes: (attributeBytes[(section.rawValue - Section.keyBytes.rawValue) / 2], 1)
            case .valueStarts: (content.valueStarts, 4)
            case .valueBytes: (content.valueBytes, 1)
            case .namedFirst: (content.namedFirst, 4)
            case .namedNames, .namedValueStarts: (content.namedEntries, 4)
            case .namedValueBytes: (content.namedValueBytes, 1)
            // Its count follows from where it starts (see `layout()`).
            case .digests: (0, 8)
            }
        }

        /// Each section's byte range (by ``Section`` raw value; a section the version does
        /// not have is empty, at 0), and the file's length (header, sections, checksum), or
        /// `nil` if the counts overflow 64 bits.
        func layout() -> (sections: [Range<UInt64>], fileSize: UInt64)? {
            var at = UInt64(headerSize(version))
            var sections = [Range<UInt64>](repeating: 0 ..< 0, count: Section.allCases.count)
            for section in Section.order(version) {
                var (count, size) = shape(section)
                // The digests of the blocks of everything before them (counts that put them
                // past any length are refused below, as the overflow they are).
                if section == .digests {
                    let block = UInt64(checksumBlock)
                    guard at <= UInt64.max - block else { return nil }
                    count = (at + block - 1) / block
                }
                let (bytes, o1) = count.multipliedReportingOverflow(by: size)
                let (end, o2) = at.addingReportingOverflow(bytes)
                guard !o1 && !o2, end <= UInt64.max - 16 else { return nil }
                sections[section.rawValue] = at ..< end
                at = (end + 7) & ~7
            }
            return (sections, at + UInt64(trailerSize))
        }
    }

    /// Version 5's content counts: the value column's starts (4 bytes each, ``noText``
    /// for none) and text bytes; the named attributes' first-entry column (an `Int32` per
    /// slot, -1 for none), their entries (a name, `UInt32`: a type table index with bit 31
    /// set on a node's last entry; and a value start, `UInt32`, into the value bytes) and
    /// their value bytes. A node's entries follow each other; the nodes' runs follow each
    /// other in slot order from entry 0.
    struct ContentCounts: Equatable {
        var valueStarts: UInt64 = 0
        var valueBytes: UInt64 = 0
        var namedFirst: UInt64 = 0
        var namedEntries: UInt64 = 0
        var namedValueBytes: UInt64 = 0
    }

    // MARK: The checksum

    /// Where a version 6 snapshot of `fileSize` bytes has its digests (``Section/digests``):
    /// the `start` such that `start` bytes, then one 8-byte digest per block of them, then
    /// the checksum, make `fileSize`; `nil` if none does. (A reader knows it from the
    /// counts; this is for a tool that has only the length.)
    static func digestsStart(fileSize: Int) -> Int? {
        let rest = fileSize - trailerSize
        guard rest >= 0, rest % 8 == 0 else { return nil }
        // start + 8 × blocks(start) grows with start: at most one start fits, within a
        // block of this guess.
        let guess = rest / (checksumBlock + 8) * checksumBlock
        for start in stride(from: max(0, guess - checksumBlock), through: rest, by: 8) {
            let total = start + 8 * checksumBlocks(start)
            if total == rest { return start }
            if total > rest { break }
        }
        return nil
    }

    /// Writes the checksum `raw` (a whole snapshot but its checksum) ends with, and in
    /// version 6 its digests first, from its other bytes: as its writer does.
    /// `digestsStart` is where version 6's digests lie (ignored before version 6).
    static func seal(_ raw: UnsafeMutableRawBufferPointer, version: UInt32, digestsStart: Int) {
        let body = raw.count - trailerSize
        let sum: UInt64
        if version >= 6 {
            let covered = UnsafeRawBufferPointer(rebasing: raw[..<digestsStart])
            let digests = (0 ..< checksumBlocks(digestsStart)).map { blockDigest(covered, index: $0) }
            for (k, d) in digests.enumerated() { raw.storeBytes(of: d.littleEndian, toByteOffset: digestsStart + 8 * k, as: UInt64.self) }
            sum = combine(digests)
        } else {
            sum = checksum(UnsafeRawBufferPointer(rebasing: raw[..<body]), version: version)
        }
        raw.storeBytes(of: sum.littleEndian, toByteOffset: body, as: UInt64.self)
    }

    /// The checksum a snapshot of `version` ends with, of `bytes`: ``checksum(_:)`` for
    /// versions 1 and 2, ``blockChecksum(_:)`` from version 3 (version 4's and 5's are
    /// version 3's). `bytes` are all of the snapshot but those 8 bytes up to version 5, and
    /// in version 6 those before its digests (``Section/digests``), whose blocks' digests
    /// the checksum combines.
    static func checksum(_ bytes: UnsafeRawBufferPointer, version: UInt32) -> UInt64 {
        version < 3 ? checksum(bytes) : blockChecksum(bytes)
    }

    /// One step of a lane: `rotl((lane ^ word) * P, 29)` with P odd, a bijection of the
    /// lane for a fixed word and injective in the word for a fixed lane.
    @inline(__always)
    static func step(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let m = (lane ^ word) &* 0x9E37_79B9_7F4A_7C15
        return m << 29 | m >> 35
    }

    /// The last mix of a checksum (a bijection).
    @inline(__always)
    static func finish(_ h: UInt64) -> UInt64 {
        var h = h
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        return h
    }

    /// Versions 1 and 2's checksum of `bytes`: four lanes over 8-byte little-endian words,
    /// each word through ``step(_:_:)``. Since every step is a bijection of the lane for a
    /// fixed word and injective in the word for a fixed lane, and the lanes are combined the
    /// same way, two inputs of one length that differ within a single word (any one flipped
    /// bit, say) always get different checksums; other corruptions collide with odds of
    /// about 2^-64. Each lane waits on its multiply, so it reads about 6 bytes per cycle,
    /// on one thread.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var (a, b, c, d): (UInt64, UInt64, UInt64, UInt64) = (0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89)
        let n = bytes.count
        var i = 0
        if let base = bytes.baseAddress {
            while i + 32 <= n {
                a = step(a, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                b = step(b, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)))
                c = step(c, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)))
                d = step(d, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)))
                i += 32
            }
            if i < n {
                // The last bytes, zero-padded to a chunk (the length, mixed in below, tells
                // them from real zeros).
                var tail: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
                withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[i...])) }
                a = step(a, UInt64(littleEndian: tail.0))
                b = step(b, UInt64(littleEndian: tail.1))
                c = step(c, UInt64(littleEndian: tail.2))
                d = step(d, UInt64(littleEndian: tail.3))
            }
        }
        return finish(step(step(step(step(UInt64(n), a), b), c), d))
    }

    /// Version 3's checksum blocks: the bytes are cut into blocks of this many (the last
    /// may be shorter), each digested on its own, so that two threads share the work.
    static let checksumBlock = 1 << 20

    /// The number of checksum blocks of `count` bytes.
    static func checksumBlocks(_ count: Int) -> Int { (count + checksumBlock - 1) / checksumBlock }

    /// Version 3's checksum of `bytes`: ``blockDigest(_:index:)`` of each block of
    /// ``checksumBlock`` bytes, combined by ``combine(_:)``.
    static func blockChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        combine((0 ..< checksumBlocks(bytes.count)).map { blockDigest(bytes, index: $0) })
    }

    /// The digest of block `index` of `bytes` (its bytes from `index` × ``checksumBlock``,
    /// up to ``checksumBlock`` of them): eight lanes over its 8-byte little-endian words,
    /// word k to lane k mod 8, each step `lane = rotl(lane + word, 29)` (a bijection of the
    /// lane for a fixed word, injective in the word for a fixed lane: an add and a rotate,
    /// no multiply, so about 12 bytes a cycle); then the block's index, its length and the
    /// lanes through ``step(_:_:)``, and ``finish(_:)``. Two blocks of one length and index
    /// that differ within one word get different digests. Without `vector`, the lanes go
    /// one word at a time even where the processor has AVX2.
    static func blockDigest(_ bytes: UnsafeRawBufferPointer, index: Int, vector: Bool = true) -> UInt64 {
        @inline(__always) func add(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let s = lane &+ word
            return s << 29 | s >> 35
        }
        let from = index * checksumBlock
        let n = min(checksumBlock, bytes.count - from)
        var lanes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89,
            0x4528_21E6_38D0_1377, 0xBE54_66CF_34E9_0C6C, 0xC0AC_29B7_C97C_50DD, 0x3F84_D5B5_B547_0917)
        if n > 0, let start = bytes.baseAddress {
            let base = start + from
            @inline(__always) func word(_ at: Int) -> UInt64 {
                UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            }
            var i = 0
            #if _endian(little)
            // The whole chunks in C (CSnapshotKernels: AVX2 where the processor has it).
            withUnsafeMutableBytes(of: &lanes) { l in
                rv_checksum_lanes(base.assumingMemoryBound(to: UInt8.self), n / 64, l.baseAddress!.assumingMemoryBound(to: UInt64.self), vector ? 1 : 0)
            }
            i = n / 64 * 64
            #endif
            while i + 64 <= n {
                lanes.0 = add(lanes.0, word(i))
                lanes.1 = add(lanes.1, word(i + 8))
                lanes.2 = add(lanes.2, word(i + 16))
                lanes.3 = add(lanes.3, word(i + 24))
                lanes.4 = add(lanes.4, word(i + 32))
                lanes.5 = add(lanes.5, word(i + 40))
                lanes.6 = add(lanes.6, word(i + 48))
                lanes.7 = add(lanes.7, word(i + 56))
                i += 64
            }
            if i < n {
                // The last bytes, zero-padded to 64 (the length, mixed in below, tells them
                // from real zeros).
                var tail: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base + i, count: n - i)) }
                lanes.0 = add(lanes.0, UInt64(littleEndian: tail.0))
                lanes.1 = add(lanes.1, UInt64(littleEndian: tail.1))
                lanes.2 = add(lanes.2, UInt64(littleEndian: tail.2))
                lanes.3 = add(lanes.3, UInt64(littleEndian: tail.3))
                lanes.4 = add(lanes.4, UInt64(littleEndian: tail.4))
                lanes.5 = add(lanes.5, UInt64(littleEndian: tail.5))
                lanes.6 = add(lanes.6, UInt64(littleEndian: tail.6))
                lanes.7 = add(lanes.7, UInt64(littleEndian: tail.7))
            }
        }
        var h = step(step(0x9216_D5D9_8979_FB1B, UInt64(index)), UInt64(n))
        h = step(step(step(step(h, lanes.0), lanes.1), lanes.2), lanes.3)
        h = step(step(step(step(h, lanes.4), lanes.5), lanes.6), lanes.7)
        return finish(h)
    }

    /// Version 3's checksum from its blocks' digests, in order: the count, then each digest
    /// through ``step(_:_:)``, and ``finish(_:)``. A change within one word changes one
    /// block's digest, and so the checksum: as in versions 1 and 2, two inputs of one length
    /// that differ within a single word always get different checksums.
    static func combine(_ digests: [UInt64]) -> UInt64 {
        var h = step(0xD1B5_4A32_D192_ED03, UInt64(digests.count))
        for d in digests { h = step(h, d) }
        return finish(h)
    }
}
