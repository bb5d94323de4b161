import CColumnMemory
import RelativeViewEngine
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import RelativeViewCore

/// `_PageWarmer` faults memory in without touching what it holds, and only when the memory
/// is large enough to be worth it: on a thread of its own where the process may run two
/// threads at once, else in the writer's own calls.
@Suite struct PageWarmerTests {
    static let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// Whether a warmer may start a thread here (not under `taskset -c 0`, say).
    static let twoCPUs = rv_usable_processors() > 1

    /// Whether the page at `offset` bytes into `range` is resident (`mincore`).
    static func resident(_ range: _PageWarmer.Range, _ offset: Int) -> Bool {
        let address = (Int(range.start) + offset) / page * page
        var flag: UInt8 = 0
        return mincore(UnsafeMutableRawPointer(bitPattern: address), page, &flag) == 0 && flag & 1 == 1
    }

    @Test func warmingLeavesWrittenAndReservedMemoryAsItWas() {
        // Half written with a pattern, half reserved: the range covers both, from an
        // address that is not page-aligned (the array's header comes first).
        var column: [UInt32] = []
        column.reserveCapacity(8 << 20)
        for k in 0 ..< (4 << 20) { column.append(UInt32(truncatingIfNeeded: k &* 2_654_435_761)) }
        let warmer = _PageWarmer(ranges: [.init(capacityOf: &column)], units: column.capacity)
        #expect(warmer.isRunning == Self.twoCPUs && warmer.mapsInline == !Self.twoCPUs)
        // The writer reports every unit written: the warmer maps only within its lookahead
        // of the writer, and 32 MiB is more than that.
        warmer.advance(to: column.capacity)
        warmer.waitUntilDone()
        #expect(!warmer.isRunning)
        var changed = 0
        for k in 0 ..< (4 << 20) where column[k] != UInt32(truncatingIfNeeded: k &* 2_654_435_761) { changed += 1 }
        // (`column` is used below, so it outlives the warmer.)
        #expect(changed == 0)
        // The reserved half is still usable as usual.
        column.append(contentsOf: repeatElement(7, count: 4 << 20))
        #expect(column.count == 8 << 20 && column.last == 7)
    }

    /// A capacity is an upper bound: the warmer maps no more than its lookahead past what the
    /// writer reported, so memory never written is never made resident.
    @Test func theWarmerStaysWithinItsLookaheadOfTheWriter() throws {
        guard Self.twoCPUs else { return }
        var column: [Int64] = []
        column.reserveCapacity(32 << 20)  // 256 MiB, reserved, never written
        let range = _PageWarmer.Range(capacityOf: &column)
        let warmer = _PageWarmer(ranges: [range], units: column.capacity)
        #expect(warmer.isRunning)
        let page = Self.page
        func resident(_ offset: Int) -> Bool { Self.resident(range, offset) }
        // Give the thread time to go as far as it may.
        var waited = 0
        while !resident(_PageWarmer.lookaheadBytes / 2) && waited < 2_000 {
            usleep(1_000)
            waited += 1
        }
        #expect(resident(_PageWarmer.lookaheadBytes / 2))
        #expect(!resident(range.bytes - page), "mapped past its lookahead with nothing written")
        #expect(!resident(_PageWarmer.lookaheadBytes + (4 << 20)))
        warmer.advance(to: column.capacity)
        warmer.waitUntilDone()
        #expect(resident(range.bytes - page))
        #expect(resident(range.bytes / 2))
        withExtendedLifetime(column) {}  // the memory stays allocated until here
    }

