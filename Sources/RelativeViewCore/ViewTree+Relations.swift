import RelativeViewEngine
// The queries of every relation: each relation is walked once (`_walk`), each kind of key
// is matched once (`_KeyMatch`), and a search or a grouping is written once over both.

extension ViewTree {
    // MARK: Yes or no

    /// Whether `a` is one of the `relation` of `b`: `isRelative(a, .ancestors, of: b)` is
    /// ``isAncestor(_:of:)``, and so on.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(__always)
    public func isRelative(_ a: NodeID, _ relation: Relation, of b: NodeID) -> Bool {
        switch relation {
        case .ancestors: isAncestor(a, of: b)
        case .descendants: isDescendant(a, of: b)
        case .siblings: isSibling(a, of: b)
        case .children: isChild(a, of: b)
        case .followingSiblings: _storage.isFollowingSibling(a, of: b)
        }
    }

    // MARK: Search

    /// The first of the `relation` of `node` (in the relation's order) that `matches`.
    ///
    /// - Complexity: O(relatives visited) calls of `matches`: the search stops at the first match.
    @inlinable
    public func first(_ relation: Relation, of node: NodeID, where matches: (NodeID) throws -> Bool) rethrows -> NodeID? {
        let s = _storage
        var found = _TreeStorage.none
        try _walk(relation, of: node) { x, _ in
            guard try matches(s.nodeID(x)) else { return true }
            found = x
            return false
        }
        return found == _TreeStorage.none ? nil : s.nodeID(found)
    }

    /// The first of the `relation` of `node` whose tag is one of `tags`.
    ///
    /// - Complexity: O(relatives visited × min(tags.count, 8) + tags.count)
    public func first(_ relation: Relation, of node: NodeID, withTags tags: [Int]) -> NodeID? {
        // A short list is searched as it is: making its keys costs more than a short walk.
        tags.count <= _TagKeys.linearLimit
            ? _firstMatch(relation, of: node, matching: _TagList(tags: tags))
            : _firstMatch(relation, of: node, matching: _TagKeys(tags))
    }

    /// The first of the `relation` of `node` whose type is one of `types` (exactly).
    ///
    /// - Complexity: O(relatives visited + types.count)
    public func first(_ relation: Relation, of node: NodeID, withTypes types: [TypeID]) -> NodeID? {
        _first(relation, of: node, matching: _TypeKeys(types: types))
    }

    /// The first of the `relation` of `node` whose type name is one of `names` (every class
    /// or bare name registered with that name).
    ///
    /// - Complexity: O(relatives visited + names.count)
    public func first(_ relation: Relation, of node: NodeID, withTypeNames names: [String]) -> NodeID? {
        _first(relation, of: node, matching: _TypeKeys(Self._typeKeys(named: names)))
    }

    /// ``first(_:of:withTypes:)`` with the keys made already (the facade keeps the keys of
    /// its last list of classes).
    @inlinable
    package func _first<Key>(_ relation: Relation, of node: NodeID, matching match: _TypeKeys<Key>) -> NodeID? {
        _firstMatch(relation, of: node, matching: match)
    }

    /// The first of the `relation` of `node` that `match` gives a key.
    @inlinable
    func _firstMatch<Match: _KeyMatch>(_ relation: Relation, of node: NodeID, matching match: Match) -> NodeID? {
        let s = _storage
        var found = _TreeStorage.none
        _walk(relation, of: node) { x, copies in
            guard match.keyIndex(of: x, copies: copies, in: s) != nil else { return true }
            found = x
            return false
        }
        return found == _TreeStorage.none ? nil : s.nodeID(found)
    }

    // MARK: Group

    /// Groups the `relation` of `node` by the key `key` gives each; `nil` leaves one out.
    /// Each group keeps the relation's order.
    ///
    /// - Complexity: O(relatives) calls of `key`.
    @inlinable
    public func group<Key: Hashable>(
        _ relation: Relation, of node: NodeID, by key: (NodeID) throws -> Key?
    ) rethrows -> [Key: [NodeID]] {
        let s = _storage
        var groups: [Key: [NodeID]] = [:]
        try _walk(relation, of: node) { x, _ in
            let id = s.nodeID(x)
            if let k = try key(id) { groups[k, default: []].append(id) }
            return true
        }
        return groups
    }

