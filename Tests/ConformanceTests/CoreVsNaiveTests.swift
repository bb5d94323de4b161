import Testing
import RelativeViewCore
import RelativeViewNaive
import RelativeViewFixtures

/// The arena core and the naive core, driven by the same random operations
/// (`CoreVsNaive` in RelativeViewFixtures, shared with the differential fuzz target and the
/// soak); every query is compared element by element, in order. Every step is one mutation,
/// then the index's full invariant check (debug builds: O(n)), then the queries on a random
/// pair: no warm-up, no step left unchecked.
struct CoreVsNaiveTests {
    @Test("every mutation, then queries that agree with the naive core", arguments: [1] as [UInt64])
    func randomSequence(seed: UInt64) {
        Self.randomSequence(seed: seed)
    }

    /// 10,000 random steps from `seed`, each checked.
    static func randomSequence(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var run = CoreVsNaive()
        var checked = 0
        for step in 0 ..< 10_000 {
            let issues = run.step(using: &rng)
            #expect(issues.isEmpty, "seed \(seed), step \(step): \(issues.joined(separator: "; "))")
            checked += 1
        }
        #expect(checked == 10_000, "seed \(seed): every step was checked")
        #expect(run.ids.count > 100, "seed \(seed): the forest grew")
    }

    @Test func disagreementsAreReported() {
        // The harness itself: a tree changed behind the run's back must be caught.
        var rng = SplitMix64(seed: 9)
        var run = CoreVsNaive(roots: 3)
        for _ in 0 ..< 200 { _ = run.step(using: &rng) }
        var sabotaged = run
        sabotaged._sabotageForTesting()
        var found = 0
        for _ in 0 ..< 500 where !sabotaged.step(using: &rng).isEmpty { found += 1 }
        #expect(found > 0, "a core tree that differs from the naive one went unnoticed")
    }
}

/// More seeds of ``CoreVsNaiveTests``'s random sequence.
@Suite(.enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it")) struct CoreVsNaiveLongTests {
    @Test("every mutation, then queries that agree with the naive core, more seeds", arguments: [2, 3, 4] as [UInt64])
    func randomSequence(seed: UInt64) {
        CoreVsNaiveTests.randomSequence(seed: seed)
    }
}
