#if canImport(Glibc)
import Glibc
#endif
import CColumnMemory
import Synchronization

/// Faults in reserved, not yet written memory on a thread of its own, ahead of the thread
/// that will write it: a ``ViewTreeBuilder`` with a known capacity writes hundreds of
/// megabytes into fresh pages, and the kernel's page faults (a trap and a zeroed page per
/// 4 KiB) were a third of an import's time.
///
/// The warming thread never reads or writes the memory: it asks the kernel to map it
/// (`madvise(MADV_POPULATE_WRITE)`, Linux 5.14 and later), which leaves the contents as
/// they are, so it cannot race with the writer. It walks every range at once, a small step
/// at a time, as a builder fills its columns side by side, at most ``lookaheadBytes`` ahead
/// of what the writer reports with ``advance(to:)`` (a capacity is an upper bound: the part
/// never written stays unmapped), and stops at the first error (an older kernel), at
/// ``stop()``, or when it is done. Without a second CPU (or when the writer's caller keeps
/// the other one busy), the writer maps the same pages itself, in its calls to
/// ``advance(to:)``: one system call per range and step maps what a trap per page would.
/// Off Linux it does nothing.
///
/// The memory must stay allocated until ``stop()`` returns (deinit stops too).
package final class _PageWarmer {
    /// A range of memory by address (addresses are `Sendable`, pointers are not).
    package struct Range: Sendable {
        package var start: UInt
        package var bytes: Int

        /// The reserved capacity of `array`, written or not.
        package init<Element>(capacityOf array: inout [Element]) {
            bytes = array.capacity * MemoryLayout<Element>.stride
            // The buffer starts at the first element's place even when the array is empty.
            start = array.withUnsafeMutableBufferPointer { UInt(bitPattern: $0.baseAddress) }
        }

        /// The reserved capacity of `column`, written or not.
        package init<Element>(capacityOf column: inout _Column<Element>) {
            bytes = column.capacity * MemoryLayout<Element>.stride
            start = column.capacity == 0 ? 0 : UInt(bitPattern: column.base)
        }
    }

    /// Below this many bytes in all, a thread costs more than it saves.
    package static let minimumBytes = 8 << 20

    /// How far ahead of the writer, in bytes of all the ranges together, memory is mapped:
    /// a few milliseconds of a builder's writes here, and mapping runs several times faster.
    /// What is mapped past the last write counts in the process's peak: 32 MiB was a fifth
    /// of a whole XML import's peak (the capacity is a bound the document seldom reaches);
    /// 8 MiB to 2 MiB took 6 MB off the XML imports' peaks (the mixed-content document's
    /// to 143.5 MB, pugixml's 145.7) and no time that eight interleaved runs could tell.
    package static let lookaheadBytes = 2 << 20

    /// How a warmer walks its ranges: in steps, each the same share of every range, a step
    /// mapped once the writer comes within the lookahead of its first unit.
    private struct Plan: Sendable {
        let ranges: [Range]
        /// The units (nodes) the ranges are sized for, each range the same share per unit.
        let units: Int
        let steps: Int
        /// The lookahead in units.
        let lookahead: Int
        /// The step to map first: the one before the step holding the unit the warmer
        /// started from (its pages may be partly new).
        let firstStep: Int

        /// Steps of `stepBytes` of the largest range.
        init(ranges: [Range], units: Int, start: Int, stepBytes: Int) {
            self.ranges = ranges
            self.units = units
            let largest = ranges.map(\.bytes).max() ?? 0
            let total = ranges.reduce(0) { $0 + $1.bytes }
            lookahead = Int((Double(units) * Double(_PageWarmer.lookaheadBytes) / Double(max(1, total))).rounded(.up))
            steps = max(1, largest / stepBytes)
            firstStep = max(0, min(steps - 1, Int(Double(start) / Double(max(1, units)) * Double(steps)) - 1))
        }

        /// The first unit of `step`.
        func firstUnit(of step: Int) -> Int { Int(Double(units) * Double(step) / Double(steps)) }

        /// Maps `step` of every range; false if the kernel refused (an older kernel), or
        /// if `stopped` said to stop between ranges.
        func map(step: Int, stopped: () -> Bool) -> Bool {
            #if os(Linux)
            let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
            for r in ranges where r.bytes > 0 {
                if stopped() { return false }
                // Out to whole pages: the pages at either end are mapped (the range's
                // first and last bytes are in them), and populating a page changes
                // nothing in it.
                let from = (r.start + UInt(r.bytes / steps * step)) & ~(page - 1)
                let end = step == steps - 1 ? r.start + UInt(r.bytes) : r.start + UInt(r.bytes / steps * (step + 1))
                let to = (end + page - 1) & ~(page - 1)
                guard to > from, let p = UnsafeMutableRawPointer(bitPattern: from) else { continue }
                if madvise(p, Int(to - from), MADV_POPULATE_WRITE) != 0 { return false }
            }
            return true
            #else
            return false
            #endif
        }
    }

    private final class Job: Sendable {
        let plan: Plan
        /// The units written so far, as the writer reports them.
        let written = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)

        init(plan: Plan, start: Int) {
            self.plan = plan
            written.store(start, ordering: .relaxed)
        }

        func run() {
            #if os(Linux)
            for step in plan.firstStep ..< plan.steps {
                // Wait for the writer to come within the lookahead of this step's first unit.
                let first = plan.firstUnit(of: step)
                while first > written.load(ordering: .relaxed) + plan.lookahead {
                    if stopped.load(ordering: .relaxed) { return }
                    usleep(100)
                }
                guard plan.map(step: step, stopped: { stopped.load(ordering: .relaxed) }) else { return }
            }
            #endif
        }
    }

    /// A warming thread maps 16 KiB of the largest range a step, to stay close behind the
    /// writer at the start; a writer that maps its own pages, 128 KiB, since each step is
    /// a system call per range on its own time (in a C test here, 512 MiB mapped by 64 to
    /// 256 KiB calls then written took 15 to 18% less time than written into pages faulted
    /// one by one; by 16 KiB calls, no less).
    private static let threadStepBytes = 16 << 10
    private static let inlineStepBytes = 128 << 10

    private let job: Job
    #if os(Linux)
    private var thread: pthread_t?
    #endif
    /// Without a thread: the next step the writer maps itself in ``advance(to:)``, or
    /// `nil` if it does not (small ranges, a refusal, a stop, or off Linux).
    private var nextInlineStep: Int?

    /// Starts warming `ranges`, sized for `units` units (nodes) with the same share of each
    /// range per unit, from about unit `start` (the units before it are written already),
    /// if they hold at least ``minimumBytes``: on a thread of its own if this process may
    /// use more than one CPU (its affinity and its cgroup's quota: `rv_usable_processors`)
    /// and `thread` allows it, else in the writer's own calls to ``advance(to:)``, a larger
    /// step at a time (one system call per range maps the pages a trap each would).
    package init(ranges: [Range], units: Int, from start: Int = 0, thread allowed: Bool = true) {
        let bytes = ranges.reduce(0, { $0 + $1.bytes })
        #if os(Linux)
        let threaded = allowed && bytes >= Self.minimumBytes && rv_usable_processors() > 1
        #else
        let threaded = false
        #endif
        let plan = Plan(ranges: ranges, units: units, start: start, stepBytes: threaded ? Self.threadStepBytes : Self.inlineStepBytes)
        job = Job(plan: plan, start: start)
        #if os(Linux)
        thread = nil
        nextInlineStep = nil
        guard bytes >= Self.minimumBytes else { return }
        guard threaded else {
            nextInlineStep = plan.firstStep
            return
        }
        var t = pthread_t()
        let context = Unmanaged.passRetained(job).toOpaque()
        let started = pthread_create(&t, nil, { context in
            Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        if started == 0 { thread = t } else { Unmanaged<Job>.fromOpaque(context).release() }
        #else
        nextInlineStep = nil
        #endif
    }

    /// Whether a warming thread was started (and not yet waited for).
    package var isRunning: Bool {
        #if os(Linux)
        thread != nil
        #else
        false
        #endif
    }

    /// Tells the warmer that the writer has written the memory of the first `units` units.
    /// Without a thread, maps here the steps that come within the lookahead.
    package func advance(to units: Int) {
        job.written.store(units, ordering: .relaxed)
        if nextInlineStep != nil { mapInline(upTo: units) }
    }

    /// Whether the writer maps the pages itself, in ``advance(to:)`` (for tests).
    package var mapsInline: Bool { nextInlineStep != nil }

    /// Maps each step the writer has come within a quarter of a step of: what is mapped
    /// and not yet written stays within a step and a quarter (a few hundred KiB in all),
    /// where a thread's lookahead is ``lookaheadBytes``, since no thread has to keep ahead.
    @inline(never)
    private func mapInline(upTo units: Int) {
        let plan = job.plan
        guard var step = nextInlineStep else { return }
        let ahead = max(1, plan.units / plan.steps / 4)
        while step < plan.steps && plan.firstUnit(of: step) <= units + ahead {
            guard plan.map(step: step, stopped: { false }) else {
                nextInlineStep = nil
                return
            }
            step += 1
        }
        nextInlineStep = step < plan.steps ? step : nil
    }

    /// Stops the thread, if it is still running, and waits for it. Idempotent.
    package func stop() {
        nextInlineStep = nil
        job.stopped.store(true, ordering: .relaxed)
        waitUntilDone()
    }

    /// Waits for the thread, if one was started, to warm every range (as far as the writer
    /// lets it: call ``advance(to:)`` with every unit first, or it waits for the writer). Idempotent.
    package func waitUntilDone() {
        #if os(Linux)
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
        #endif
    }

    deinit { stop() }
}

extension Array {
    /// `count` copies of `value`, in memory the kernel may map with huge pages when the
    /// array is large; see ``_large(count:initializingWith:)``.
    ///
    /// - Complexity: O(count)
    package static func _large(repeating value: Element, count: Int) -> [Element] {
        _large(count: count) { $0.initialize(repeating: value) }
    }

    /// An array of `count` elements that `initialize` must all initialize, in memory the
    /// kernel may map with huge pages when it is large (`madvise(MADV_HUGEPAGE)` on its
    /// 2 MiB-aligned interior, before the first write), and with every page mapped in one
    /// call (`MADV_POPULATE_WRITE`) rather than one page fault each: page faults are most
    /// of the cost of making a fresh column of megabytes. Elsewhere, and for arrays under
    /// 3 MiB, a plain array.
    ///
    /// - Complexity: O(count), plus `initialize`.
    package static func _large(count: Int, initializingWith initialize: (UnsafeMutableBufferPointer<Element>) -> Void) -> [Element] {
        // An empty array is the standard library's shared empty storage, and
        // `init(unsafeUninitializedCapacity:)` writes the count into it: two threads doing
        // so at once race (ThreadSanitizer reports it), so nothing is written for none.
        guard count > 0 else { return [] }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress { _prepareFreshMemory(UnsafeMutableRawPointer(base), bytes: count * MemoryLayout<Element>.stride) }
            initialize(UnsafeMutableBufferPointer(rebasing: buffer[..<count]))
            initialized = count
        }
    }
}

