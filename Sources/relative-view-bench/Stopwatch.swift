/// What one implementation did on one operation: time per query and a digest per query.
struct Sample {
    var nanosecondsPerOperation: Double
    var operations: Int
    /// The digest of each distinct query's answer, for the queries that ran (at most `count`).
    var digests: [UInt64]
}

/// Keeps a value alive so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Runs `body(i)` over the query indices `0 ..< count`, cycling, until at least `minimum`
/// has passed (after one untimed warm-up call), reading the monotonic clock in batches that
/// grow so that the clock does not dominate fast queries. With `cycle` false (for
/// operations that change the tree) it runs each index once, in order, with no warm-up,
/// and stops early when the time is up.
@inline(__always)
func measure(count: Int, minimum: Duration, cycle: Bool = true, _ body: (Int) -> UInt64) -> Sample {
    if cycle { blackHole(body(0)) }
    let clock = ContinuousClock()
    var digests: [UInt64] = []
    digests.reserveCapacity(min(count, 1 << 20))
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
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Sample(nanosecondsPerOperation: seconds * 1e9 / Double(done), operations: done, digests: digests)
}

/// Mixes bits (the SplitMix64 finalizer), so digests of different answers rarely collide.
@inline(__always)
func mix(_ x: UInt64) -> UInt64 {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

/// A digest of grouped answers that does not depend on dictionary order: each group
/// contributes its key and its size.
@inline(__always)
func digest<Key, Value>(_ groups: [Key: [Value]], key: (Key) -> UInt64) -> UInt64 {
    var d: UInt64 = 0
    for (k, members) in groups { d &+= mix(key(k) &+ mix(UInt64(members.count))) }
    return d
}

/// A stable digest of a string (FNV-1a), the same in every run.
func stableDigest(_ s: String) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in s.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return h
}
