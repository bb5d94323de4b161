/// The keys a grouping query asked for, each with a dense slot number, and a fast
/// lookup from a node's type id to the slot of its key.
///
/// Types that share a key (two classes with one name) share a slot, so each group keeps
/// the order of the walk that filled it.
@usableFromInline
struct _TypeKeys<Key: Hashable> {
    /// The distinct keys, in the order first asked for.
    @usableFromInline let keys: [Key]
    /// `table[typeID]` is the slot of the type's key, or -1.
    @usableFromInline let table: [Int32]

    @usableFromInline
    init(_ pairs: [(TypeID, Key)]) {
        var keys: [Key] = []
        var slotOfKey: [Key: Int32] = [:]
        let size = (pairs.map { Int($0.0.rawValue) }.max() ?? -1) + 1
        var table = [Int32](repeating: -1, count: size)
        for (type, key) in pairs where table[Int(type.rawValue)] < 0 {
            let slot: Int32
            if let existing = slotOfKey[key] {
                slot = existing
            } else {
                slot = Int32(keys.count)
                slotOfKey[key] = slot
                keys.append(key)
            }
            table[Int(type.rawValue)] = slot
        }
        self.keys = keys
        self.table = table
    }

    /// The slot of the key of type `type`, or `nil` if that type was not asked for.
    @inlinable @inline(__always)
    func slot(of type: Int32) -> Int? {
        // Unsigned: the index's exit slots carry -1.
        guard UInt32(bitPattern: type) < UInt32(truncatingIfNeeded: table.count) else { return nil }
        let slot = table[Int(type)]
        return slot < 0 ? nil : Int(slot)
    }
}

/// The tags a grouping query asked for, each with a dense slot number.
@usableFromInline
struct _TagKeys {
    /// The distinct tags, in the order first asked for.
    @usableFromInline let keys: [Int]
    /// The tags that fit the narrow column, with their slots.
    @usableFromInline let narrow: [Int32]
    @usableFromInline let narrowSlots: [Int]
    /// Tags that do not fit the narrow column, with their slots.
    @usableFromInline let wide: [Int: Int]
    /// A hash lookup for the narrow tags when there are many of them.
    @usableFromInline let narrowMap: [Int32: Int]?

    @usableFromInline
    init(_ tags: [Int]) {
        var keys: [Int] = []
        var narrow: [Int32] = []
        var narrowSlots: [Int] = []
        var wide: [Int: Int] = [:]
        // Tag lists are usually short: a linear check for duplicates beats hashing there
        // (an empty set allocates nothing).
        var seen = Set<Int>()
        for tag in tags {
            let duplicate = tags.count > 16 ? !seen.insert(tag).inserted : keys.contains(tag)
            if duplicate { continue }
            if let t = _TreeStorage.narrow(tag) {
                narrow.append(t)
                narrowSlots.append(keys.count)
            } else {
                wide[tag] = keys.count
            }
            keys.append(tag)
        }
        self.keys = keys
        self.narrow = narrow
        self.narrowSlots = narrowSlots
        self.wide = wide
        self.narrowMap = narrow.count > 8 ? Dictionary(uniqueKeysWithValues: zip(narrow, narrowSlots)) : nil
    }

    /// The slot of a value of the narrow column (the sentinel included: it matches no narrow tag).
    @inlinable @inline(__always)
    func slot(ofNarrow t: Int32) -> Int? {
        if let narrowMap { return narrowMap[t] }
        for k in narrow.indices where narrow[k] == t { return narrowSlots[k] }
        return nil
    }

    /// The slot of the tag of slot `i` of `storage`, or `nil` if that tag was not asked for.
    @inlinable @inline(__always)
    func slot(ofTagAt i: Int32, in storage: _TreeStorage) -> Int? {
        slot(ofNarrow: storage.narrowTag[Int(i)], at: i, in: storage)
    }

    /// The slot of node `i`'s tag, given its narrow value `t` (from the column or the
    /// index's copy): the wide table decides when `t` is the sentinel.
    @inlinable @inline(__always)
    func slot(ofNarrow t: Int32, at i: Int32, in storage: _TreeStorage) -> Int? {
        if t == _TreeStorage.wideTagSentinel { return wide.isEmpty ? nil : wide[storage.wideTag(at: i)] }
        return slot(ofNarrow: t)
    }
}
