import Synchronization
import Testing
@testable import RelativeViewCore

/// A job shared by the thread that posts it and a helper: every piece runs once, the
/// results come back in piece order, and a helper that comes before the job or after its
/// last piece returns at once.
@Suite struct WorkShareTests {
    final class Counts: Sendable {
        let runs: Mutex<[Int]>
        init(_ count: Int) { runs = Mutex([Int](repeating: 0, count: count)) }
    }

    @Test func everyPieceRunsOnceAndTheResultsKeepTheirOrder() {
        for pieces in [0, 1, 2, 7, 500] {
            let share = _WorkShare<Int>()
            let counts = Counts(pieces)
            // A helper that tries before the job is posted, then after.
            let early = _SideTask { share.help() }
            early.wait()
            let helper = _SideTask {
                for _ in 0 ..< 1000 { share.help() }
            }
            let results = share.run(pieces: pieces) { k in
                counts.runs.withLock { $0[k] += 1 }
                return k * k
            }
            helper.wait()
            #expect(results == (0 ..< pieces).map { $0 * $0 })
            #expect(counts.runs.withLock { $0 } == [Int](repeating: 1, count: pieces), "\(pieces) pieces")
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
