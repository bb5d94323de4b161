extension ViewTree {
    /// Whether `a` is a proper descendant of `b` (a node is never its own relative descendant).
    ///
    /// - Complexity: O(1)
    @inlinable
    public func isDescendant(_ a: NodeID, of b: NodeID) -> Bool {
        isAncestor(b, of: a)
    }

    /// The number of nodes in the subtree of `node`, `node` included.
    ///
    /// - Complexity: O(blocks of the index the subtree spans): about size / 32.
    public func subtreeSize(of node: NodeID) -> Int {
        let s = _storage
        s.check(node)
        return s.tour.runLength(of: node.index) / 2
    }

    /// The proper descendants of `node` in depth-first pre-order (a node, then its
    /// children's subtrees in child order).
    ///
    /// The walk reads the subtree's run of the index, block by block.
    /// - Complexity: O(1) to make; O(1) amortized per step.
    public func descendants(of node: NodeID) -> Descendants {
        let s = _storage
        s.check(node)
        return Descendants(tree: self, root: node.index)
    }

    /// The proper descendants of a node in depth-first pre-order.
    public struct Descendants: Sequence, Sendable {
        let tree: ViewTree
        let root: Int32

        /// The iterator of the walk.
        public struct Iterator: IteratorProtocol, Sendable {
            let storage: _TreeStorage
            /// The position of the next token to read, and the root's exit token's.
            var position: UInt32
            let end: UInt32

            /// The next descendant in pre-order, or `nil` after the last.
            ///
            /// - Complexity: amortized O(1).
            public mutating func next() -> NodeID? {
                while position != end {
                    let t = storage.tour.token(at: position)
                    // Never past the end of the tour: the root's exit token comes later.
                    position = storage.tour.after(position)!
                    if t >= 0 { return storage.nodeID(t) }
                }
                return nil
            }
        }

        /// Starts the walk.
        ///
        /// - Complexity: O(1)
        public func makeIterator() -> Iterator {
            let s = tree._storage
            let span = s.tour.span[Int(root)]
            // The token after the root's enter token: at worst its exit token.
            return Iterator(storage: s, position: s.tour.after(span.enter)!, end: span.exit)
        }
    }

    /// The node after `from` in the pre-order of the subtree of `root` (`nil` `from`: the first), or `nil` at the end.
    @usableFromInline
    static func _preorderStep(_ s: _TreeStorage, root: Int32, from: Int32?) -> Int32? {
        guard var x = from else {
            let first = s.firstChild(root)
            return first == _TreeStorage.none ? nil : first
        }
        let child = s.firstChild(x)
        if child != _TreeStorage.none { return child }
        while x != root {
            let sibling = s.nextSibling(x)
            if sibling != _TreeStorage.none { return sibling }
            x = s.parent[Int(x)]
        }
        return nil
    }

    /// Calls `body` with the slot of each proper descendant of `node` in pre-order, reading
    /// the subtree's run of the index. The walk reads the index as it was when it started.
    ///
    /// Always inlined, so that `body` is inlined into the loop: called out of line, it
    /// retained and released what it captures on every node (a closure grouping of
    /// 200,000 nodes ran 31% fewer instructions once inlined, and at least 1.8x faster at
    /// 10^6 nodes in each of three back-to-back runs).
    @inlinable @inline(__always)
    package func _forEachDescendant(of node: NodeID, _ body: (Int32) throws -> Void) rethrows {
        let s = _storage
        s.check(node)
        let tour = s.tour
        try tour.token.withUnsafeBufferPointer { token in
            try tour.forEachDescendantRun(of: node.index) { run in
                for i in run where token[i] >= 0 { try body(token[i]) }
            }
        }
    }

    // MARK: Search

    /// The first descendant of `node` in depth-first pre-order that `matches`.
    ///
    /// - Complexity: O(descendants visited) calls of `matches`: the search stops at the first match.
    @inlinable
    public func firstDescendant(of node: NodeID, where matches: (NodeID) throws -> Bool) rethrows -> NodeID? {
        for descendant in descendants(of: node) where try matches(descendant) { return descendant }
        return nil
    }

    /// The first descendant of `node` in pre-order whose type is one of `types` (exactly).
    ///
    /// - Complexity: O(descendants visited + types.count)
    public func firstDescendant(of node: NodeID, withTypes types: [TypeID]) -> NodeID? {
        _firstDescendant(of: node, matching: _TypeKeys(types: types))
    }

    /// ``firstDescendant(of:withTypes:)`` with the keys made already (the facade keeps them).
    package func _firstDescendant<Key>(of node: NodeID, matching match: _TypeKeys<Key>) -> NodeID? {
        let s = _storage
        return firstDescendant(of: node) { match.slot(of: s.typeID[Int($0.index)]) != nil }
    }

    /// The first descendant of `node` in pre-order whose tag is one of `tags`.
    ///
    /// - Complexity: O(descendants visited × min(tags.count, 8) + tags.count)
    public func firstDescendant(of node: NodeID, withTags tags: [Int]) -> NodeID? {
        let s = _storage
        if tags.count <= 8 {
            return firstDescendant(of: node) { tags.contains(s.tag(at: $0.index)) }
        }
        let match = _TagKeys(tags)
        return firstDescendant(of: node) { match.slot(ofTagAt: $0.index, in: s) != nil }
    }

    // MARK: Group

    /// Groups the descendants of `node` by the key `key` gives each; `nil` leaves one out.
    /// Each group lists its nodes in depth-first pre-order.
    ///
    /// - Complexity: O(size of the subtree) calls of `key`.
    @inlinable
    public func groupDescendants<Key: Hashable>(of node: NodeID, by key: (NodeID) throws -> Key?) rethrows -> [Key: [NodeID]] {
        var groups: [Key: [NodeID]] = [:]
        let s = _storage
        try _forEachDescendant(of: node) { i in
            let id = s.nodeID(i)
            if let k = try key(id) { groups[k, default: []].append(id) }
        }
        return groups
    }

    /// Groups the descendants of `node` whose tag is one of `tags`, keyed by tag, each group in pre-order.
    ///
    /// This scans the tag copies in the subtree's run of the index, block by block.
    /// - Complexity: O(size of the subtree + tags.count).
    public func groupDescendants(of node: NodeID, byTags tags: [Int]) -> [Int: [NodeID]] {
        _descendantSlots(of: node, byTags: tags).keyed(_storage.nodeID)
    }

    /// ``groupDescendants(of:byTags:)`` as slots, for each layer to make its elements from.
    package func _descendantSlots(of node: NodeID, byTags tags: [Int]) -> _SlotGroups<Int> {
        let keys = _TagKeys(tags)
        let s = _storage
        s.check(node)
        var result = _SlotGroups(keys: keys.keys)
        guard !keys.keys.isEmpty else { return result }
        result.makeGroups()
        let narrow = keys.narrowSlots
        // The columns' buffers are taken once: a subtree spans thousands of blocks, and
        // passing the tour to the scan of each block retained and released its arrays.
        let tour = s.tour
        tour.tag.withUnsafeBufferPointer { tag in
        tour.token.withUnsafeBufferPointer { token in
            tour.forEachDescendantRun(of: node.index) { run in
                Self._scanTags(tag, token, run, keys, narrow, s, &result.slots)
            }
        }}
        return result
    }

    /// The scan behind grouping by tags, called once per block of the subtree's run and
    /// appending to the groups in order: one tight pass per asked tag while there are few,
    /// one pass with a lookup otherwise.
    @usableFromInline
    static func _scanTags(
        _ tag: UnsafeBufferPointer<Int32>, _ token: UnsafeBufferPointer<Int32>, _ range: Range<Int>,
        _ keys: _TagKeys, _ narrow: [(tag: Int32, slot: Int)], _ s: _TreeStorage, _ groups: inout [[Int32]]
    ) {
        // Exit slots carry the tag copy Int32.min, which no narrow tag is.
        if narrow.count <= 4 {
            for (t, slot) in narrow {
                _forEachMatch(tag, range, t) { groups[slot].append(token[$0]) }
            }
        } else {
            for p in range {
                if let k = keys.slot(ofNarrow: tag[p]) { groups[k].append(token[p]) }
            }
        }
        if !keys.wide.isEmpty && !s.wideTags.isEmpty {
            for p in range where tag[p] == _TreeStorage.wideTagSentinel && token[p] >= 0 {
                if let k = keys.wide[s.wideTag(at: token[p])] { groups[k].append(token[p]) }
            }
        }
    }

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

    /// Groups the descendants of `node` whose type is one of `types` (exactly), keyed by type, each group in pre-order.
    ///
    /// - Complexity: O(size of the subtree + types.count).
    public func groupDescendants(of node: NodeID, byTypes types: [TypeID]) -> [TypeID: [NodeID]] {
        groupDescendants(of: node, keyingTypes: Dictionary(types.map { ($0, $0) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Groups the descendants of `node` whose type is a key of `typeKeys`, under that key's
    /// value, each group in pre-order. Several types may share a key.
    ///
    /// This scans the type copies in the subtree's run of the index, block by block.
    /// - Complexity: O(size of the subtree + typeKeys.count).
    public func groupDescendants<Key: Hashable>(of node: NodeID, keyingTypes typeKeys: [TypeID: Key]) -> [Key: [NodeID]] {
        _descendantSlots(of: node, keyingTypes: typeKeys).keyed(_storage.nodeID)
    }

    /// ``groupDescendants(of:keyingTypes:)`` as slots, for each layer to make its elements from.
    package func _descendantSlots<Key: Hashable>(of node: NodeID, keyingTypes typeKeys: [TypeID: Key]) -> _SlotGroups<Key> {
        _descendantSlots(of: node, matching: _TypeKeys(typeKeys))
    }

    /// ``_descendantSlots(of:keyingTypes:)`` with the keys made already (the facade keeps them).
    package func _descendantSlots<Key: Hashable>(of node: NodeID, matching keys: _TypeKeys<Key>) -> _SlotGroups<Key> {
        let s = _storage
        s.check(node)
        var result = _SlotGroups(keys: keys.keys)
        guard !keys.keys.isEmpty else { return result }
        result.makeGroups()
        // A few types, each under a key of its own: one vector pass per type and block keeps
        // each group in pre-order. Otherwise (many types, or types sharing a key) one pass
        // with a table lookup per slot.
        let asked = keys.table.indices.filter { keys.table[$0] >= 0 }.map { (type: Int32($0), slot: Int(keys.table[$0])) }
        let perType = asked.count <= 4 && asked.count == keys.keys.count
        let tour = s.tour
        tour.type.withUnsafeBufferPointer { type in
        tour.token.withUnsafeBufferPointer { token in
            // Exit slots carry the type copy -1, which no type is.
            tour.forEachDescendantRun(of: node.index) { run in
                if perType {
                    for (t, k) in asked { Self._forEachMatch(type, run, t) { result.slots[k].append(token[$0]) } }
                } else {
                    for p in run {
                        if let k = keys.slot(of: type[p]) { result.slots[k].append(token[p]) }
                    }
                }
            }
        }}
        return result
    }

    /// Groups the descendants of `node` whose type name is one of `names` (every class or
    /// bare name registered with that name), keyed by name, each group in pre-order.
    ///
    /// - Complexity: O(size of the subtree + names.count).
    public func groupDescendants(of node: NodeID, byTypeNames names: [String]) -> [String: [NodeID]] {
        groupDescendants(of: node, keyingTypes: Self._typeKeys(named: names))
    }

    /// The first descendant of `node` in pre-order whose type name is one of `names`.
    ///
    /// - Complexity: O(descendants visited + names.count)
    public func firstDescendant(of node: NodeID, withTypeNames names: [String]) -> NodeID? {
        _firstDescendant(of: node, matching: _TypeKeys(Self._typeKeys(named: names)))
    }

    /// Every type id registered under one of `names`, keyed by its name.
    static func _typeKeys(named names: [String]) -> [TypeID: String] {
        var keys: [TypeID: String] = [:]
        for name in names {
            for id in TypeRegistry.shared.typeIDs(named: name) { keys[id] = name }
        }
        return keys
    }
}

extension ViewTree {
    /// The depth of the deepest node (a root's is 0; 0 for an empty tree), from one pass
    /// over the index's tokens with no allocation: what `relative-view-bench` reports of a
    /// tree it imports or loads.
    ///
    /// - Complexity: O(n)
    package func _maximumDepth() -> Int {
        let tour = _storage.tour
        var (depth, deepest) = (0, 0)
        // The whole tour, block by block in order: each tree's tokens in turn.
        tour.token.withUnsafeBufferPointer { token in
            var b = tour.head
            while b >= 0 {
                let base = Int(b) * _TourBlocks.capacity
                for i in base ..< base + Int(tour.count[Int(b)]) {
                    // An enter token (a node's slot) goes one level down, an exit one up;
                    // a root is entered at depth 0.
                    if token[i] >= 0 {
                        deepest = max(deepest, depth)
                        depth += 1
                    } else {
                        depth -= 1
                    }
                }
                b = tour.next[Int(b)]
            }
        }
        return deepest
    }
}

extension ViewTree.Descendants: Collection {
    /// A place in the walk: the position of a descendant's enter token in the index and how
    /// many descendants come before it; ``endIndex`` is the root's exit token.
    public struct Index: Comparable, Sendable {
        let ordinal: Int
        let position: UInt32
        let isEnd: Bool

        /// Whether both are the end, or the same place.
        ///
        /// - Complexity: O(1)
        public static func == (a: Index, b: Index) -> Bool {
            a.isEnd || b.isEnd ? a.isEnd == b.isEnd : a.ordinal == b.ordinal
        }

        /// Whether `a` comes before `b` in pre-order (the end after every node).
        ///
        /// - Complexity: O(1)
        public static func < (a: Index, b: Index) -> Bool {
            if a.isEnd { return false }
            return b.isEnd || a.ordinal < b.ordinal
        }
    }

    /// The first descendant's place (the end for a leaf).
    ///
    /// - Complexity: O(1)
    public var startIndex: Index {
        let span = tree._storage.tour.span[Int(root)]
        return enter(from: tree._storage.tour.after(span.enter)!, ordinal: 0, end: span.exit)
    }

    /// The place after the last descendant.
    ///
    /// - Complexity: O(1)
    public var endIndex: Index { Index(ordinal: 0, position: tree._storage.tour.span[Int(root)].exit, isEnd: true) }

    /// The place after `i`.
    ///
    /// - Complexity: amortized O(1)
    public func index(after i: Index) -> Index {
        precondition(!i.isEnd, "cannot advance past the end of the descendants")
        let tour = tree._storage.tour
        return enter(from: tour.after(i.position)!, ordinal: i.ordinal + 1, end: tour.span[Int(root)].exit)
    }

    /// The descendant at `i`.
    ///
    /// - Complexity: O(1)
    public subscript(i: Index) -> NodeID {
        precondition(!i.isEnd, "the end index has no node")
        let s = tree._storage
        return s.nodeID(s.tour.token(at: i.position))
    }

    /// How many descendants the root has.
    ///
    /// - Complexity: O(blocks of the index the subtree spans): about size / 32.
    public var count: Int { tree._storage.tour.runLength(of: root) / 2 - 1 }

    /// Whether the root is a leaf.
    ///
    /// - Complexity: O(1)
    public var isEmpty: Bool { startIndex.isEnd }

    /// The first enter token at or after position `p`, or the end at `end`.
    private func enter(from p: UInt32, ordinal: Int, end: UInt32) -> Index {
        let tour = tree._storage.tour
        var p = p
        while p != end {
            if tour.token(at: p) >= 0 { return Index(ordinal: ordinal, position: p, isEnd: false) }
            p = tour.after(p)!
        }
        return Index(ordinal: ordinal, position: end, isEnd: true)
    }
}
