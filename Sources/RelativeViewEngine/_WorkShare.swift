#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A job cut into numbered pieces that two threads share: the thread that posts it works
/// through the pieces, and a helper (a ``_SideTask`` with nothing left to do) may take
/// some of them. How a snapshot load spreads its checks over both cores: the thread that
/// finishes its own part first takes on the other's pieces.
///
/// A helper never waits: ``help()`` before the job is posted, or after its last piece is
/// taken, returns at once, so a load whose job is never posted cannot hang on it. Each
/// piece's result is written by the one thread that took the piece, and read by the poster
/// only after every piece has been counted done (release, then acquire); the results'
/// storage lives until the share does, which both threads hold. Hence `@unchecked Sendable`.
package final class _WorkShare<Piece: Sendable>: @unchecked Sendable {
    /// 0: not posted; 1: posted.
    private let state = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)
    private let done = Atomic<Int>(0)
    /// Written before the job is posted, read after (release, then acquire).
    private var count = 0
    private var work: (@Sendable (Int) -> Piece)?
    /// Every piece's result, `nil` until its piece is done (so that the storage is whole
    /// whatever was done when the share goes).
    private var results: UnsafeMutablePointer<Piece?>?

    package init() {}

    /// Posts the job: `work` for each of `count` pieces, which this thread and a helper
    /// (``help()``) take from now on. Call it at most once.
    package func post(pieces count: Int, _ work: @escaping @Sendable (Int) -> Piece) {
        precondition(state.load(ordering: .relaxed) == 0, "a work share runs one job")
        self.count = count
        self.work = work
        if count > 0 {
            let storage = UnsafeMutablePointer<Piece?>.allocate(capacity: count)
            storage.initialize(repeating: nil, count: count)
            results = storage
        }
        state.store(1, ordering: .releasing)
    }

    /// Takes the posted job's pieces that are left, waits for those a helper has taken, and
    /// returns every piece's result in piece order. Call it after ``post(pieces:_:)``, on
    /// the posting thread; called again, it returns the same results.
    ///
    /// - Complexity: the pieces left; waiting on any a helper is working on.
    package func finish() -> [Piece] {
        drain()
        while done.load(ordering: .acquiring) < count { sched_yield() }
        return count > 0 ? UnsafeBufferPointer(start: results, count: count).map { $0! } : []
    }

    /// Posts `work` for each of `count` pieces and finishes it (see ``finish()``).
    package func run(pieces count: Int, _ work: @escaping @Sendable (Int) -> Piece) -> [Piece] {
        post(pieces: count, work)
        return finish()
    }

    /// Takes pieces of the posted job until none is left; returns at once if no job is
    /// posted yet.
    package func help() {
        guard state.load(ordering: .acquiring) == 1 else { return }
        drain()
    }

    private func drain() {
        guard let work, let results else { return }
        while true {
            let k = taken.wrappingAdd(1, ordering: .relaxed).oldValue
            guard k < count else { return }
            results[k] = work(k)
            done.wrappingAdd(1, ordering: .releasing)
        }
    }

    deinit {
        if let results {
            results.deinitialize(count: count)
            results.deallocate()
        }
    }
}