    /// Groups the `relation` of `node` whose tag is one of `tags`, keyed by tag, each group
    /// in the relation's order. Descendants are found by a scan of the tag copies in the
    /// subtree's run of the index.
    ///
    /// - Complexity: O(relatives + tags.count)
    public func group(_ relation: Relation, of node: NodeID, byTags tags: [Int]) -> [Int: [NodeID]] {
        _slots(relation, of: node, byTags: tags).keyed(_storage.nodeID)
    }

    /// Groups the `relation` of `node` whose type is one of `types` (exactly), keyed by
    /// type, each group in the relation's order.
    ///
    /// - Complexity: O(relatives + types.count)
    public func group(_ relation: Relation, of node: NodeID, byTypes types: [TypeID]) -> [TypeID: [NodeID]] {
        _slots(relation, of: node, matching: _TypeKeys(types: types)).keyed(_storage.nodeID)
    }

    /// Groups the `relation` of `node` whose type is a key of `typeKeys`, under that key's
    /// value, each group in the relation's order. Several types may share a key (the
    /// relative-view API keys classes by their names).
    ///
    /// - Complexity: O(relatives + typeKeys.count)
    @inlinable
    public func group<Key: Hashable>(_ relation: Relation, of node: NodeID, keyingTypes typeKeys: [TypeID: Key]) -> [Key: [NodeID]] {
        _slots(relation, of: node, matching: _TypeKeys(typeKeys)).keyed(_storage.nodeID)
    }

    /// Groups the `relation` of `node` whose type name is one of `names` (every class or
    /// bare name registered with that name), keyed by name, each group in the relation's order.
    ///
    /// - Complexity: O(relatives + names.count)
    public func group(_ relation: Relation, of node: NodeID, byTypeNames names: [String]) -> [String: [NodeID]] {
        group(relation, of: node, keyingTypes: Self._typeKeys(named: names))
    }

    /// ``group(_:of:keyingTypes:)`` as slots, for each layer to make its elements from, with
    /// the keys made already (the facade keeps the keys of its last list of classes).
    @inlinable
    package func _slots<Key>(_ relation: Relation, of node: NodeID, matching match: _TypeKeys<Key>) -> _SlotGroups<Key> {
        _groupSlots(relation, of: node, matching: match)
    }

    /// ``group(_:of:byTags:)`` as slots, for each layer to make its elements from.
    package func _slots(_ relation: Relation, of node: NodeID, byTags tags: [Int]) -> _SlotGroups<Int> {
        _groupSlots(relation, of: node, matching: _TagKeys(tags))
    }

    /// The grouping of the `relation` of `node` by the keys `match` gives them, as slots.
    /// Descendants are scanned in the index's runs.
    @inlinable
    func _groupSlots<Match: _KeyMatch>(_ relation: Relation, of node: NodeID, matching match: Match) -> _SlotGroups<Match.Key> {
        let s = _storage
        var result = _SlotGroups(keys: match.keys)
        guard !match.keys.isEmpty else {
            s.check(node)
            return result
        }
        if relation == .descendants {
            s.check(node)
            result.makeGroups()
            match.scanDescendants(of: node.index, in: s, into: &result.slots)
            return result
        }
        _walk(relation, of: node) { x, copies in
            if let k = match.keyIndex(of: x, copies: copies, in: s) { result.append(x, to: k) }
            return true
        }
        return result
    }

    /// Every type id registered under one of `names`, keyed by its name.
    static func _typeKeys(named names: [String]) -> [TypeID: String] {
        var keys: [TypeID: String] = [:]
        for name in names {
            for id in TypeRegistry.shared.typeIDs(named: name) { keys[id] = name }
        }
        return keys
    }

    // MARK: Walk