    /// A warmer started from a later unit (a builder that makes an attribute column midway
    /// starts its one warmer again there) maps from about there on, not the part before,
    /// which the writer has written already.
    @Test func aWarmerStartedMidwaySkipsWhatIsWritten() throws {
        guard Self.twoCPUs else { return }
        var column: [Int64] = []
        column.reserveCapacity(32 << 20)  // 256 MiB, reserved, never written
        let range = _PageWarmer.Range(capacityOf: &column)
        let page = Self.page
        func resident(_ offset: Int) -> Bool { Self.resident(range, offset) }
        let warmer = _PageWarmer(ranges: [range], units: column.capacity, from: column.capacity / 2)
        // Give the thread time to go as far as it may: its lookahead past the half.
        var waited = 0
        while !resident(range.bytes / 2 + _PageWarmer.lookaheadBytes / 2) && waited < 2_000 {
            usleep(1_000)
            waited += 1
        }
        #expect(resident(range.bytes / 2 + page))
        #expect(!resident(range.bytes / 4), "mapped what was written before it started")
        #expect(!resident(range.bytes - page), "mapped past its lookahead")
        warmer.stop()
        withExtendedLifetime(column) {}
    }

    /// A builder warms every column on one thread, however many attribute columns it makes
    /// (a thread each left three threads to two CPUs and the writer faulting).
    @Test func attributeColumnsShareTheBuildersWarmer() {
        guard Self.twoCPUs else { return }
        var b = ViewTreeBuilder(minimumCapacity: 400_000)
        b.open(type: Ty.a)
        for k in 0 ..< 300_000 {
            b.appendLeaf(type: Ty.b)
            switch k {
            case 10: b.setAttribute(.key, "k")
            case 100_000: b.setAttribute(.id, "x")
            case 200_000: b.setAttribute(.className, "c")
            default: break
            }
        }
        let (warming, threads) = (b._isWarming, b._warmerCount)
        #expect(warming && threads == 1)
        b.close()
        let tree = b.finish()
        tree._checkInvariants()
        let kids = tree.kids(tree.roots[0])
        #expect(tree.attribute(.key, of: kids[10]) == "k" && tree.attribute(.id, of: kids[100_000]) == "x")
        #expect(tree.attribute(.className, of: kids[200_000]) == "c" && tree.attribute(.className, of: kids[199_999]) == nil)
    }

    /// A builder that gets more nodes than its capacity grows its columns, which moves them:
    /// it stops its warmers first, so that no thread maps memory the columns left.
    @Test func aBuilderPastItsCapacityStopsWarming() {
        guard Self.twoCPUs else { return }
        var b = ViewTreeBuilder(minimumCapacity: 300_000)
        let warmingAtFirst = b._isWarming
        #expect(warmingAtFirst)
        b.open(type: Ty.a)
        for k in 0 ..< 299_000 {
            b.appendLeaf(type: Ty.b)
            if k % 2 == 0 { b.setAttribute(.key, "k\(k % 100)") }
        }
        let warmingWithin = b._isWarming
        #expect(warmingWithin)
        for _ in 0 ..< 20_000 { b.appendLeaf(type: Ty.c) }  // past the capacity, flushed
        let warmingPast = b._isWarming
        #expect(!warmingPast)
        b.setAttribute(.className, "late")  // a column made past the capacity: no warmer either
        let warmingAfterLateColumn = b._isWarming
        #expect(!warmingAfterLateColumn)
        b.close()
        let tree = b.finish()
        tree._checkInvariants()
        #expect(tree.count == 319_001)
        #expect(tree.attribute(.className, of: tree.kids(tree.roots[0]).last!) == "late")
    }

