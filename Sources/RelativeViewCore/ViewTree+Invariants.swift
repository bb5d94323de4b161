import RelativeViewEngine
extension ViewTree {
    /// Checks every structural invariant of the arena, and that the index is the Euler
    /// tour of the forest the parent links make. Does real work only in builds with `RELATIVE_VIEW_CHECK_INVARIANTS`
    /// (debug builds of this package). Mutations do not call it, since it is O(n):
    /// tests call it after each mutation.
    ///
    /// - Complexity: O(n) when checking, else O(1).
    public func _checkInvariants() {
        #if RELATIVE_VIEW_CHECK_INVARIANTS
        let s = _storage
        let slots = s.slotCount
        for column in [s.typeID.count, s.narrowTag.count] {
            precondition(column == slots, "columns differ in length")
        }
        precondition(s.generation.count <= slots, "the generation column is longer than the others")
        precondition(s.tour.span.count >= slots, "the index has no positions for every slot")
        precondition(s.frameOrigin.count == s.frameSize.count && s.frameSize.count == s.boundsOrigin.count
                     && s.frameOrigin.count <= slots, "geometry columns differ in length or outgrow the arena")
        for column in s.attributes {
            column.withParts { starts, _ in
            precondition(starts.count <= slots, "an attribute column outgrows the arena")
            for i in starts.indices where _TreeStorage.isFree(s.parent[i]) {
                precondition(starts[i] < 0, "free slot \(i) keeps an attribute")
            }
            }
        }
        for i in 0 ..< s.frameOrigin.count where _TreeStorage.isFree(s.parent[i]) {
            precondition(!s._hasGeometry(at: Int32(i)), "free slot \(i) keeps geometry")
        }
        var free = 0
        var x = s.freeHead
        while x != _TreeStorage.none {
            precondition(x >= 0 && Int(x) < slots && _TreeStorage.isFree(s.parent[Int(x)]), "free list holds a live slot \(x)")
            free += 1
            precondition(free <= slots, "free list has a cycle")
            x = _TreeStorage.nextFree(s.parent[Int(x)])
        }
        // Nodes of removed subtrees that wait to be freed: neither live nor free yet.
        let pending = s.tour.pendingHead < 0 ? 0 : (0 ..< slots).reduce(0) { $0 + (!_TreeStorage.isFree(s.parent[$1]) && s.tour.isPending(Int32($1)) ? 1 : 0) }
        precondition(pending == s.tour.pendingNodes, "\(s.tour.pendingNodes) nodes said to wait to be freed, \(pending) do")
        precondition(free + s.liveCount + pending == slots, "live count \(s.liveCount) + free \(free) + waiting \(pending) != slots \(slots)")
        let roots = (0 ..< slots).reduce(0) { $0 + (s.parent[$1] == _TreeStorage.none ? 1 : 0) }
        precondition(roots == s.rootCount, "root count \(s.rootCount) != \(roots) roots")
        for i in 0 ..< slots where s.isLive(i) {
            let p = s.parent[i]
            precondition(p == _TreeStorage.none || (Int(p) < slots && s.isLive(Int(p))), "parent of \(i) is free or removed")
        }
        for (i, tag) in s.wideTags {
            precondition(s.narrowTag[Int(i)] == _TreeStorage.wideTagSentinel && _TreeStorage.narrow(tag) == nil, "wide tag table entry \(i) is wrong")
        }
        // The index: the tour checks itself (blocks, labels, positions), then it must nest
        // every live node inside its parent, exactly once, with its tag and type copies.
        // (The child order is the tour's: there are no other child links to compare with.)
        let tokens = s.tour.checkedTokens()
        var open: [Int32] = []
        var entered = 0
        for t in tokens {
            if t >= 0 {
                let n = Int(t)
                precondition(n < slots && s.isLive(n), "the index holds free or removed slot \(t)")
                let expected = open.last ?? _TreeStorage.none
                precondition(s.parent[n] == expected, "the index puts \(t) under \(expected), its parent is \(s.parent[n])")
                let slot = _TourBlocks.slot(s.tour.span[n].enter)
                precondition(s.tour.tag[slot] == s.narrowTag[n] && s.tour.type[slot] == s.typeID[n], "the index's tag or type copy of \(t) is wrong")
                open.append(t)
                entered += 1
            } else {
                guard let top = open.popLast() else { preconditionFailure("the index exits \(~t), which is not open") }
                precondition(top == ~t, "the index exits \(~t) inside \(top)")
            }
        }
        precondition(open.isEmpty, "the index leaves \(open.count) node(s) open")
        precondition(entered == s.liveCount, "the index holds \(entered) nodes, the tree \(s.liveCount)")
        #endif
    }
}
