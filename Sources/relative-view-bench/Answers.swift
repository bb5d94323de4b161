import RelativeViewFixtures

/// Digests of answers that every implementation computes the same way, so that answers can
/// be compared across implementations (and across processes) without keeping them.
enum Answers {
    /// A tag key's digest.
    static func tag(_ key: Int) -> UInt64 {
        UInt64(bitPattern: Int64(key))
    }

    /// A type-name key's digest; the naive base class's key counts as the facade's ("View").
    static func name(_ key: String) -> UInt64 {
        stableDigest(StockCatalog.facadeName(ofNaiveKey: key))
    }

    /// A point's digest (exact: the benchmark's geometry is in whole and half points).
    static func point(_ x: Double, _ y: Double) -> UInt64 {
        mix(x.bitPattern &+ mix(y.bitPattern))
    }

    /// A found node's digest (its node number, or -1 for none).
    static func node(_ handle: Int?) -> UInt64 {
        UInt64(bitPattern: Int64(handle ?? -1))
    }

    /// A found object's identity (its address, 0 for none), taken inside the timing in
    /// place of its node number, which costs a lookup in a table of a million views: the
    /// lookup is made after the timing, by ``nodes(ofIdentities:_:)``.
    @inline(__always)
    static func identity(_ object: AnyObject?) -> UInt64 {
        object.map { UInt64(UInt(bitPattern: ObjectIdentifier($0))) } ?? 0
    }

    /// The digests ``node(_:)`` gives the objects whose ``identity(_:)`` are `identities`,
    /// all alive. `handle` numbers a live object.
    static func nodes(ofIdentities identities: [UInt64], _ handle: (ObjectIdentifier) -> Int) -> [UInt64] {
        identities.map { bits in
            guard let address = UnsafeRawPointer(bitPattern: UInt(bits)) else { return node(nil) }
            return node(handle(ObjectIdentifier(Unmanaged<AnyObject>.fromOpaque(address).takeUnretainedValue())))
        }
    }

    /// A cheap digest of grouped answers, independent of dictionary order: each group gives
    /// its key and size. Used inside the timing, on every query.
    @inline(__always)
    static func summary<Key, Value>(_ groups: [Key: [Value]], _ key: (Key) -> UInt64) -> UInt64 {
        var d: UInt64 = 0
        for (k, members) in groups { d &+= mix(key(k) &+ mix(UInt64(members.count))) }
        return d
    }

    /// A digest of a whole grouped answer: every key with every member's node number, in order.
    static func full<Key, Value>(_ groups: [Key: [Value]], _ key: (Key) -> UInt64, _ handle: (Value) -> Int) -> UInt64 {
        let entries = groups.map { (key($0.key), $0.value.map(handle)) }.sorted { $0.0 < $1.0 }
        var h: UInt64 = 0x5EED
        for (k, members) in entries {
            h = mix(h ^ k)
            for m in members { h = mix(h &+ UInt64(bitPattern: Int64(m))) }
            h = mix(h ^ UInt64(members.count))
        }
        return h
    }
}

/// The whole answer to the first query of a run, digested on the first call (the warm-up,
/// which is not timed unless it alone is slower than the minimum time).
struct FirstAnswer {
    /// The first answer, kept whole to be digested once the timing is over: its digest
    /// looks up every member's node number, which for views and naive views is a lookup in
    /// a table of a million entries (tens of milliseconds for a whole-tree grouping), and
    /// a first call that alone exceeds the minimum time is the sample.
    private var digestOfFirst: (() -> UInt64)?

    @inline(__always)
    mutating func keep<Key, Value>(_ i: Int, _ groups: [Key: [Value]], _ key: @escaping (Key) -> UInt64, _ handle: @escaping (Value) -> Int) -> UInt64 {
        if i == 0 && digestOfFirst == nil { digestOfFirst = { Answers.full(groups, key, handle) } }
        return Answers.summary(groups, key)
    }

    /// The digest of the first answer (``Answers/full(_:_:_:)``), or `nil` if none was kept.
    var digest: UInt64? { digestOfFirst?() }
}

/// A stable digest of a string (FNV-1a), the same in every run and process.
func stableDigest(_ s: String) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in s.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return h
}
