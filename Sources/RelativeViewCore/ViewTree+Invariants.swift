extension ViewTree {
    /// Checks every structural invariant of the arena, and that a published index matches
    /// the links. Does real work only in builds with `RELATIVE_VIEW_CHECK_INVARIANTS`
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
        // Building an index walks the whole forest and traps if a node is unreachable.
        let rebuilt = EulerIndex(building: s)
        if let published = s.freshIndex?.takeUnretainedValue() {
            precondition(published.order == rebuilt.order && published.tag == rebuilt.tag && published.type == rebuilt.type, "published index is out of date")
            for i in 0 ..< slots where s.parent[i] != _TreeStorage.free {
                precondition(published.span[i].pre == rebuilt.span[i].pre && published.span[i].end == rebuilt.span[i].end, "published span of \(i) is out of date")
            }
        }
        #endif
    }
}
