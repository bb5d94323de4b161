extension ViewTree {
    /// Moves `count` random element subtrees: each element (not a root) to the end of a
    /// random element outside its subtree, the choices drawn from `seed`. What
    /// `relative-view query --moves` does to a tree before it times a query on it, and what
    /// the tests of a moved tree's answers do.
    ///
    /// Of a JSON tree (`json`), the values move between containers of one kind: a member to
    /// the end of another object (its name kept), an element to the end of another array,
    /// so that the tree stays a JSON document. Nothing moves where no move is possible (a
    /// tree of two elements or fewer, a JSON tree with no container).
    package mutating func _moveRandomSubtrees(_ count: Int, seed: UInt64, json: Bool = false) {
        var elements: [NodeID] = []
        for root in roots {
            if kind(of: root) == .element { elements.append(root) }
            for node in descendants(of: root) where kind(of: node) == .element { elements.append(node) }
        }
        guard elements.count > 2 else { return }
        // A JSON tree's containers, by kind: 0 not one, 1 object, 2 array.
        let container: [NodeID: Int] = json ? Dictionary(uniqueKeysWithValues: elements.map { e in
            (e, typeName(of: e) == "object" ? 1 : typeName(of: e) == "array" ? 2 : 0)
        }) : [:]
        if json, !container.values.contains(1), !container.values.contains(2) { return }
        var rng = SplitMix64(seed: seed)
        var moved = 0
        while moved < count {
            let node = elements[Int.random(in: 0 ..< elements.count, using: &rng)]
            let target = elements[Int.random(in: 0 ..< elements.count, using: &rng)]
            guard parent(of: node) != nil, node != target, !isDescendant(target, of: node) else { continue }
            if json, let p = parent(of: node), container[p] != container[target] { continue }
            append(node, to: target)
            moved += 1
        }
    }
}
