import RelativeViewCore
import Synchronization

/// A snapshot's named attributes, read in place, checked run by run as a query reads them
/// (``_WriterView/runChecker``), where ``_SnapshotQuerySource/checkAttributes(onRead:)``
/// without `onRead` checks every run before the query starts.
///
/// A cold `//person[@id='person100']` on XMark reads the runs of its 25,500 `person`s, where
/// the whole check reads the first entry of every one of the 4.7 M slots (18.7 MB) and
/// every entry: 3.5 to 4.5 ms of an 18 ms process. Each run read is checked for what its
/// reader relies on:
///
/// - the blocks it reads (the slot's first entry, its entries' names and value starts,
///   each value's bytes) against their digests, each block once (a flag per block);
/// - each entry within the entries, each name in the type table, each value's length and
///   bytes within the texts, and the run ended by an entry marked last within the entries.
///
/// What it does not check is what no reader of one run relies on: that the runs chain (each
/// slot's starting where the one before ended), as the tour, which no query reads, is not
/// checked in place either. A run that fails reads as none, and ``flawed`` says so from
/// then on: the query's answer is then thrown away for a whole load's, which names the
/// flaw where its check finds one (a block that does not match its digest, a name out of
/// the table, a value past the texts).
final class _RunsOnRead: _RunChecker, @unchecked Sendable {
    /// What keeps the file mapped.
    private let owner: AnyObject
    private let address: UInt
    private let digestsAt: Int
    private let first: UnsafePointer<Int32>
    private let names: UnsafePointer<UInt32>
    private let valueStarts: UnsafePointer<UInt32>
    private let bytes: UnsafePointer<UInt8>
    /// Where the four sections start in the file.
    private let firstAt: Int, namesAt: Int, valuesAt: Int, bytesAt: Int
    private let entries: Int, byteCount: Int, typeCount: UInt32
    /// Per checksum block: 0 not checked yet, 1 matches its digest, 2 does not.
    private let blocks: UnsafeMutablePointer<Atomic<UInt8>>
    private let blockCount: Int
    private let failed = Atomic<Bool>(false)

    /// The runs of the snapshot mapped at `address` (kept mapped by `owner`), whose sections
    /// lie at `at`; `checked`: the blocks already checked against their digests.
    init(owner: AnyObject, address: UInt, digestsAt: Int, at: (SnapshotLayout.Section) -> Int,
         entries: Int, byteCount: Int, typeCount: Int, checked: [Bool]) {
        (self.owner, self.address, self.digestsAt) = (owner, address, digestsAt)
        (firstAt, namesAt, valuesAt, bytesAt) = (at(.namedFirst), at(.namedNames), at(.namedValueStarts), at(.namedValueBytes))
        first = UnsafePointer(bitPattern: address + UInt(firstAt))!
        names = UnsafePointer(bitPattern: address + UInt(namesAt))!
        valueStarts = UnsafePointer(bitPattern: address + UInt(valuesAt))!
        bytes = UnsafePointer(bitPattern: address + UInt(bytesAt))!
        (self.entries, self.byteCount, self.typeCount) = (entries, byteCount, UInt32(clamping: typeCount))
        blockCount = checked.count
        blocks = .allocate(capacity: checked.count)
        for (k, done) in checked.enumerated() { (blocks + k).initialize(to: Atomic(done ? 1 : 0)) }
    }

    deinit {
        blocks.deinitialize(count: blockCount)
        blocks.deallocate()
    }

    /// Whether a run read failed its check (or its blocks their digests).
    var flawed: Bool { failed.load(ordering: .relaxed) }

    /// The blocks that hold `count` bytes (at least 1) from `offset` in the file, each checked once.
    @inline(__always) private func holds(_ offset: Int, _ count: Int) -> Bool {
        let block = SnapshotLayout.checksumBlock
        let k = offset / block
        let last = (offset + count - 1) / block
        // Most reads lie in one block, checked already.
        if k == last && k < blockCount && blocks[k].load(ordering: .acquiring) == 1 { return true }
        return holdsAll(k ... last)
    }

    /// See ``holds(_:_:)``.
    @inline(never) private func holdsAll(_ range: ClosedRange<Int>) -> Bool {
        guard range.upperBound < blockCount else { return false }
        for k in range where blocks[k].load(ordering: .acquiring) != 1 {
            guard check(k) else { return false }
        }
        return true
    }

    /// Checks block `k` against its digest (another thread may check it too: the same verdict).
    @inline(never) private func check(_ k: Int) -> Bool {
        if blocks[k].load(ordering: .acquiring) == 2 { return false }
        let ok = _SnapshotQuerySource.blockHolds(k, address: address, digestsAt: digestsAt)
        blocks[k].store(ok ? 1 : 2, ordering: .releasing)
        return ok
    }

    /// Marks the runs flawed; the run read as none.
    @inline(never) private func flaw() -> Range<Int> {
        failed.store(true, ordering: .relaxed)
        return 0 ..< 0
    }

    func run(ofSlot x: Int) -> Range<Int> {
        precondition(x >= 0, "a run read for slot \(x): no slot is negative")
        guard holds(firstAt + 4 * x, 4) else { return flaw() }
        return run(first: first[x])
    }

    func run(first f: Int32) -> Range<Int> {
        if f == -1 { return 0 ..< 0 }
        guard f >= 0 else { return flaw() }
        let from = Int(f)
        var e = from
        while true {
            guard e < entries, holds(namesAt + 4 * e, 4), holds(valuesAt + 4 * e, 4) else { return flaw() }
            let name = names[e]
            guard name & ~_AttributeRuns.lastBit < typeCount, valueHolds(Int(valueStarts[e])) else { return flaw() }
            if name & _AttributeRuns.lastBit != 0 { return from ..< e + 1 }
            e += 1
        }
    }

    /// Whether the value stored at `v` (a LEB128 count, then the bytes, as
    /// ``_WriterView/text(_:at:)`` reads it) lies within the texts, its blocks checked.
    ///
    /// The length is read before its block is checked (within the texts, so within the
    /// file): the one check covers its bytes and the text's.
    @inline(__always) private func valueHolds(_ v: Int) -> Bool {
        guard v < byteCount else { return false }
        var count = Int(bytes[v])
        var j = v + 1
        if count >= 0x80 {
            count &= 0x7F
            var shift = 7
            while true {
                // As a load reads a length (`_TextColumn.checkedLength`): up to nine bytes.
                guard j < byteCount, shift < 63 else { return false }
                let byte = bytes[j]
                count |= Int(byte & 0x7F) << shift
                j += 1
                if byte < 0x80 { break }
                shift += 7
            }
        }
        guard count <= byteCount - j else { return false }
        return holds(bytesAt + v, j - v + count)
    }
}
