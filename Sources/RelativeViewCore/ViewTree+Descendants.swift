extension ViewTree {
    /// Whether `a` is a proper descendant of `b` (a node is never its own relative descendant).
    ///
    /// - Complexity: O(1) on a fresh index; otherwise O(depth of `a`), counted toward a rebuild.
    @inlinable
    public func isDescendant(_ a: NodeID, of b: NodeID) -> Bool {
        isAncestor(b, of: a)
    }

    /// The number of nodes in the subtree of `node`, `node` included.
    ///
    /// - Complexity: O(1) on a fresh index; otherwise O(size), counted toward a rebuild.
    public func subtreeSize(of node: NodeID) -> Int {
        let s = _storage
        s.check(node)
        if let index = s.freshIndex {
            return index._withUnsafeGuaranteedRef { index in
                let span = index.span[Int(node.index)]
                return Int(span.end - span.pre)
            }
        }
        let size = 1 + _walkDescendants(of: node.index) { _ in }
        s.pay(size)
        return size
    }

    /// The proper descendants of `node` in depth-first pre-order (a node, then its
    /// children's subtrees in child order).
    ///
    /// On a fresh index this reads one contiguous slice; otherwise it walks the links.
    /// - Complexity: O(1) to make; O(1) amortized per step.
    public func descendants(of node: NodeID) -> Descendants {
        let s = _storage
        s.check(node)
        if let index = s.freshIndex?.takeUnretainedValue() {
            let span = index.span[Int(node.index)]
            return Descendants(tree: self, root: node.index, slice: (span.pre + 1, span.end), index: index)
        }
        return Descendants(tree: self, root: node.index, slice: nil, index: nil)
    }

    /// The proper descendants of a node in depth-first pre-order.
    public struct Descendants: Sequence, Sendable {
        let tree: ViewTree
        let root: Int32
        let slice: (Int32, Int32)?
        let index: EulerIndex?

        /// The iterator of the walk.
        public struct Iterator: IteratorProtocol, Sendable {
            let storage: _TreeStorage
            let root: Int32
            let index: EulerIndex?
            var position: Int32
            let end: Int32
            var current: Int32
            var started = false

            /// The next descendant in pre-order, or `nil` after the last.
            ///
            /// - Complexity: O(1) on a fresh index; amortized O(1) when walking links.
            public mutating func next() -> NodeID? {
                if let index {
                    guard position < end else { return nil }
                    defer { position += 1 }
                    return storage.nodeID(index.order[Int(position)])
                }
                guard let n = ViewTree._preorderStep(storage, root: root, from: started ? current : nil) else { return nil }
                started = true
                current = n
                return storage.nodeID(n)
            }
        }

        /// Starts the walk.
        ///
        /// - Complexity: O(1)
        public func makeIterator() -> Iterator {
            Iterator(storage: tree._storage, root: root, index: index,
                     position: slice?.0 ?? 0, end: slice?.1 ?? 0, current: root)
        }
    }

    /// The node after `from` in the pre-order of the subtree of `root` (`nil` `from`: the first), or `nil` at the end.
    @usableFromInline
    static func _preorderStep(_ s: _TreeStorage, root: Int32, from: Int32?) -> Int32? {
        guard var x = from else {
            let first = s.firstChild[Int(root)]
            return first == _TreeStorage.none ? nil : first
        }
        let child = s.firstChild[Int(x)]
        if child != _TreeStorage.none { return child }
        while x != root {
            let sibling = s.nextSibling[Int(x)]
            if sibling != _TreeStorage.none { return sibling }
            x = s.parent[Int(x)]
        }
        return nil
    }

    /// Calls `body` on each proper descendant of `root` in pre-order by walking the links,
    /// without a stack; returns how many it visited.
    @usableFromInline
    func _walkDescendants(of root: Int32, _ body: (Int32) throws -> Void) rethrows -> Int {
        let s = _storage
        var count = 0
        var x = s.firstChild[Int(root)]
        guard x != _TreeStorage.none else { return 0 }
        walk: while true {
            try body(x)
            count += 1
            let child = s.firstChild[Int(x)]
            if child != _TreeStorage.none {
                x = child
                continue
            }
            while true {
                let sibling = s.nextSibling[Int(x)]
                if sibling != _TreeStorage.none {
                    x = sibling
                    continue walk
                }
                x = s.parent[Int(x)]
                if x == root { break walk }
            }
        }
        return count
    }

    /// Calls `body` on each proper descendant of `node` in pre-order: the index slice when
    /// fresh, else a link walk counted toward a rebuild.
    @usableFromInline
    func _forEachDescendant(of node: NodeID, _ body: (Int32) throws -> Void) rethrows {
        let s = _storage
        s.check(node)
        if let index = s.freshIndex {
            try index._withUnsafeGuaranteedRef { index in
                let span = index.span[Int(node.index)]
                for p in Int(span.pre) + 1 ..< Int(span.end) { try body(index.order[p]) }
            }
        } else {
            s.pay(try _walkDescendants(of: node.index, body))
        }
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
    /// On a fresh index this scans the pre-order tag column over the subtree's slice.
    /// - Complexity: O(size of the subtree + tags.count).
    public func groupDescendants(of node: NodeID, byTags tags: [Int]) -> [Int: [NodeID]] {
        let keys = _TagKeys(tags)
        let s = _storage
        s.check(node)
        guard !keys.keys.isEmpty else { return [:] }
        var groups = [[Int32]](repeating: [], count: keys.keys.count)
        if let index = s.freshIndex {
            index._withUnsafeGuaranteedRef { index in
                let span = index.span[Int(node.index)]
                Self._scanTags(index, Int(span.pre) + 1 ..< Int(span.end), keys, s, &groups)
            }
        } else {
            s.pay(_walkDescendants(of: node.index) { i in
                if let k = keys.slot(ofTagAt: i, in: s) { groups[k].append(i) }
            })
        }
        return _keyedSlots(groups, keys.keys)
    }

    /// The scan behind grouping by tags: one tight pass per asked tag while there are few,
    /// one pass with a lookup otherwise.
    @usableFromInline
    static func _scanTags(_ index: EulerIndex, _ range: Range<Int>, _ keys: _TagKeys, _ s: _TreeStorage, _ groups: inout [[Int32]]) {
        index.tag.withUnsafeBufferPointer { tag in
        index.order.withUnsafeBufferPointer { order in
            if keys.narrow.count <= 4 {
                for (k, t) in keys.narrow.enumerated() {
                    var group: [Int32] = []
                    for p in range where tag[p] == t { group.append(order[p]) }
                    groups[keys.narrowSlots[k]] = group
                }
            } else {
                for p in range {
                    if let k = keys.slot(ofNarrow: tag[p]) { groups[k].append(order[p]) }
                }
            }
            if !keys.wide.isEmpty && !s.wideTags.isEmpty {
                for p in range where tag[p] == _TreeStorage.wideTagSentinel {
                    if let k = keys.wide[s.wideTag(at: order[p])] { groups[k].append(order[p]) }
                }
            }
        }}
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
    /// On a fresh index this scans the pre-order type column over the subtree's slice.
    /// - Complexity: O(size of the subtree + typeKeys.count).
    public func groupDescendants<Key: Hashable>(of node: NodeID, keyingTypes typeKeys: [TypeID: Key]) -> [Key: [NodeID]] {
        let keys = _TypeKeys(typeKeys.map { ($0.key, $0.value) })
        let s = _storage
        s.check(node)
        guard !keys.keys.isEmpty else { return [:] }
        var groups = [[Int32]](repeating: [], count: keys.keys.count)
        if let index = s.freshIndex {
            index._withUnsafeGuaranteedRef { index in
                let span = index.span[Int(node.index)]
                index.type.withUnsafeBufferPointer { type in
                index.order.withUnsafeBufferPointer { order in
                    for p in Int(span.pre) + 1 ..< Int(span.end) {
                        if let k = keys.slot(of: type[p]) { groups[k].append(order[p]) }
                    }
                }}
            }
        } else {
            s.pay(_walkDescendants(of: node.index) { i in
                if let k = keys.slot(of: s.typeID[Int(i)]) { groups[k].append(i) }
            })
        }
        return _keyedSlots(groups, keys.keys)
    }

    /// Groups the descendants of `node` whose type name is one of `names` (every class or
    /// bare name registered with that name), keyed by name, each group in pre-order.
    ///
    /// - Complexity: O(size of the subtree + names.count).
    public func groupDescendants(of node: NodeID, byTypeNames names: [String], registry: TypeRegistry = .shared) -> [String: [NodeID]] {
        groupDescendants(of: node, keyingTypes: Self._typeKeys(named: names, in: registry))
    }

    static func _typeKeys(named names: [String], in registry: TypeRegistry) -> [TypeID: String] {
        var keys: [TypeID: String] = [:]
        for name in names {
            for id in registry.typeIDs(named: name) { keys[id] = name }
        }
        return keys
    }

    /// Non-empty slot groups of node slots as `NodeID`s, under their (distinct) keys.
    @usableFromInline
    func _keyedSlots<Key: Hashable>(_ groups: [[Int32]], _ keys: [Key]) -> [Key: [NodeID]] {
        let s = _storage
        var result: [Key: [NodeID]] = [:]
        for (k, group) in groups.enumerated() where !group.isEmpty {
            result[keys[k]] = group.map(s.nodeID)
        }
        return result
    }
}
