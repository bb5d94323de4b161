import RelativeViewEngine
import Synchronization
import Testing
@testable import RelativeViewCore

/// A job shared by the thread that posts it and a helper: every piece runs once, the
/// results come back in piece order, and a helper that comes before the job or after its
/// last piece returns at once.
@Suite struct WorkShareTests {
    /// How many pieces ran, counted with an atomic. A `Mutex` here made ThreadSanitizer
    /// report a race (in one CI run of several) when the helper took pieces: its lock is a
    /// futex in the Synchronization library, which is not instrumented, so ThreadSanitizer
    /// does not see it order the two threads.
    final class Runs: Sendable {
        let total = Atomic<Int>(0)
    }

    @Test func everyPieceRunsOnceAndTheResultsKeepTheirOrder() {
        for pieces in [0, 1, 2, 7, 500] {
            let share = _WorkShare<Int>()
            let runs = Runs()
            // A helper that tries before the job is posted, then after.
            let early = _SideTask { share.help() }
            early.wait()
            let helper = _SideTask {
                for _ in 0 ..< 1000 { share.help() }
            }
            let results = share.run(pieces: pieces) { k in
                runs.total.wrappingAdd(1, ordering: .relaxed)
                return k * k
            }
            helper.wait()
            // Every piece has a result (a piece never run would trap in `finish()`), each
            // its own, and as many runs as pieces: so each piece ran exactly once.
            #expect(results == (0 ..< pieces).map { $0 * $0 })
            #expect(runs.total.load(ordering: .relaxed) == pieces, "\(pieces) pieces")
        }
    }

    @Test func aJobPostedEarlyIsFinishedByWhoeverIsFree() {
        let share = _WorkShare<[Int]>()
        share.post(pieces: 64) { k in Array(repeating: k, count: 1000) }
        let helper = _SideTask { share.help() }
        let results = share.finish()
        helper.wait()
        #expect(results.count == 64 && results.indices.allSatisfy { results[$0] == Array(repeating: $0, count: 1000) })
    }
}