/// Readies `bytes` of fresh memory at `base`, not yet written, for being written whole: on
/// Linux, if it spans 3 MiB or more, asks for huge pages on its 2 MiB-aligned interior
/// (`madvise(MADV_HUGEPAGE)`, before the first write) and, with `populate`, maps every page
/// in one call (`MADV_POPULATE_WRITE`, Linux 5.14 and later; elsewhere the writes fault them
/// in one by one, as without this), since page faults are most of the cost of filling fresh
/// megabytes. Without `populate`, the writes fault the pages in: better when several
/// threads write the memory, as each then maps (and the kernel zeroes) what it writes.
/// Does nothing to the contents.
///
/// - Complexity: O(bytes) in the kernel, for the pages it maps.
@usableFromInline
package func _prepareFreshMemory(_ base: UnsafeMutableRawPointer, bytes: Int, populate: Bool = true) {
    #if os(Linux)
    guard bytes >= 3 << 20 else { return }
    let huge: UInt = 2 << 20
    let from = (UInt(bitPattern: base) + huge - 1) & ~(huge - 1)
    let to = (UInt(bitPattern: base) + UInt(bytes)) & ~(huge - 1)
    if to > from, let p = UnsafeMutableRawPointer(bitPattern: from) {
        _ = madvise(p, Int(to - from), MADV_HUGEPAGE)
    }
    guard populate else { return }
    let page: UInt = 4096
    let first = (UInt(bitPattern: base) + page - 1) & ~(page - 1)
    let last = (UInt(bitPattern: base) + UInt(bytes)) & ~(page - 1)
    if last > first, let p = UnsafeMutableRawPointer(bitPattern: first) {
        _ = madvise(p, Int(last - first), MADV_POPULATE_WRITE)
    }
    #endif
}

