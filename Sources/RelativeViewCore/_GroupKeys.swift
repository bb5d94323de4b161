/// The keys a grouping query asked for, each with a dense key index, and a fast
/// lookup from a node's type id to the index of its key.
///
/// Types that share a key (two classes with one name) share a key index, so each group keeps
/// the order of the walk that filled it.
@usableFromInline
package struct _TypeKeys<Key: Hashable> {
    /// The distinct keys; a key's index is its place here.
    @usableFromInline package let keys: [Key]
    /// `table[typeID]` is the index of the type's key, or -1.
    @usableFromInline let table: [Int32]

    /// The keys of a type-to-key table. A few keys (the usual query) are told apart by a
    /// linear search, so that this allocates nothing beyond the two arrays it keeps; many by
    /// hashing. Inlinable, so that it is specialized for the key type where it is used:
    /// unspecialized, its generic metadata lookups cost more than a small query.
    @inlinable
    package init(_ typeKeys: [TypeID: Key]) {
        var keys: [Key] = []
        keys.reserveCapacity(typeKeys.count)
        var indexOfKey: [Key: Int32]? = typeKeys.count > 8 ? [:] : nil
        var size = 0
        for type in typeKeys.keys { size = max(size, Int(type.rawValue) + 1) }
        var table = [Int32](repeating: -1, count: size)
        for (type, key) in typeKeys {
            let existing = indexOfKey.map { $0[key] } ?? keys.firstIndex(of: key).map { Int32($0) }
            let slot: Int32
            if let existing {
                slot = existing
            } else {
                slot = Int32(keys.count)
                indexOfKey?[key] = slot
                keys.append(key)
            }
            table[Int(type.rawValue)] = slot
        }
        self.keys = keys
        self.table = table
    }

    /// Each of `types` (duplicates once) under itself.
    @inlinable
    package init(types: [TypeID]) where Key == TypeID {
        var keys: [TypeID] = []
        var size = 0
        for type in types { size = max(size, Int(type.rawValue) + 1) }
        var table = [Int32](repeating: -1, count: size)
        for type in types where table[Int(type.rawValue)] < 0 {
            table[Int(type.rawValue)] = Int32(keys.count)
            keys.append(type)
        }
        self.keys = keys
        self.table = table
    }

    /// The index of the key of type `type`, or `nil` if that type was not asked for.
    @inlinable @inline(__always)
    func keyIndex(of type: Int32) -> Int? {
        // Unsigned: the index's exit slots carry -1.
        guard UInt32(bitPattern: type) < UInt32(truncatingIfNeeded: table.count) else { return nil }
        let slot = table[Int(type)]
        return slot < 0 ? nil : Int(slot)
    }
}

/// The tags a grouping query asked for, each with a dense key index.
///
/// A short list of distinct tags (the usual query) is used as it is: making the keys
/// allocates nothing, and a tag's index is found by a linear search, which beats hashing
/// there. A query on a few nodes (siblings, ancestors) then costs little more than its walk.
@usableFromInline
struct _TagKeys {
    /// The distinct tags, in the order first asked for; a tag's index is its place here.
    @usableFromInline let keys: [Int]
    /// Tags that do not fit the narrow column, with their key indices.
    @usableFromInline let wide: [Int: Int]
    /// A hash lookup for the narrow tags when there are many of them.
    @usableFromInline let narrowMap: [Int32: Int]?

    /// Lists longer than this get a hash lookup for their narrow tags.
    @usableFromInline static let linearLimit = 8

    @usableFromInline
    init(_ tags: [Int]) {
        var keys = tags
        if !Self.areDistinct(tags) {
            keys = []
            var seen = Set<Int>()
            for tag in tags where seen.insert(tag).inserted { keys.append(tag) }
        }
        var wide: [Int: Int] = [:]
        var narrowMap: [Int32: Int]? = keys.count > Self.linearLimit ? [:] : nil
        for (k, tag) in keys.enumerated() {
            if let t = _TreeStorage.narrow(tag) {
                narrowMap?[t] = k
            } else {
                wide[tag] = k
            }
        }
        self.keys = keys
        self.wide = wide
        self.narrowMap = narrowMap
    }

