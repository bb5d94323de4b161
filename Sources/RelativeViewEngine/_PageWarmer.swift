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
/// ``stop()``, or when it is done. Without a second CPU, or off Linux, it does nothing.
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

    private final class Job: Sendable {
        package let ranges: [Range]
        /// The units (nodes) the ranges are sized for, each range the same share per unit.
        package let units: Int
        /// The units written so far, as the writer reports them.
        package let written = Atomic<Int>(0)
        package let stopped = Atomic<Bool>(false)

        /// The units already written when the warmer started: the steps before are skipped.
        package let start: Int

        package init(ranges: [Range], units: Int, start: Int) {
            self.ranges = ranges
            self.units = units
            self.start = start
            written.store(start, ordering: .relaxed)
        }

        package func run() {
            #if os(Linux)
            let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
            let largest = ranges.map(\.bytes).max() ?? 0
            let total = ranges.reduce(0) { $0 + $1.bytes }
            let lookahead = Int((Double(units) * Double(_PageWarmer.lookaheadBytes) / Double(max(1, total))).rounded(.up))
            let steps = max(1, largest / (16 << 10))  // 16 KiB of the largest range a step: close behind the writer at the start
            // From the step before the one holding `start` (its pages may be partly new).
            let firstStep = max(0, min(steps - 1, Int(Double(start) / Double(max(1, units)) * Double(steps)) - 1))
            for step in firstStep ..< steps {
                // Wait for the writer to come within the lookahead of this step's first unit.
                let first = Int(Double(units) * Double(step) / Double(steps))
                while first > written.load(ordering: .relaxed) + lookahead {
                    if stopped.load(ordering: .relaxed) { return }
                    usleep(100)
                }
                for r in ranges where r.bytes > 0 {
                    if stopped.load(ordering: .relaxed) { return }
                    // Out to whole pages: the pages at either end are mapped (the range's
                    // first and last bytes are in them), and populating a page changes
                    // nothing in it.
                    let from = (r.start + UInt(r.bytes / steps * step)) & ~(page - 1)
                    let end = step == steps - 1 ? r.start + UInt(r.bytes) : r.start + UInt(r.bytes / steps * (step + 1))
                    let to = (end + page - 1) & ~(page - 1)
                    guard to > from, let p = UnsafeMutableRawPointer(bitPattern: from) else { continue }
                    if madvise(p, Int(to - from), MADV_POPULATE_WRITE) != 0 { return }
                }
            }
            #endif
        }
    }

    private let job: Job
    #if os(Linux)
    private var thread: pthread_t?
    #endif

    /// Starts warming `ranges`, sized for `units` units (nodes) with the same share of each
    /// range per unit, from about unit `start` (the units before it are written already),
    /// if they hold at least ``minimumBytes`` and this process may use more than one CPU
    /// (its affinity and its cgroup's quota: `rv_usable_processors`).
    package init(ranges: [Range], units: Int, from start: Int = 0) {
        job = Job(ranges: ranges, units: units, start: start)
        #if os(Linux)
        thread = nil
        guard ranges.reduce(0, { $0 + $1.bytes }) >= Self.minimumBytes, rv_usable_processors() > 1 else { return }
        var t = pthread_t()
        let context = Unmanaged.passRetained(job).toOpaque()
        let started = pthread_create(&t, nil, { context in
            Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        if started == 0 { thread = t } else { Unmanaged<Job>.fromOpaque(context).release() }
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
    package func advance(to units: Int) {
        job.written.store(units, ordering: .relaxed)
    }

    /// Stops the thread, if it is still running, and waits for it. Idempotent.
    package func stop() {
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
