import RelativeViewCore
import RelativeViewEngine
import CSnapshotKernels

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
/// The check itself is C (the CSnapshotKernels module): one position at a time, or eight with
/// AVX2 where the processor has it (gathers, which Swift's SIMD types cannot express, or,
/// where the slots entered are consecutive, eight consecutive entries permuted).
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
        /// The AVX2 path's runs of eight positions whose entered slots were consecutive
        /// (read without gathers), for tests to see that path taken.
        package var ordered = 0
        /// The slot the run's first enter token enters (-1 if it has none).
        package var firstEnter = -1
        /// Whether each enter token enters `firstEnter` plus the number of enters before it
        /// in the run. A whole tour that passes, from slot 0, enters its slots in slot order
        /// (its spans then give each node's end: see ``enteredInSlotOrder``).
        package var inSlotOrder = true

        package init() {}

        /// Whether this tally, of a whole tour that passed, says it enters its slots in
        /// slot order: slot 0 first, and each next enter the next slot.
        package var enteredInSlotOrder: Bool { sound && inSlotOrder && (enters == 0 || firstEnter == 0) }

        /// This run's tally followed by `other`'s.
        package func adding(_ other: Tally) -> Tally {
            var sum = self
            sum.sound = sound && other.sound
            sum.enters &+= other.enters
            sum.roots &+= other.roots
            sum.wide &+= other.wide
            sum.ordered &+= other.ordered
            // The second run's enters go on from where the first's stopped.
            sum.inSlotOrder = inSlotOrder && other.inSlotOrder
                && (firstEnter < 0 || other.firstEnter < 0 || other.firstEnter == firstEnter &+ enters)
            sum.firstEnter = firstEnter >= 0 ? firstEnter : other.firstEnter
            return sum
        }
    }

    let columns: rv_tour_columns
    /// Whether the check may take the AVX2 path (where the processor has it): tests turn it
    /// off to check the one-position-at-a-time path too.
    var vector = true

    /// A check of `token`… `tourType` (see ``ViewTree/_checkTour(_:typeCount:unusable:share:vector:)``):
    /// `typeUsable` holds `typeCount + 1` entries, 1 for a type number a node may have and
    /// 0 for one it may not, 0 last; `slots` is at least 1 and at most `Int32.max`.
    package init(
        token: UnsafePointer<Int32>, parent: UnsafePointer<Int32>, span: UnsafePointer<UInt64>, narrowTag: UnsafePointer<Int32>,
        typeID: UnsafePointer<Int32>, tourTag: UnsafePointer<Int32>, tourType: UnsafePointer<Int32>,
        typeUsable: UnsafePointer<Int32>, typeCount: Int, slots: Int
    ) {
        columns = rv_tour_columns(
            token: token, parent: parent, span: span, narrow_tag: narrowTag, type_id: typeID, tour_tag: tourTag,
            tour_type: tourType, type_usable: typeUsable, type_count: UInt32(typeCount), slot_count: UInt32(slots))
    }

    /// Whether this processor can take the AVX2 path.
    package static var hasVectorPath: Bool { rv_tour_check_has_vector() != 0 }

    /// Checks the positions `range` (within 0 ..< 2 × live).
    ///
    /// - Complexity: O(range.count), with no branch that depends on the data.
    package func check(_ range: Range<Int>) -> Tally {
        var tally = Tally()
        guard !range.isEmpty else { return tally }
        let found = withUnsafePointer(to: columns) { rv_tour_check($0, range.lowerBound, range.upperBound, vector ? 1 : 0) }
        tally.sound = found.bad == 0
        (tally.enters, tally.roots, tally.wide, tally.ordered) = (Int(found.enters), Int(found.roots), Int(found.wide), Int(found.ordered))
        (tally.firstEnter, tally.inSlotOrder) = (Int(found.first_enter), found.out_of_order == 0)
        return tally
    }
}