    /// A warmer told to leave the other CPU alone (or with none to use) maps the pages in
    /// the writer's calls to `advance(to:)`: a little ahead of what the writer reported,
    /// never as far as a thread's lookahead, and none of what was written is changed.
    @Test func aWarmerWithoutAThreadMapsInTheWritersCalls() {
        var column: [Int64] = []
        column.reserveCapacity(32 << 20)  // 256 MiB, reserved
        for k in 0 ..< (1 << 20) { column.append(Int64(k) &* 0x9E37_79B9) }  // the first 8 MiB written
        let range = _PageWarmer.Range(capacityOf: &column)
        func resident(_ offset: Int) -> Bool { Self.resident(range, offset) }
        let warmer = _PageWarmer(ranges: [range], units: column.capacity, from: column.count, thread: false)
        #expect(!warmer.isRunning)
        #if os(Linux)
        #expect(warmer.mapsInline)
        // Nothing is mapped until the writer reports.
        #expect(!resident(column.count * 8 + (1 << 20)))
        warmer.advance(to: column.count)
        #expect(resident(column.count * 8 + (16 << 10)), "not mapped ahead of the writer")
        #expect(!resident(column.count * 8 + _PageWarmer.lookaheadBytes), "mapped past its lookahead")
        // Half the column written: mapped up to there and a little ahead, not the rest.
        warmer.advance(to: column.capacity / 2)
        #expect(resident(range.bytes / 2 + (16 << 10)))
        #expect(!resident(range.bytes / 2 + _PageWarmer.lookaheadBytes))
        #expect(!resident(range.bytes - Self.page))
        warmer.advance(to: column.capacity)
        #expect(resident(range.bytes - Self.page))
        #expect(!warmer.mapsInline, "done, but still mapping")
        #endif
        var changed = 0
        for k in 0 ..< (1 << 20) where column[k] != Int64(k) &* 0x9E37_79B9 { changed += 1 }
        #expect(changed == 0)
        warmer.stop()
        #expect(!warmer.mapsInline)
    }

    /// A builder whose caller keeps the other CPU busy (`forgoWarming`, as the pipelined XML
    /// import does) maps its pages itself, and starts a thread again when told the other
    /// CPU is free.
    @Test func aBuilderThatForgoesItsThreadMapsItsOwnPages() {
        var b = ViewTreeBuilder(minimumCapacity: 2_000_000)
        b.forgoWarming()
        let (threadAfterForgoing, inlineAfterForgoing) = (b._isWarming, b._mapsItsOwnPages)
        #expect(!threadAfterForgoing)
        #if os(Linux)
        #expect(inlineAfterForgoing)
        #endif
        b.open(type: Ty.a)
        for _ in 0 ..< 100_000 { b.appendLeaf(type: Ty.b) }
        b.resumeWarming(startingNow: true)
        let threadAfterResuming = b._isWarming
        #expect(threadAfterResuming == Self.twoCPUs)
        for _ in 0 ..< 100_000 { b.appendLeaf(type: Ty.c) }
        b.close()
        let tree = b.finish()
        tree._checkInvariants()
        #expect(tree.count == 200_001 && tree.kids(tree.roots[0]).count == 200_000)
    }

    @Test func smallRangesStartNoThread() {
        var column: [Int32] = []
        column.reserveCapacity(_PageWarmer.minimumBytes / 4 - 1024)
        let warmer = _PageWarmer(ranges: [.init(capacityOf: &column)], units: column.capacity)
        #expect(!warmer.isRunning && !warmer.mapsInline)
        warmer.stop()
    }

    @Test func stoppingEarlyIsIdempotentAndABuilderDroppedMidwayStopsItsWarmer() {
        var column: [Int64] = []
        column.reserveCapacity(64 << 20)
        let warmer = _PageWarmer(ranges: [.init(capacityOf: &column)], units: column.capacity)
        warmer.stop()
        warmer.stop()
        #expect(!warmer.isRunning)
        withExtendedLifetime(column) {}
        // A builder reserved for far more nodes than it gets, dropped without finishing,
        // then one finished early: its tree is sound.
        do {
            var b = ViewTreeBuilder(minimumCapacity: 2_000_000)
            b.open(type: Ty.a)
        }
        var b = ViewTreeBuilder(minimumCapacity: 2_000_000)
        b.open(type: Ty.a)
        for _ in 0 ..< 10_000 { b.open(type: Ty.b); b.close() }
        b.close()
        let tree = b.finish()
        tree._checkInvariants()
        #expect(tree.count == 10_001 && tree.kids(tree.roots[0]).count == 10_000)
    }
}
