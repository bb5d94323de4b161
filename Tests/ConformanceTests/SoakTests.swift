import Foundation
import Testing
import RelativeViewCore
import RelativeViewFixtures

/// How long to soak, from RELATIVE_VIEW_SOAK_SECONDS.
func soakSeconds() -> Double? {
    ProcessInfo.processInfo.environment["RELATIVE_VIEW_SOAK_SECONDS"].flatMap(Double.init)
}

/// The soak (`scripts/soak.sh SECONDS`): seed after seed of long random sequences against
/// the naive core, on the core (`CoreVsNaive`: every mutation, the invariant check, a query)
/// and on the facade (`FacadeVsNaiveTests.run`: mutations and queries, dropped subtrees
/// checked freed through weak references), until the time is up. Off unless
/// RELATIVE_VIEW_SOAK_SECONDS is set; RELATIVE_VIEW_SOAK_FIRST_SEED picks the first seed.
@Suite(.enabled(if: soakSeconds() != nil, "set RELATIVE_VIEW_SOAK_SECONDS to soak"))
struct SoakTests {
    /// Steps per seed and per layer.
    static let stepsPerSeed = 20_000

    @Test func soak() {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(soakSeconds() ?? 0)
        let first = ProcessInfo.processInfo.environment["RELATIVE_VIEW_SOAK_FIRST_SEED"].flatMap(UInt64.init) ?? 1_000
        var seed = first
        var (coreSteps, facadeSteps, facadeQueries, mismatches) = (0, 0, 0, 0)
        repeat {
            var rng = SplitMix64(seed: seed)
            var run = CoreVsNaive()
            for step in 0 ..< Self.stepsPerSeed {
                let issues = run.step(using: &rng)
                if !issues.isEmpty {
                    mismatches += issues.count
                    Issue.record("core, seed \(seed), step \(step): \(issues.joined(separator: "; "))")
                }
            }
            coreSteps += Self.stepsPerSeed
            facadeQueries += FacadeVsNaiveTests().run(seed: seed, steps: Self.stepsPerSeed)
            facadeSteps += Self.stepsPerSeed
            seed += 1
        } while clock.now < deadline
        print("soak: seeds \(first) ..< \(seed) (\(seed - first)), core \(coreSteps) steps, facade \(facadeSteps) steps (\(facadeQueries) queries), core mismatches \(mismatches); facade mismatches are this run's recorded issues")
        #expect(seed > first)
    }
}
