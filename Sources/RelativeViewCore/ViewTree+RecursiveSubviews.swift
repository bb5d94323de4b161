extension ViewTree {
    /// The descendants of `node` in the order of the `recursiveSubviews` definition:
    /// its children first, then each child's recursive subviews in turn
    /// (`subviews + subviews.flatMap { $0.recursiveSubviews }`). This is not pre-order.
    ///
    /// Iterative: deep trees do not overflow the stack.
    /// - Complexity: O(size of the subtree).
    public func recursiveSubviews(of node: NodeID) -> [NodeID] {
        recursiveSubviews(of: node) { _ in true }
    }

    /// The nodes of ``recursiveSubviews(of:)`` whose type is `base` or a subclass of it, in that order.
    ///
    /// - Complexity: O(size of the subtree + registered types).
    public func recursiveSubviews<Base: AnyObject>(of node: NodeID, subclassOf base: Base.Type) -> [NodeID] {
        let table = TypeRegistry.shared.subclassTable(of: base)
        let s = _storage
        return recursiveSubviews(of: node) { id in
            let t = Int(s.typeID[Int(id.index)])
            return t < table.count && table[t]
        }
    }

    /// The nodes of ``recursiveSubviews(of:)`` for which `isIncluded` is true, in that order.
    ///
    /// - Complexity: O(size of the subtree) calls of `isIncluded`.
    @inlinable
    public func recursiveSubviews(of node: NodeID, where isIncluded: (NodeID) throws -> Bool) rethrows -> [NodeID] {
        let s = _storage
        s.check(node)
        var result: [NodeID] = []
        // Children still to expand, the next one on top: each expansion emits a node's
        // children together, then expands them one by one, first child first.
        var pending: [Int32] = [node.index]
        var run: [Int32] = []
        while let x = pending.popLast() {
            run.removeAll(keepingCapacity: true)
            var c = s.firstChild(x)
            while c != _TreeStorage.none {
                run.append(c)
                let id = s.nodeID(c)
                if try isIncluded(id) { result.append(id) }
                c = s.nextSibling(c)
            }
            pending.append(contentsOf: run.reversed())
        }
        return result
    }
}