    /// Calls `visit` with the slot of each of the `relation` of `node`, in the relation's
    /// order, and the index position that holds its tag and type copies (-1 for an ancestor,
    /// whose copies are not at hand: read the columns), until `visit` returns false. The
    /// walk reads the tree as it was when it started.
    ///
    /// - ancestors: up the parent column;
    /// - descendants: the subtree's run of the index, block by block;
    /// - siblings, children and following siblings: from one child's exit token to the next
    ///   one's enter token (``_TreeStorage/forEachChild(after:_:)``).
    ///
    /// Always inlined, so that `visit` is inlined into the loop: called out of line, it
    /// retains and releases what it captures on every node (docs/results.md has the counts).
    /// - Returns: Whether the walk reached the end (false: `visit` stopped it).
    @inlinable @inline(__always) @discardableResult
    package func _walk(_ relation: Relation, of node: NodeID, _ visit: (_ node: Int32, _ copies: Int) throws -> Bool) rethrows -> Bool {
        let s = _storage
        s.check(node)
        switch relation {
        case .ancestors:
            var x = s.parent[Int(node.index)]
            while x != _TreeStorage.none {
                guard try visit(x, -1) else { return false }
                x = s.parent[Int(x)]
            }
            return true
        case .descendants:
            return try s.allDescendantSlots(of: node.index) { i, t in try visit(t, i) }
        case .siblings:
            let p = s.parent[Int(node.index)]
            guard p != _TreeStorage.none else { return true }
            return try s.forEachChild(of: p) { c, copies in try c == node.index || visit(c, copies) }
        case .children:
            return try s.forEachChild(of: node.index, visit)
        case .followingSiblings:
            guard s.parent[Int(node.index)] != _TreeStorage.none else { return true }
            return try s.forEachChild(after: s.tour.span[Int(node.index)].exit, visit)
        }
    }
}

extension _TreeStorage {
    /// Whether `a` is a child of `b`'s parent that comes after `b`: a sibling whose enter
    /// token follows `b`'s.
    @inlinable
    func isFollowingSibling(_ a: NodeID, of b: NodeID) -> Bool {
        isSibling(a, of: b) && tour.precedes(tour.span[Int(b.index)].enter, tour.span[Int(a.index)].enter)
    }
}

// MARK: Keys

/// A kind of key a search or a grouping matches nodes by (tags, types): the distinct keys
/// asked for, and the index of a node's key among them.
@usableFromInline
protocol _KeyMatch {
    associatedtype Key: Hashable
    /// The distinct keys asked for; a key's index is its place here.
    var keys: [Key] { get }
    /// The index of node `x`'s key, or `nil` if it was not asked for; `copies` is the index
    /// position of its tag and type copies in the index, or -1 to read the columns.
    func keyIndex(of x: Int32, copies: Int, in s: _TreeStorage) -> Int?
    /// Appends each proper descendant of node `x` whose key was asked for to the group of
    /// its key's index, in pre-order: a scan of the copies in the subtree's run of the index.
    func scanDescendants(of x: Int32, in s: _TreeStorage, into groups: inout [[Int32]])
}

extension _TypeKeys: _KeyMatch {
    /// The index of the key of node `x`'s type.
    @inlinable @inline(__always)
    func keyIndex(of x: Int32, copies: Int, in s: _TreeStorage) -> Int? {
        keyIndex(of: copies >= 0 ? s.tour.type[copies] : s.typeID[Int(x)])
    }

    /// A few types, each under a key of its own: one vector pass per type and block keeps
    /// each group in pre-order. Otherwise (many types, or types sharing a key) one pass with
    /// a table lookup per position.
    @inlinable
    func scanDescendants(of x: Int32, in s: _TreeStorage, into groups: inout [[Int32]]) {
        let asked = table.indices.filter { table[$0] >= 0 }.map { (type: Int32($0), key: Int(table[$0])) }
        let perType = asked.count <= 4 && asked.count == keys.count
        let tour = s.tour
        tour.type.withUnsafeBufferPointer { type in
        tour.token.withUnsafeBufferPointer { token in
            // Exit tokens carry the type copy -1, which no type is.
            tour.forEachDescendantRun(of: x) { run in
                if perType {
                    for (t, k) in asked { ViewTree._forEachMatch(type, run, t) { groups[k].append(token[$0]) } }
                } else {
                    for p in run {
                        if let k = keyIndex(of: type[p]) { groups[k].append(token[p]) }
                    }
                }
            }
        }}
    }
}

extension _TagKeys: _KeyMatch {
    /// The index of node `x`'s tag.
    @inlinable @inline(__always)
    func keyIndex(of x: Int32, copies: Int, in s: _TreeStorage) -> Int? {
        keyIndex(ofNarrow: copies >= 0 ? s.tour.tag[copies] : s.narrowTag[Int(x)], at: x, in: s)
    }

