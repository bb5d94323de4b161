import RelativeViewCore
import RelativeViewFixtures

/// What one implementation did on one operation: time per query and a digest per query.
struct Sample {
    var nanosecondsPerOperation: Double
    var operations: Int
    /// The digest of each distinct query's answer, for the queries that ran (at most `count`).
    var digests: [UInt64]
    /// Per-step latencies (the `churn` operation only).
    var latency: ChurnLatency?
}

/// Keeps a value alive so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Runs `body(i)` over the query indices `0 ..< count`, cycling, until at least `minimum`
/// has passed, reading the monotonic clock in batches that grow so that the clock does not
/// dominate fast queries. The first call warms caches and is not counted, unless it alone
/// took `minimum` or more (a slow query is measured once, not twice). With `cycle` false
/// (for operations that change the tree) every index runs once, in order, with no warm-up,
/// stopping early when the time is up.
@inline(__always)
func measure(count: Int, minimum: Duration, cycle: Bool = true, _ body: (Int) -> UInt64) -> Sample {
    precondition(count > 0, "measure needs at least one query, got \(count)")
    let clock = ContinuousClock()
    var digests: [UInt64] = []
    digests.reserveCapacity(min(count, 1 << 20))
    if cycle {
        let start = clock.now
        let first = body(0)
        let elapsed = clock.now - start
        if elapsed >= minimum {
            return Sample(nanosecondsPerOperation: nanoseconds(elapsed), operations: 1, digests: [first])
        }
    }
    var sink: UInt64 = 0
    var done = 0
    var batch = 1
    let start = clock.now
    var elapsed = Duration.zero
    var i = 0
    while true {
        for _ in 0 ..< batch {
            let digest = body(i)
            if done < count { digests.append(digest) } else { sink &+= digest }
            done += 1
            i += 1
            if i == count {
                if !cycle { break }
                i = 0
            }
        }
        elapsed = clock.now - start
        if elapsed >= minimum || (!cycle && done == count) { break }
        batch = min(batch * 2, 4096)
    }
    blackHole(sink)
    return Sample(nanosecondsPerOperation: nanoseconds(elapsed) / Double(done), operations: done, digests: digests)
}

func nanoseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
}

/// Mixes bits (the SplitMix64 finalizer), so digests of different answers rarely collide.
@inline(__always)
func mix(_ x: UInt64) -> UInt64 {
    SplitMix64.mix(x)
}

/// A run that cannot go on for a reason outside the program (a pipe, a device, the file
/// system): printed as `error: <description>`, exit status 1.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