    /// Whether `tags` has no duplicate: pairwise for a short list (no allocation), hashed otherwise.
    private static func areDistinct(_ tags: [Int]) -> Bool {
        if tags.count > 16 { return Set(tags).count == tags.count }
        for i in tags.indices {
            for j in tags.indices where j > i && tags[j] == tags[i] { return false }
        }
        return true
    }

    /// The narrow tags asked for, with their key indices (for scans of a tag column).
    @usableFromInline
    var narrowKeys: [(tag: Int32, key: Int)] {
        keys.enumerated().compactMap { k, tag in _TreeStorage.narrow(tag).map { ($0, k) } }
    }

    /// The key index of a value of the narrow column (the sentinel included: it matches no narrow tag).
    @inlinable @inline(__always)
    func keyIndex(ofNarrow t: Int32) -> Int? {
        if let narrowMap { return narrowMap[t] }
        guard t != _TreeStorage.wideTagSentinel else { return nil }
        let tag = Int(t)
        for k in keys.indices where keys[k] == tag { return k }
        return nil
    }

    /// The key index of node `i`'s tag, given its narrow value `t` (from the column or the
    /// index's copy): the wide table decides when `t` is the sentinel.
    @inlinable @inline(__always)
    func keyIndex(ofNarrow t: Int32, at i: Int32, in storage: _TreeStorage) -> Int? {
        if t == _TreeStorage.wideTagSentinel { return wide.isEmpty ? nil : wide[storage.wideTag(at: i)] }
        return keyIndex(ofNarrow: t)
    }
}

/// The answer of a grouping by tags or types before it is handed out: for each asked key,
/// the slots of its nodes in the walk's order. Every such grouping (ancestors, descendants,
/// siblings) fills one, and each layer makes its elements from the slots in one pass: the
/// core `NodeID`s, the facade its views, with no answer in between.
@usableFromInline
package struct _SlotGroups<Key: Hashable> {
    /// The distinct keys asked for; `slots[k]` are the nodes under `keys[k]`.
    @usableFromInline package let keys: [Key]
    @usableFromInline package var slots: [[Int32]]

    /// No groups yet: the first ``append(_:to:)`` makes them, so a query that matches
    /// nothing allocates nothing. A scan that fills `slots` itself calls ``makeGroups()``.
    @inlinable
    init(keys: [Key]) {
        self.keys = keys
        slots = []
    }

    /// Makes the (empty) groups, once.
    @inlinable
    mutating func makeGroups() {
        if slots.isEmpty && !keys.isEmpty { slots = [[Int32]](repeating: [], count: keys.count) }
    }

    /// Adds `slot` to the group of key number `k`.
    @inlinable @inline(__always)
    mutating func append(_ slot: Int32, to k: Int) {
        makeGroups()
        slots[k].append(slot)
    }

    /// The non-empty groups under their keys, each slot made into `element(slot)`.
    ///
    /// - Complexity: O(keys + nodes grouped) calls of `element`.
    @inlinable
    package func keyed<Element>(_ element: (Int32) throws -> Element) rethrows -> [Key: [Element]] {
        try keyedGroups { try $0.map(element) }
    }

    /// The non-empty groups under their keys, each group's slots made into `elements(slots)`
    /// at once (for a layer that makes a group's elements in batches).
    ///
    /// - Complexity: O(keys) calls of `elements`.
    @inlinable
    package func keyedGroups<Element>(_ elements: ([Int32]) throws -> [Element]) rethrows -> [Key: [Element]] {
        var result: [Key: [Element]] = [:]
        for (k, group) in slots.enumerated() where !group.isEmpty {
            result[keys[k]] = try elements(group)
        }
        return result
    }
}