extension Array {
    /// Maps the pages of the next `n` elements past `count` in one call, if the capacity
    /// holds them (room reserved and not yet written, as a whole import reserves its
    /// texts), before an append writes them (`madvise(MADV_POPULATE_WRITE)`, Linux 5.14 and
    /// later; elsewhere, or if it fails, the writes fault them in one by one): a trap per
    /// 4 KiB page cost the thread that filled a text column about a fifth of its time on a
    /// virtual machine (perf, 2026-12-02). Only the pages the `n` elements touch are mapped,
    /// so no memory is taken that the append would not take; pages already mapped are left
    /// as they are. Does nothing to the contents, nor for fewer than 16 KiB.
    ///
    /// - Complexity: O(n) in the kernel, for the pages it maps.
    package mutating func _populateRoom(for n: Int) {
        #if os(Linux)
        let bytes = n * MemoryLayout<Element>.stride
        guard bytes >= 16 << 10, capacity - count >= n else { return }
        withUnsafeMutableBufferPointer { b in
            guard let base = b.baseAddress else { return }
            let page: UInt = 4096
            let start = UInt(bitPattern: base + b.count)
            let first = start & ~(page - 1)
            let last = (start + UInt(bytes) + page - 1) & ~(page - 1)
            if let p = UnsafeMutableRawPointer(bitPattern: first) {
                _ = madvise(p, Int(last - first), MADV_POPULATE_WRITE)
            }
        }
        #endif
    }
}
