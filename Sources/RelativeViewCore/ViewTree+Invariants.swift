extension ViewTree {
    /// Checks every structural invariant of the arena, and that the index is the links'
    /// Euler tour. Does real work only in builds with `RELATIVE_VIEW_CHECK_INVARIANTS`
    /// (debug builds of this package). Mutations do not call it, since it is O(n):
    /// tests call it after each mutation.
    ///
    /// - Complexity: O(n) when checking, else O(1).
    public func _checkInvariants() {
        #if RELATIVE_VIEW_CHECK_INVARIANTS
        let s = _storage
        let slots = s.slotCount
        for column in [s.firstChild.count, s.nextSibling.count, s.previousSibling.count, s.generation.count, s.typeID.count, s.narrowTag.count] {
            precondition(column == slots, "columns differ in length")
        }
        precondition(s.frameOrigin.count == s.frameSize.count && s.frameSize.count == s.boundsOrigin.count
                     && s.frameOrigin.count <= slots, "geometry columns differ in length or outgrow the arena")
        for i in 0 ..< s.frameOrigin.count where s.parent[i] == _TreeStorage.free {
            precondition(!s._hasGeometry(at: Int32(i)), "free slot \(i) keeps geometry")
        }
        var free = 0
        var x = s.freeHead
        while x != _TreeStorage.none {
            precondition(s.parent[Int(x)] == _TreeStorage.free, "free list holds a live slot \(x)")
            free += 1
            precondition(free <= slots, "free list has a cycle")
            x = s.nextSibling[Int(x)]
        }
        precondition(free + s.liveCount == slots, "live count \(s.liveCount) + free \(free) != slots \(slots)")
        let roots = (0 ..< slots).reduce(0) { $0 + (s.parent[$1] == _TreeStorage.none ? 1 : 0) }
        precondition(roots == s.rootCount, "root count \(s.rootCount) != \(roots) roots")
        for i in 0 ..< Int32(slots) where s.parent[Int(i)] != _TreeStorage.free {
            let n = Int(i)
            let p = s.parent[n]
            if p == _TreeStorage.none {
                precondition(s.nextSibling[n] == _TreeStorage.none && s.previousSibling[n] == _TreeStorage.none, "root \(i) has sibling links")
            } else {
                precondition(s.parent[Int(p)] != _TreeStorage.free, "parent of \(i) is free")
            }
            let first = s.firstChild[n]
            guard first != _TreeStorage.none else { continue }
            var c = first
            var prev = s.previousSibling[Int(first)]
            var count = 0
            while c != _TreeStorage.none {
                precondition(s.parent[Int(c)] == i, "child \(c) of \(i) has parent \(s.parent[Int(c)])")
                if c != first { precondition(s.previousSibling[Int(c)] == prev, "previous link of \(c) is wrong") }
                prev = c
                c = s.nextSibling[Int(c)]
                count += 1
                precondition(count <= slots, "sibling list of \(i) has a cycle")
            }
            precondition(s.previousSibling[Int(first)] == prev, "first child of \(i) does not link to the last")
        }
        for (i, tag) in s.wideTags {
            precondition(s.narrowTag[Int(i)] == _TreeStorage.wideTagSentinel && _TreeStorage.narrow(tag) == nil, "wide tag table entry \(i) is wrong")
        }
        // The index: the tour checks itself, then must be the links' Euler tour, with the
        // nodes' tag and type copies. A stack of open nodes, each with its last child seen.
        let tokens = s.tour.checkedTokens()
        var open: [(node: Int32, lastChild: Int32)] = []
        var entered = 0
        for t in tokens {
            if t >= 0 {
                let n = Int(t)
                precondition(n < slots && s.parent[n] != _TreeStorage.free, "the index holds free slot \(t)")
                if let top = open.last {
                    precondition(s.parent[n] == top.node, "the index puts \(t) under \(top.node), its parent is \(s.parent[n])")
                    let expected = top.lastChild == _TreeStorage.none ? s.firstChild[Int(top.node)] : s.nextSibling[Int(top.lastChild)]
                    precondition(t == expected, "the index has \(t) where the links have \(expected)")
                    open[open.count - 1].lastChild = t
                } else {
                    precondition(s.parent[n] == _TreeStorage.none, "the index has \(t) at the top, its parent is \(s.parent[n])")
                }
                let slot = _TourBlocks.slot(s.tour.span[n].enter)
                precondition(s.tour.tag[slot] == s.narrowTag[n] && s.tour.type[slot] == s.typeID[n], "the index's tag or type copy of \(t) is wrong")
                open.append((t, _TreeStorage.none))
                entered += 1
            } else {
                guard let top = open.popLast() else { preconditionFailure("the index exits \(~t), which is not open") }
                precondition(top.node == ~t, "the index exits \(~t) inside \(top.node)")
                let last = top.lastChild == _TreeStorage.none ? s.firstChild[Int(top.node)] : s.nextSibling[Int(top.lastChild)]
                precondition(last == _TreeStorage.none, "the index closes \(top.node) before its child \(last)")
            }
        }
        precondition(open.isEmpty, "the index leaves \(open.count) node(s) open")
        precondition(entered == s.liveCount, "the index holds \(entered) nodes, the tree \(s.liveCount)")
        #endif
    }
}
