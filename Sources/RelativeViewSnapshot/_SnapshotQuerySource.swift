import CColumnMemory
import CSnapshotKernels
import RelativeViewCore
import RelativeViewEngine

/// A version 6 snapshot, mapped, of which a query checks only the sections it reads.
///
/// A load (``ViewTree/init(contentsOfSnapshot:mapped:)``) checks the whole file before it
/// hands a tree back: on XMark's 302 MB snapshot most of a cold query's time went to the
/// checksum, the tour's check and the texts' check, where the query reads the type column
/// and a few thousand attributes. This reads the header, checks the block digests against
/// the checksum and the type table's blocks, and then, on a query's demand, each group of
/// sections it reads, once: their blocks against their digests (version 6 stores one per
/// MiB), and what a query relies on in them:
///
/// - ``checkStructure()``: the type, parent and span columns. Each type is in the table
///   and used; each node's subtree, as its span gives it (`end`), lies within its parent's;
///   a node's first child is the node after it, and the node after each child's subtree is
///   the next child (or, after a root's, the next root). These local checks make the slots
///   the document order and the spans and parents a forest (the children of a node tile its
///   subtree, by induction on its size), which is what a query reads of them. The tour, its
///   tag and type copies, the tags and the geometry are not read and not checked.
/// - ``checkAttributes(onRead:)``: the named attributes' runs, as a load checks them, or
///   each run as a query reads it (`_RunsOnRead`).
/// - ``checkValues()``: the values' starts and texts, as a load checks them.
///
/// It reads only a file of every slot live and no free slot, no generation column and no
/// `NodeAttribute` column (an import's snapshot); ``open(_:)`` gives `nil` for any other,
/// and a check that fails says `false`:
/// a caller then loads the file whole, which either reads it (a tree saved after moves
/// fails the structure's check here and loads there) or names the flaw.
package final class _SnapshotQuerySource {
    typealias Section = SnapshotLayout.Section

    let reader: SnapshotReader
    /// What keeps the file mapped.
    let owner: AnyObject
    let counts: SnapshotLayout.Counts
    let ranges: [Range<UInt64>]
    /// Where the block digests lie: the blocks cover the bytes before them.
    let digestsAt: Int
    /// Per type-table entry, whether a node may have it (not an id listed only for its number).
    let usable: [Bool]
    /// Per type-table entry, this process's id for it, where this process numbers the types
    /// otherwise than the writer did (then the type column and the names are read renumbered).
    let renumbered: [Int32]?
    /// The type column renumbered (see ``renumbered``), once checked.
    private var types: [Int32] = []
    /// Whether the type table names an attribute `xmlns` or `xmlns:…`: the document may
    /// declare namespaces, which XPath's and CSS's name tests read from the attributes.
    package let declaresNamespaces: Bool
    /// Whether an HTML parser read the document.
    package let isHTML: Bool
    private var checkedBlocks: [Bool]
    private var structureChecked = false
    private var valuesChecked = false
    /// Once the structure is checked (with a type table of at most ``countedTypes``
    /// entries): per type id of this process (below the registry's count when checked),
    /// how many nodes have it, in all and in the first half of the slots (the first
    /// `count / 2` of a document of at least 2^20 nodes, else all), as a query's index
    /// counts them: the structure's check reads every type, and counts them on the way.
    package private(set) var typeCounts: (total: [Int32], firstHalf: [Int32])?
    /// The largest type table whose types the structure's check counts (each of its pieces
    /// keeps a count per entry).
    static let countedTypes = 1 << 14
    /// Whether the named attributes were checked (or are, as they are read: ``runsOnRead``).
    private var attributesChecked = false
    /// Where the named attributes are checked run by run as a query reads them.
    private var runsOnRead: _RunsOnRead?
    /// Whether a run a query read failed its check (``checkAttributes(onRead:)``): the
    /// query's answer is not the file's: a whole load answers instead, or names the flaw.
    package var attributesFlawed: Bool { runsOnRead?.flawed ?? false }
    /// The named attributes' names in this process's numbers, where they differ from the
    /// file's (see ``renumbered``), once checked.
    private var renumberedNames: [UInt32]?

    /// The number of nodes (every slot is one, in document order).
    package var count: Int { Int(counts.live) }

    private init(
        reader: SnapshotReader, owner: AnyObject, counts: SnapshotLayout.Counts, ranges: [Range<UInt64>], digestsAt: Int,
        usable: [Bool], renumbered: [Int32]?, declaresNamespaces: Bool, isHTML: Bool, checkedBlocks: [Bool]
    ) {
        (self.reader, self.owner, self.counts, self.ranges, self.digestsAt) = (reader, owner, counts, ranges, digestsAt)
        self.renumbered = renumbered
        (self.usable, self.declaresNamespaces, self.isHTML, self.checkedBlocks) = (usable, declaresNamespaces, isHTML, checkedBlocks)
    }

    /// The snapshot at `path` mapped, its header, block digests and type table checked (and
    /// the type names registered); `nil` if it cannot be read so (see the type's
    /// documentation) or any of that fails.
    package static func open(_ path: String) -> _SnapshotQuerySource? {
        #if _endian(little)
        guard MemoryLayout<Int>.size == 8,
              let (bytes, owner) = try? ViewTree._withSnapshotFile(path, mapped: true, { (b, o) throws(SnapshotError) in (b, o) }),
              let owner, let base = bytes.baseAddress, Int(bitPattern: base) % 8 == 0 else { return nil }
        let reader = SnapshotReader(bytes: bytes, path: path, owner: owner)
        guard let (version, flags, counts, ranges) = try? reader.readHeader(), version >= 6,
              counts.free == 0, counts.live == counts.slots, counts.generation == 0, counts.attributeStarts.allSatisfy({ $0 == 0 })
        else { return nil }
        let digestsAt = Int(ranges[Section.digests.rawValue].lowerBound)
        let blocks = SnapshotLayout.checksumBlocks(digestsAt)
        // The digests against the checksum.
        let stored: UInt64 = reader.load(bytes.count - SnapshotLayout.trailerSize)
        guard SnapshotLayout.combine((0 ..< blocks).map { reader.load(digestsAt + 8 * $0) }) == stored else { return nil }
        // The type table's blocks against their digests, before it is read.
        var checkedBlocks = [Bool](repeating: false, count: blocks)
        let address = UInt(bitPattern: base)
        for section in [Section.typeEntries, .typeNames] {
            for k in Self.blockIndices(of: ranges[section.rawValue]) where !checkedBlocks[k] {
                guard blockHolds(k, address: address, digestsAt: digestsAt) else { return nil }
                checkedBlocks[k] = true
            }
        }
        func at(_ s: Section) -> Int { Int(ranges[s.rawValue].lowerBound) }
        guard let types = try? reader.typeTable(counts: counts, at: at),
              let ids = try? reader.processTypes(types, typeFor: { name, isClass, _ in TypeRegistry.shared.idForLoading(name: name, isClass: isClass) })
        else { return nil }
        return _SnapshotQuerySource(
            reader: reader, owner: owner, counts: counts, ranges: ranges, digestsAt: digestsAt, usable: types.map { !$0.unused },
            renumbered: ids.indices.allSatisfy { ids[$0] == Int32($0) } ? nil : ids, declaresNamespaces: types.contains { $0.name == "xmlns" || $0.name.hasPrefix("xmlns:") },
            isHTML: flags & SnapshotLayout.htmlFlag != 0, checkedBlocks: checkedBlocks)
        #else
        return nil
        #endif
    }

    private func at(_ s: Section) -> Int { Int(ranges[s.rawValue].lowerBound) }

    /// Checks the blocks that hold `sections` against their digests (those not checked
    /// before), on two threads where there are several.
    private func checkBlocks(of sections: [Section]) -> Bool {
        var wanted = Set<Int>()
        for s in sections {
            for k in Self.blockIndices(of: ranges[s.rawValue]) where !checkedBlocks[k] { wanted.insert(k) }
        }
        guard !wanted.isEmpty else { return true }
        let list = wanted.sorted()
        let (address, digestsAt) = (UInt(bitPattern: reader.bytes.baseAddress), digestsAt)
        let share = _WorkShare<Bool>()
        share.post(pieces: list.count) { i in Self.blockHolds(list[i], address: address, digestsAt: digestsAt) }
        let side = _SideTask(worthIt: list.count > 1) { share.help() }
        let matched = share.finish().allSatisfy { $0 }
        side.wait()
        if matched { for k in list { checkedBlocks[k] = true } }
        return matched
    }

    /// The checksum blocks that the bytes `r` lie in (none for an empty section).
    static func blockIndices(of r: Range<UInt64>) -> Range<Int> {
        let block = SnapshotLayout.checksumBlock
        guard !r.isEmpty else { return 0 ..< 0 }
        return Int(r.lowerBound) / block ..< (Int(r.upperBound) - 1) / block + 1
    }

    /// Whether block `k` of the file mapped at `address` (whose digests lie at `digestsAt`,
    /// after the blocks) gives the digest stored for it.
    static func blockHolds(_ k: Int, address: UInt, digestsAt: Int) -> Bool {
        let covered = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: digestsAt)
        let stated = UInt64(littleEndian: covered.baseAddress!.loadUnaligned(fromByteOffset: digestsAt + 8 * k, as: UInt64.self))
        return SnapshotLayout.blockDigest(covered, index: k) == stated
    }

    /// The blocks not checked yet that hold `columns` (each a section with an entry of
    /// `width` bytes per slot), each given to the piece of `pieces` (ranges of slots) that
    /// holds the first slot it holds of a column, so that the piece checks the block just
    /// before it reads the slots in it; and those that hold `others`, dealt to the pieces
    /// in turn.
    private func blocks(of columns: [(Section, width: Int)], others: [Section] = [], pieces: [Range<Int>]) -> (byPiece: [[Int]], all: Set<Int>) {
        let block = SnapshotLayout.checksumBlock
        var byPiece = [[Int]](repeating: [], count: pieces.count)
        var all = Set<Int>()
        guard let last = pieces.last?.upperBound, last > 0 else { return (byPiece, all) }
        for (section, width) in columns {
            let lower = Int(ranges[section.rawValue].lowerBound)
            for k in Self.blockIndices(of: ranges[section.rawValue]) where !checkedBlocks[k] && all.insert(k).inserted {
                let slot = min(last - 1, (max(k * block, lower) - lower) / width)
                byPiece[pieces.firstIndex { $0.contains(slot) } ?? pieces.count - 1].append(k)
            }
        }
        var turn = 0
        for section in others {
            for k in Self.blockIndices(of: ranges[section.rawValue]) where !checkedBlocks[k] && all.insert(k).inserted {
                byPiece[turn % pieces.count].append(k)
                turn += 1
            }
        }
        return (byPiece, all)
    }

    /// Once the structure is checked: per type id of `collecting` (this process's ids)
    /// that some node has, every node of it, in document order.
    package private(set) var collected: [Int32: [Int32]] = [:]

    /// Checks the type, parent and span columns (see the type's documentation); `false` if
    /// a check fails.
    ///
    /// `collecting`: types (this process's ids) whose nodes a query will likely read
    /// through their postings (its names): each piece, once checked and its types counted,
    /// collects their nodes from its slots while they are in the cache (``collected``),
    /// where the query's index would read the whole type column again for each (about a
    /// millisecond each on XMark's 4.7 M nodes). Only with type counts.
    package func checkStructure(collecting: [Int32] = []) -> Bool {
        if structureChecked { return true }
        let n = count
        // (A snapshot of no node is no tree: a whole load names that.)
        guard n > 0 else { return false }
        let base = UInt(bitPattern: reader.bytes.baseAddress)
        let (types, parents, spans) = (base + UInt(at(.typeID)), base + UInt(at(.parent)), base + UInt(at(.span)))
        // In C (CSnapshotKernels' StructureCheck.c, the same rule as `structureHolds`): per
        // type its usability, and 0 last for every number out of the table.
        let table = usable.map { Int32($0 ? 1 : 0) } + [0]
        // The pieces split at the half the index's type counts keep apart (see
        // ``typeCounts``); each counts its types where the table is small.
        let half = n >= 1 << 20 ? n / 2 : n
        let piece = 1 << 18
        var pieces: [Range<Int>] = []
        for part in [0 ..< half, half ..< n] {
            var from = part.lowerBound
            while from < part.upperBound {
                pieces.append(from ..< min(part.upperBound, from + piece))
                from += piece
            }
        }
        let counting = usable.count <= Self.countedTypes
        // Each wanted type in this process's numbers and in the file's (the kernels read
        // the file's); a type the file does not have is not wanted.
        let wanted: [(id: Int32, inFile: Int32)] = counting ? collecting.compactMap { t in
            guard let renumbered else { return t >= 0 && Int(t) < usable.count ? (t, t) : nil }
            return renumbered.firstIndex(of: t).map { (t, Int32($0)) }
        } : []
        // Each block of the three columns is checked against its digest by the piece that
        // holds the first slot the block holds of a column, just before that piece's
        // structure check reads it: the columns are read from memory once, not twice.
        let (blocks, assigned) = blocks(of: [(.typeID, 4), (.parent, 4), (.span, 8)], pieces: pieces)
        let (address, digestsAt) = (base, self.digestsAt)
        let share = _WorkShare<(ok: Bool, counts: [UInt32], collected: [[Int32]])>()
        share.post(pieces: pieces.count) { [pieces, blocks] k in
            for b in blocks[k] where !Self.blockHolds(b, address: address, digestsAt: digestsAt) { return (false, [], []) }
            var counts = [UInt32](repeating: 0, count: counting ? table.count : 0)
            let piece = pieces[k]
            let ok = counts.withUnsafeMutableBufferPointer { counts in
                Self.structureHoldsInC(
                    piece, count: n, type: UnsafePointer(bitPattern: types)!, usable: table,
                    parent: UnsafePointer(bitPattern: parents)!, span: UnsafePointer(bitPattern: spans)!, counts: counting ? counts.baseAddress : nil)
            }
            guard ok else { return (false, [], []) }
            // The wanted types' nodes among the piece's slots, as many as counted.
            let collected = wanted.map { (_, t) -> [Int32] in
                let c = Int(counts[Int(t)])
                guard c > 0 else { return [] }
                return [Int32](unsafeUninitializedCapacity: c) { out, initialized in
                    let found = rv_collect_type(UnsafePointer(bitPattern: types)! + piece.lowerBound, piece.count, t, Int32(piece.lowerBound), out.baseAddress, c)
                    precondition(found == c, "a type's nodes in a piece are not as many as counted")
                    initialized = c
                }
            }
            return (ok, counts, collected)
        }
        let side = _SideTask(worthIt: n >= 2 * piece) { share.help() }
        let results = share.finish()
        side.wait()
        structureChecked = results.allSatisfy(\.ok)
        if structureChecked { for k in assigned { checkedBlocks[k] = true } }
        if structureChecked && counting {
            // In this process's numbers.
            let bound = TypeRegistry.shared.count
            var total = [Int32](repeating: 0, count: bound), firstHalf = total
            for (k, result) in results.enumerated() {
                for (t, c) in result.counts.dropLast().enumerated() where c > 0 {
                    let id = renumbered.map { Int($0[t]) } ?? t
                    guard id < bound else { continue }
                    total[id] &+= Int32(c)
                    if pieces[k].upperBound <= half { firstHalf[id] &+= Int32(c) }
                }
            }
            typeCounts = (total, firstHalf)
            for (w, (t, _)) in wanted.enumerated() where Int(t) < total.count && total[Int(t)] > 0 {
                var all: [Int32] = []
                all.reserveCapacity(Int(total[Int(t)]))
                for result in results { all += result.collected[w] }
                collected[t] = all
            }
        }
        // Checked in the file's numbers (each in the table), read in this process's.
        if structureChecked, let renumbered {
            let column = UnsafePointer<Int32>(bitPattern: types)!
            self.types = (0 ..< n).map { renumbered[Int(column[$0])] }
        }
        return structureChecked
    }

    /// ``structureHolds(_:count:type:usable:parent:span:)`` in C (CSnapshotKernels'
    /// StructureCheck.c), eight slots at a time with AVX2 where the processor has it and
    /// `vector` is 1 or more, sixteen with AVX-512 where it has that and `vector` is 2 (the
    /// parent's span and the next child's parent gathered): on XMark's 4.7 M slots 7 to 11
    /// ms on two threads with AVX2, where one slot at a time took 25 to 30 (a node's
    /// conditions are some 80 instructions). `vector` 0: one slot at a time. `usable`: per
    /// type 1 or 0, then 0 for every number out of the table.
    static func structureHoldsInC(
        _ range: Range<Int>, count n: Int, type: UnsafePointer<Int32>, usable: [Int32],
        parent: UnsafePointer<Int32>, span: UnsafePointer<_TourBlocks.Span>, vector: Int32 = 2, counts: UnsafeMutablePointer<UInt32>? = nil
    ) -> Bool {
        usable.withUnsafeBufferPointer { usable in
            var columns = rv_structure_columns(
                parent: parent, span: UnsafeRawPointer(span).assumingMemoryBound(to: UInt64.self), type_id: type,
                type_usable: usable.baseAddress, type_count: UInt32(usable.count - 1), slot_count: UInt32(n))
            return rv_structure_check(&columns, range.lowerBound, range.upperBound, vector, counts) != 0
        }
    }

    /// Whether slots `range` of `count` hold types of the table that a node may have, and
    /// spans and parents of a forest in document order: each subtree (from the slot to
    /// `end`, from its span) within its parent's, a node's first child the slot after it,
    /// the slot after a child's subtree its parent's next child or its parent's end, and the
    /// slot after a root's subtree the next root. (See the type's documentation.)
    /// One slot at a time, as the C kernel has it (a test checks that the three agree).
    static func structureHolds(
        _ range: Range<Int>, count n: Int, type: UnsafePointer<Int32>, usable: UnsafeBufferPointer<Bool>,
        parent: UnsafePointer<Int32>, span: UnsafePointer<_TourBlocks.Span>
    ) -> Bool {
        guard n > 0 else { return true }
        // Each condition is a flag and-ed in, every read at an index kept within the slots,
        // so that the loop has no branch on the data but the rare root: whether a node has
        // children, and whether a child is its parent's last, are coin tosses to a predictor.
        @inline(__always) func flag(_ b: Bool) -> UInt8 { b ? 1 : 0 }
        @inline(__always) func end(_ x: Int) -> Int { x &+ Int(truncatingIfNeeded: (Int64(span[x].exit) &- Int64(span[x].enter) &+ 1) >> 1) }
        let last = n - 1
        // An index within the slots (a hostile span may put `end` anywhere, below 0 too).
        @inline(__always) func within(_ i: Int) -> Int { i < 0 ? 0 : i > last ? last : i }
        let types = UInt32(usable.count)
        var ok: UInt8 = 1
        for x in range {
            let t = UInt32(bitPattern: type[x])
            ok &= flag(t < types) & flag(usable[Int(min(t, types &- 1))])
            let s = span[x]
            let d = Int64(s.exit) &- Int64(s.enter)
            let e = x &+ Int(truncatingIfNeeded: (d &+ 1) >> 1)
            ok &= flag(d > 0) & flag(d & 1 == 1) & flag(e <= n)
            let p = Int(parent[x])
            if p < 0 {
                // A root: the slot after its subtree is the next root.
                ok &= flag(p == -1) & flag(e >= n || parent[within(e)] == -1)
            } else {
                ok &= flag(p < x)
                let q = min(p, x)
                let pe = end(q)
                ok &= flag(x < pe) & flag(e <= pe)
                // The slot after a child's subtree is its parent's next child, unless it is the
                // parent's end (then the slot's own parent is read, which is `p`).
                let next = e < pe ? within(e) : x
                ok &= flag(Int(parent[next]) == p)
            }
            // A node with children: the first is the slot after it.
            let hasChild = e > x &+ 1
            let first = hasChild ? within(x &+ 1) : x
            ok &= flag(parent[first] == (hasChild ? Int32(truncatingIfNeeded: x) : parent[x]))
        }
        return ok == 1
    }

    /// Checks the named attributes' runs as a load does; `false` if a check fails.
    ///
    /// In C (CSnapshotKernels' RunsCheck.c), in pieces on two threads, the columns read
    /// where they lie: eight slots without a run skipped at a time (most slots have none),
    /// where the same check in Swift, with the names and value starts copied out and
    /// widened, took 12 to 20 ms of a cold `//person[@id='person100']` on XMark. A piece
    /// the kernel does not pass (a value whose length takes more than two bytes, or a flaw)
    /// is checked again as a load checks it, which reads any length.
    ///
    /// `onRead`: check none now, but each run as a query reads it (`_RunsOnRead`: a cold
    /// query reads a few runs of millions), and say ``attributesFlawed`` after the query if
    /// one failed. Where the file numbers its types otherwise than this process, the names
    /// are read renumbered, every one (a name out of the table as 0: the run that holds it
    /// fails its check when read, and is not read).
    package func checkAttributes(onRead: Bool = false) -> Bool {
        if attributesChecked { return true }
        let c = counts.content
        if onRead {
            renumberNames()
            runsOnRead = _RunsOnRead(
                owner: owner, address: UInt(bitPattern: reader.bytes.baseAddress), digestsAt: digestsAt, at: at,
                entries: Int(c.namedEntries), byteCount: Int(c.namedValueBytes), typeCount: Int(counts.types), checked: checkedBlocks)
            attributesChecked = true
            return true
        }
        let base = UInt(bitPattern: reader.bytes.baseAddress)
        let (firstAt, namesAt, valuesAt, bytesAt) = (base + UInt(at(.namedFirst)), base + UInt(at(.namedNames)), base + UInt(at(.namedValueStarts)), base + UInt(at(.namedValueBytes)))
        let (entries, byteCount, typeCount, slots) = (Int(c.namedEntries), Int(c.namedValueBytes), Int(counts.types), Int(c.namedFirst))
        let piece = 1 << 18
        let pieces = stride(from: 0, to: slots, by: piece).map { $0 ..< min(slots, $0 + piece) }
        // The first entries' blocks checked against their digests by the piece that reads
        // them, just before (see ``checkStructure()``); the entries' and the texts', dealt to
        // the pieces in turn.
        let (blocks, assigned) = blocks(of: [(.namedFirst, 4)], others: [.namedNames, .namedValueStarts, .namedValueBytes], pieces: pieces)
        if pieces.isEmpty { guard checkBlocks(of: [.namedFirst, .namedNames, .namedValueStarts, .namedValueBytes]) else { return false } }
        let (address, digestsAt) = (base, self.digestsAt)
        let share = _WorkShare<(ok: Bool, piece: rv_runs_piece)>()
        share.post(pieces: pieces.count) { [blocks] k in
            for b in blocks[k] where !Self.blockHolds(b, address: address, digestsAt: digestsAt) { return (false, rv_runs_piece()) }
            var columns = rv_runs_columns(
                first: UnsafePointer(bitPattern: firstAt), names: UnsafePointer(bitPattern: namesAt), values: UnsafePointer(bitPattern: valuesAt),
                bytes: UnsafePointer(bitPattern: bytesAt), byte_count: byteCount, entry_count: entries, type_count: UInt32(clamping: typeCount))
            return (true, rv_runs_check(&columns, k * piece, min(slots, (k + 1) * piece), 1))
        }
        let side = _SideTask(worthIt: slots >= 2 * piece) { share.help() }
        let results = share.finish()
        side.wait()
        guard results.allSatisfy(\.ok) else { return false }
        for k in assigned { checkedBlocks[k] = true }
        // Chained as a load chains its pieces (``SnapshotReader/runsFlaw``); a piece the
        // kernel did not pass is read again by the load's check.
        var checked: [SnapshotReader._RunPiece] = []
        // Copied once, for the pieces the kernel did not pass (the load's check reads arrays).
        var copied: (names: [UInt32], valueAt: [UInt32])?
        for (k, p) in results.map(\.piece).enumerated() {
            if p.bad == 0 {
                checked.append(SnapshotReader._RunPiece(slot: Int(p.slot), start: Int32(truncatingIfNeeded: p.start), end: Int(p.end)))
                continue
            }
            if copied == nil { copied = (reader.column(at(.namedNames), count: entries), reader.column(at(.namedValueStarts), count: entries)) }
            let (names, valueAt) = copied!
            checked.append(SnapshotReader.checkRuns(
                k * piece ..< min(slots, (k + 1) * piece), first: UnsafePointer(bitPattern: firstAt)!, names: names, valueAt: valueAt,
                namedBytes: UnsafeBufferPointer(start: UnsafePointer(bitPattern: bytesAt), count: byteCount),
                parent: nil, anyFree: false, typeCount: typeCount, places: (at(.namedFirst), at(.namedNames), at(.namedValueStarts))))
        }
        guard SnapshotReader.runsFlaw(checked, entries: entries, places: (at(.namedFirst), at(.namedNames))) == nil else { return false }
        renumberNames()
        attributesChecked = true
        return true
    }

    /// ``renumberedNames``, where the file numbers its types otherwise than this process:
    /// each entry's name in this process's numbers, its mark kept; a name out of the table
    /// (not checked yet: see ``checkAttributes(onRead:)``) as 0.
    private func renumberNames() {
        guard let renumbered else { return }
        let (mark, table) = (_AttributeRuns.lastBit, UInt32(renumbered.count))
        let names = UnsafeBufferPointer(start: UnsafePointer<UInt32>(bitPattern: UInt(bitPattern: reader.bytes.baseAddress) + UInt(at(.namedNames))),
                                        count: Int(counts.content.namedEntries))
        renumberedNames = names.map { n in
            let t = n & ~mark
            return (t < table ? UInt32(bitPattern: renumbered[Int(t)]) : 0) | n & mark
        }
    }

    /// Checks the values' starts and texts as a load does; `false` if a check fails.
    package func checkValues() -> Bool {
        if valuesChecked { return true }
        guard checkBlocks(of: [.valueStarts, .valueBytes]) else { return false }
        let c = counts.content
        let base = UInt(bitPattern: reader.bytes.baseAddress)
        let (startsAt, bytesAt, startCount, byteCount) = (base + UInt(at(.valueStarts)), base + UInt(at(.valueBytes)), Int(c.valueStarts), Int(c.valueBytes))
        let piece = SnapshotReader.textPiece
        let share = _WorkShare<Bool>()
        share.post(pieces: (startCount + piece - 1) / piece) { k in
            let starts = _TextStarts(base: UnsafeRawPointer(bitPattern: startsAt), count: startCount, isNarrow: true)
            let bytes = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: bytesAt), count: byteCount)
            let range = k * piece ..< min(startCount, (k + 1) * piece)
            return ViewTree._attributeTextsAreSound(starts: starts.slice(range), bytes: bytes)
                || ViewTree._attributeTextFlaw(starts: starts, bytes: bytes, slots: range) == nil
        }
        let side = _SideTask(worthIt: startCount >= 2 * piece) { share.help() }
        valuesChecked = share.finish().allSatisfy { $0 }
        side.wait()
        return valuesChecked
    }

    /// Calls `body` with the checked columns as a query reads them: the structure's (see
    /// ``checkStructure()``, which must have said yes), the named attributes' if
    /// ``checkAttributes(onRead:)`` said yes (with `onRead`, not checked yet: read them only
    /// through ``_WriterView/run(_:)`` and ``_WriterView/run(first:)``, which check each
    /// run), the values' if ``checkValues()`` did; a group not
    /// checked reads as none (no node has an attribute, or a value). The tags' column is the
    /// file's, unchecked: a query does not read it.
    package func withView<R>(_ body: (_WriterView) throws -> R) rethrows -> R {
        precondition(structureChecked, "the structure is read only once checkStructure() said yes")
        let base = reader.bytes.baseAddress!
        func column<T>(_ s: Section, as: T.Type) -> UnsafePointer<T> {
            UnsafePointer((base + at(s)).assumingMemoryBound(to: T.self))
        }
        let c = counts.content
        let values = valuesChecked ? _TextStarts(base: base + at(.valueStarts), count: Int(c.valueStarts), isNarrow: true) : _TextStarts(base: nil, count: 0, isNarrow: true)
        let noColumns = [(starts: _TextStarts, bytes: UnsafePointer<UInt8>?)](repeating: (_TextStarts(base: nil, count: 0, isNarrow: true), nil), count: NodeAttribute.allCases.count)
        let entries = attributesChecked ? Int(c.namedEntries) : 0
        return try types.withUnsafeBufferPointer { renumberedTypes in
            try (renumberedNames ?? []).withUnsafeBufferPointer { names in
                    try body(_WriterView(
                        typeID: renumbered == nil ? column(.typeID, as: Int32.self) : renumberedTypes.baseAddress ?? column(.typeID, as: Int32.self),
                        narrowTag: column(.narrowTag, as: Int32.self),
                        parent: column(.parent, as: Int32.self), span: column(.span, as: _TourBlocks.Span.self),
                        valueStarts: values, valueBytes: valuesChecked ? column(.valueBytes, as: UInt8.self) : nil,
                        first: attributesChecked ? UnsafeBufferPointer(start: column(.namedFirst, as: Int32.self), count: Int(c.namedFirst))
                            : UnsafeBufferPointer(start: nil, count: 0),
                        names: entries == 0 ? nil : renumberedNames == nil ? column(.namedNames, as: UInt32.self) : names.baseAddress, entryCount: entries,
                        values: nil, narrowValues: entries == 0 ? nil : column(.namedValueStarts, as: UInt32.self),
                        attributeBytes: attributesChecked ? column(.namedValueBytes, as: UInt8.self) : nil,
                        columns: noColumns, hasColumns: false, runChecker: runsOnRead))
            }
        }
    }
}