    /// One tight vector pass per asked tag while there are few, one pass with a lookup
    /// otherwise; then the tags too wide for the narrow copies.
    @usableFromInline
    func scanDescendants(of x: Int32, in s: _TreeStorage, into groups: inout [[Int32]]) {
        let narrow = narrowKeys
        // The columns' buffers are taken once: a subtree spans thousands of blocks, and
        // passing the tour to the scan of each block retained and released its arrays.
        let tour = s.tour
        tour.tag.withUnsafeBufferPointer { tag in
        tour.token.withUnsafeBufferPointer { token in
            tour.forEachDescendantRun(of: x) { run in
                // Exit tokens carry the tag copy Int32.min, which no narrow tag is.
                if narrow.count <= 4 {
                    for (t, k) in narrow {
                        ViewTree._forEachMatch(tag, run, t) { groups[k].append(token[$0]) }
                    }
                } else {
                    for p in run {
                        if let k = keyIndex(ofNarrow: tag[p]) { groups[k].append(token[p]) }
                    }
                }
                if !wide.isEmpty && !s.wideTags.isEmpty {
                    for p in run where tag[p] == _TreeStorage.wideTagSentinel && token[p] >= 0 {
                        if let k = wide[s.wideTag(at: token[p])] { groups[k].append(token[p]) }
                    }
                }
            }
        }}
    }
}

/// A short list of tags, matched as it is (a search needs no key table): the index of a tag's key is
/// its first place in the list.
@usableFromInline
struct _TagList: _KeyMatch {
    @usableFromInline let keys: [Int]

    @inlinable init(tags: [Int]) { keys = tags }

    @inlinable @inline(__always)
    func keyIndex(of x: Int32, copies: Int, in s: _TreeStorage) -> Int? {
        let t = copies >= 0 ? s.tour.tag[copies] : s.narrowTag[Int(x)]
        let tag = t == _TreeStorage.wideTagSentinel ? s.wideTag(at: x) : Int(t)
        return keys.firstIndex(of: tag)
    }

    @usableFromInline
    func scanDescendants(of x: Int32, in s: _TreeStorage, into groups: inout [[Int32]]) {
        _TagKeys(keys).scanDescendants(of: x, in: s, into: &groups)
    }
}

extension _TreeStorage {
    /// Calls `body` with the position of each enter token strictly inside node `x`'s run of the
    /// index (its proper descendants, in pre-order) and the token there, until `body`
    /// returns false. A method of the storage, reading the index's arrays in place (see
    /// ``forEachChild(of:_:)``).
    /// - Returns: Whether the run was passed to its end.
    @inlinable @inline(__always)
    func allDescendantSlots(of x: Int32, _ body: (_ position: Int, _ token: Int32) throws -> Bool) rethrows -> Bool {
        typealias T = _TourBlocks
        let span = tour.span[Int(x)]
        let lastBlock = T.block(span.exit)
        // The tokens through a buffer taken once: read through the column, each token would
        // be a reload of its base and count (`body` may write to the storage, for all the
        // compiler knows), which doubled a whole-tree grouping by closure at 10^6 nodes.
        return try tour.token.withUnsafeBufferPointer { token in
            var b = T.block(span.enter)
            var o = T.offset(span.enter) + 1
            while true {
                let base = b &* T.capacity
                let end = b == lastBlock ? base + T.offset(span.exit) : base + Int(tour.count[b])
                for i in base + o ..< end where token[i] >= 0 {
                    guard try body(i, token[i]) else { return false }
                }
                if b == lastBlock { return true }
                b = Int(tour.next[b])
                o = 0
            }
        }
    }
}

extension ViewTree {
    /// Calls `body` with each index in `range` whose entry of `column` is `value`, comparing
    /// 16 entries at a time (matches are rare: one comparison of a whole vector per 16).
    @inlinable @inline(__always)
    static func _forEachMatch(_ column: UnsafeBufferPointer<Int32>, _ range: Range<Int>, _ value: Int32, _ body: (Int) -> Void) {
        guard let base = column.baseAddress else { return }
        precondition(range.lowerBound >= 0 && range.upperBound <= column.count, "scan out of the column")
        let needle = SIMD16<Int32>(repeating: value)
        var p = range.lowerBound
        let end = range.upperBound
        while p &+ 16 <= end {
            let lanes = UnsafeRawPointer(base + p).loadUnaligned(as: SIMD16<Int32>.self) .== needle
            if any(lanes) {
                for k in 0 ..< 16 where lanes[k] { body(p &+ k) }
            }
            p &+= 16
        }
        while p < end {
            if base[p] == value { body(p) }
            p &+= 1
        }
    }
}
