/// The structural check of a saved tour, one position at a time with no stack, so that
/// any run of positions can be checked on its own (and runs on different threads).
///
/// The rule that replaces the stack: the node open just before position p is the node
/// entered at p - 1, or the parent of the node exited there (none before position 0). At
/// each position the check asks that an enter token's slot have that node as parent, and
/// that an exit token close that node; that the slot's span name the position (its enter
/// or its exit); that the tag and type copies be the slot's (an exit's, on an exit); and
/// that an entered slot's type be one a node may have.
///
/// Why that is the stack check: by induction over the positions, when every position
/// passes, a stack of open nodes kept alongside would have the rule's node on top at each
/// position. An enter pushes its slot, which the rule names next; an exit pops back to
/// what was on top when its slot was pushed, which its enter checked to be the slot's
/// parent, which the rule names next. So each exit closes the node on top, and with
/// exactly `live` enters among the 2 × live tokens the stack ends empty. Conversely a
/// sound tour passes every position. A run that fails says only that something is wrong:
/// the stack check, run after it, finds the first flaw and names it.
///
/// It holds pointers to columns that nothing changes while it runs, so that threads can
/// share it: hence `@unchecked Sendable`.
package struct _TourCheck: @unchecked Sendable {
    /// What a run of positions found: whether every position passed, and how many enter
    /// tokens, roots (enters whose parent is none) and wide tags (enters whose narrow tag
    /// is the sentinel) it holds.
    package struct Tally: Sendable {
        package var sound = true
        package var enters = 0
        package var roots = 0
        package var wide = 0

        package init() {}

        /// This run's tally followed by `other`'s.
        package func adding(_ other: Tally) -> Tally {
            var sum = self
            sum.sound = sound && other.sound
            sum.enters &+= other.enters
            sum.roots &+= other.roots
            sum.wide &+= other.wide
            return sum
        }
    }

    let token: UnsafePointer<Int32>
    let parent: UnsafePointer<Int32>
    /// The span words: enter position in the low 32 bits, exit in the high.
    let span: UnsafePointer<UInt64>
    let narrowTag: UnsafePointer<Int32>
    let typeID: UnsafePointer<Int32>
    let tourTag: UnsafePointer<Int32>
    let tourType: UnsafePointer<Int32>
    /// Per type number, 1 if a node may have it; one more entry, 0, for every number out of
    /// range.
    let typeUsable: UnsafePointer<UInt8>
    let typeCount: Int
    let slots: Int

    /// Checks the positions `range` (within 0 ..< 2 × live, with `slots` at least 1).
    ///
    /// - Complexity: O(range.count), with no branch that depends on the data.
    @inline(never)
    package func check(_ range: Range<Int>) -> Tally {
        var tally = Tally()
        guard !range.isEmpty else { return tally }
        let last = UInt32(slots - 1)
        // The node open before the first position.
        var open: Int32 = -1
        if range.lowerBound > 0 {
            let before = token[range.lowerBound - 1]
            open = before >= 0 ? before : parent[Int(min(UInt32(bitPattern: ~before), last))]
        }
        var bad: UInt32 = 0
        var (enters, roots, wide) = (0, 0, 0)
        let exitTag = _ColumnImage.exitTag
        let exitType = _ColumnImage.exitType
        let sentinel = _TreeStorage.wideTagSentinel
        let types = UInt32(typeCount)
        for p in range {
            let t = token[p]
            // 1 for an enter token, 0 for an exit; the slot either names.
            let enter = UInt32(bitPattern: ~t) >> 31
            let slot = UInt32(bitPattern: t ^ (t >> 31))
            bad |= slot > last ? 1 : 0
            let x = Int(min(slot, last))
            let up = parent[x]
            // An enter's parent is the open node; an exit closes it.
            bad |= UInt32(bitPattern: open ^ (enter != 0 ? up : Int32(bitPattern: slot)))
            bad |= UInt32(truncatingIfNeeded: span[x] >> ((enter ^ 1) << 5)) ^ UInt32(truncatingIfNeeded: p)
            let tag = narrowTag[x]
            bad |= UInt32(bitPattern: tourTag[p] ^ (enter != 0 ? tag : exitTag))
            let type = typeID[x]
            bad |= UInt32(bitPattern: tourType[p] ^ (enter != 0 ? type : exitType))
            bad |= UInt32(typeUsable[Int(min(UInt32(bitPattern: type), types))] ^ 1) & enter
            enters &+= Int(enter)
            roots &+= Int(enter & (up == -1 ? 1 : 0))
            wide &+= Int(enter & (tag == sentinel ? 1 : 0))
            open = enter != 0 ? t : up
        }
        tally.sound = bad == 0
        (tally.enters, tally.roots, tally.wide) = (enters, roots, wide)
        return tally
    }
}
