import CSnapshotKernels
import RelativeViewCore
import RelativeViewEngine
/// A ``ViewTree``'s node columns and index as they lie in memory, laid out for a snapshot
/// that a loader can read in place (the RelativeViewSnapshot module's version 2): the
/// slot-indexed columns (parent, generation, type, narrow tag, span) and the tour's three
/// slot columns (token, tag copy, type copy), with the tour in tour order from slot 0,
/// ``_TourBlocks/capacity`` tokens to a block, so that a token's position is its index and
/// the block list follows from the live count. Free slots hold their free-list mark as
/// parent and zero elsewhere (generations aside), so the image is a function of the tree.
package struct _ColumnImage: Sendable {
    package var slotCount = 0
    package var liveCount = 0
    /// The first free slot (the next node made takes it), or -1.
    package var freeHead: Int32 = -1
    /// Per slot, or shorter: a slot past its end has generation 0.
    package var generation: [UInt32] = []
    package var parent: [Int32] = []
    /// ``TypeID`` raw values (a writer renumbers them), 0 on free slots.
    package var typeID: [Int32] = []
    package var narrowTag: [Int32] = []
    /// Each live node's enter position in the low 32 bits and exit position in the high.
    package var span: [UInt64] = []
    /// The tour, padded to whole blocks: ``tourSlots(live:)`` entries.
    package var token: [Int32] = []
    package var tourTag: [Int32] = []
    package var tourType: [Int32] = []

    /// The index positions of a tree of `live` nodes: its 2 × live tokens in whole blocks.
    package static func tourSlots(live: Int) -> Int {
        (2 * live + _TourBlocks.capacity - 1) / _TourBlocks.capacity * _TourBlocks.capacity
    }

    /// The tag copy of an exit slot, and its type copy (no node has either).
    package static let exitTag = Int32.min
    package static let exitType = _TourBlocks.exitType
}

/// The columns of a snapshot read in place (``ViewTree/init(validatingColumns:typeCount:unusedTypes:extras:owner:textFlaws:tourShare:)``):
/// pointers into memory that is not changed while the loaded tree, or `owner`, lives.
package struct _ColumnPointers {
    package var slotCount: Int
    package var liveCount: Int
    package var freeHead: Int32
    package var generation: UnsafeBufferPointer<UInt32>
    package var parent: UnsafeBufferPointer<Int32>
    package var typeID: UnsafeBufferPointer<Int32>
    package var narrowTag: UnsafeBufferPointer<Int32>
    package var span: UnsafeBufferPointer<UInt64>
    package var token: UnsafeBufferPointer<Int32>
    package var tourTag: UnsafeBufferPointer<Int32>
    package var tourType: UnsafeBufferPointer<Int32>

    package init(
        slotCount: Int, liveCount: Int, freeHead: Int32, generation: UnsafeBufferPointer<UInt32>,
        parent: UnsafeBufferPointer<Int32>, typeID: UnsafeBufferPointer<Int32>, narrowTag: UnsafeBufferPointer<Int32>,
        span: UnsafeBufferPointer<UInt64>, token: UnsafeBufferPointer<Int32>, tourTag: UnsafeBufferPointer<Int32>,
        tourType: UnsafeBufferPointer<Int32>
    ) {
        (self.slotCount, self.liveCount, self.freeHead, self.generation) = (slotCount, liveCount, freeHead, generation)
        (self.parent, self.typeID, self.narrowTag, self.span) = (parent, typeID, narrowTag, span)
        (self.token, self.tourTag, self.tourType) = (token, tourTag, tourType)
    }
}

extension ViewTree {
    /// The tree's columns and index as a version 2 snapshot stores them (see ``_ColumnImage``).
    ///
    /// - Complexity: O(n)
    package func _columnImage() -> _ColumnImage {
        precondition(!_hasPendingRemovals, "an image of a tree whose removed nodes wait to be freed: image _settled()")
        let s = _storage
        let slots = s.slotCount
        var image = _ColumnImage()
        image.slotCount = slots
        image.liveCount = s.liveCount
        image.freeHead = s.freeHead
        image.generation = s.generation.array
        image.parent = s.parent.array
        image.typeID = [Int32](repeating: 0, count: slots)
        image.narrowTag = [Int32](repeating: 0, count: slots)
        image.span = [UInt64](repeating: 0, count: slots)
        let tourSlots = _ColumnImage.tourSlots(live: s.liveCount)
        image.token = [Int32](repeating: 0, count: tourSlots)
        image.tourTag = [Int32](repeating: 0, count: tourSlots)
        image.tourType = [Int32](repeating: 0, count: tourSlots)
        let tour = s.tour
        var p = 0
        var b = tour.head
        while b >= 0 {
            let base = Int(b) * _TourBlocks.capacity
            for k in base ..< base + Int(tour.count[Int(b)]) {
                let t = tour.token[k]
                image.token[p] = t
                if t >= 0 {
                    let x = Int(t)
                    image.typeID[x] = s.typeID[x]
                    image.narrowTag[x] = s.narrowTag[x]
                    image.tourTag[p] = s.narrowTag[x]
                    image.tourType[p] = s.typeID[x]
                    image.span[x] = UInt64(p)
                } else {
                    image.tourTag[p] = _ColumnImage.exitTag
                    image.tourType[p] = _ColumnImage.exitType
                    image.span[Int(~t)] |= UInt64(p) << 32
                }
                p += 1
            }
            b = tour.next[Int(b)]
        }
        return image
    }

    /// The tree whose node columns and index `columns` holds, checked, or the first flaw.
    ///
    /// Every invariant the queries and the mutations rely on is checked in one pass over
    /// the tour: each enter token is a slot in range whose span's enter is that position,
    /// whose parent is the open node (or none, for a root, when none is open), whose type is
    /// below `typeCount` and whose tag and type copies are its columns'; each exit token
    /// closes the open node, at its span's exit, with the exit copies. So the links form no
    /// cycle, every child run closes, and each live slot is entered once. The pass is
    /// ``_TourCheck``'s, position by position with no stack, in pieces that a helper of
    /// `tourShare` may take some of; only if it fails does a pass front to back with a stack
    /// of the open nodes run, to name the first flaw. Then the free list, from `freeHead`,
    /// must take exactly the other slots (free marks, zero type, tag and span) and end; no
    /// node may have a type that `unusedTypes` marks (a snapshot lists ids no node has, to
    /// keep the numbering, and maps them without asking a view factory); and `extras`
    /// (wide tags, geometry, attributes) are checked as ``init(validating:typeMap:)`` checks
    /// them. Nothing is written to `columns`.
    ///
    /// The types stay the file's numbers (see ``_renumberTypes(_:)`` for this process's).
    /// With an `owner` (which keeps `columns` valid and unchanged as long as it lives), the
    /// tree reads the columns in place (it borrows them, and copies them into memory of its
    /// own before its first change). Without one, every column is copied.
    ///
    /// - Complexity: O(n), n the number of slots (plus the extras' entries); no allocation
    ///   but the stack of open nodes (4 bytes per level of depth) and the copies.
    package init(
        validatingColumns columns: _ColumnPointers, typeCount: Int, unusedTypes: [Bool] = [], extras: _PreorderImage, owner: AnyObject?,
        textFlaws: () -> [(element: Int, reason: String)?] = { [] }, tourShare: _WorkShare<_TourCheck.Tally>? = nil
    ) throws(_PreorderImageFlaw) {
        let slots = columns.slotCount
        let live = columns.liveCount
        func flaw(_ part: _PreorderImageFlaw.Part, _ element: Int, _ reason: String) -> _PreorderImageFlaw {
            _PreorderImageFlaw(part: part, element: element, reason: reason)
        }
        let tourSlots = _ColumnImage.tourSlots(live: live)
        guard slots < Int(Int32.max), live <= slots, columns.generation.count <= slots,
              [columns.parent.count, columns.typeID.count, columns.narrowTag.count, columns.span.count].allSatisfy({ $0 == slots }),
              [columns.token.count, columns.tourTag.count, columns.tourType.count].allSatisfy({ $0 == tourSlots })
        else {
            throw flaw(.slot, 0, "columns of \(slots) slots and \(live) live nodes of the wrong lengths")
        }
        // Types no node may have.
        let unusable = (0 ..< typeCount).map { $0 < unusedTypes.count && unusedTypes[$0] }
        typealias Span = _TourBlocks.Span
        let spanLayoutIsTheFiles = MemoryLayout<Span>.stride == 8 && MemoryLayout<Span>.offset(of: \.enter) == 0
            && MemoryLayout<Span>.offset(of: \.exit) == 4
        #if _endian(little)
        let inPlace = owner != nil && spanLayoutIsTheFiles
        #else
        let inPlace = false
        #endif

        func column<T>(_ pointer: UnsafeBufferPointer<T>, borrow: Bool) -> _Column<T> {
            if borrow, let owner, let base = pointer.baseAddress { return _Column(borrowing: base, count: pointer.count, owner: owner) }
            return _Column(count: pointer.count) { out in
                if let from = pointer.baseAddress, pointer.count > 0 { out.baseAddress!.initialize(from: from, count: pointer.count) }
            }
        }
        let parent = column(columns.parent, borrow: inPlace)
        let generation = column(columns.generation, borrow: inPlace)
        let narrowTag = column(columns.narrowTag, borrow: inPlace)
        let token = column(columns.token, borrow: inPlace)
        let tourTag = column(columns.tourTag, borrow: inPlace)
        let typeID = column(columns.typeID, borrow: inPlace)
        let tourType = column(columns.tourType, borrow: inPlace)
        let spanWords = columns.span
        var span: _Column<Span>
        if inPlace, let base = spanWords.baseAddress, let owner {
            span = _Column(borrowing: UnsafeRawPointer(base).assumingMemoryBound(to: Span.self), count: slots, owner: owner)
        } else {
            span = _Column(count: slots) { out in
                for i in 0 ..< slots {
                    let w = spanWords[i]
                    out[i] = Span(enter: UInt32(truncatingIfNeeded: w), exit: UInt32(truncatingIfNeeded: w >> 32))
                }
            }
        }

        // The tour: first by the position-local rule (``_TourCheck``), which has no branch
        // on the data and counts the roots and wide tags; only if that finds something
        // wrong, front to back with a stack, which names the first flaw.
        let (fileType, fileTourType) = (columns.typeID, columns.tourType)
        let fast = Self._checkTour(columns, typeCount: typeCount, unusable: unusable, share: tourShare)
        let tourFlaw: _PreorderImageFlaw? = fast.sound && fast.enters == live ? nil : parent.withUnsafeBufferPointer { parent in
            narrowTag.withUnsafeBufferPointer { narrowTag in
            token.withUnsafeBufferPointer { token in
            tourTag.withUnsafeBufferPointer { tourTag in
            span.withUnsafeBufferPointer { span in
            unusable.withUnsafeBufferPointer { unusable in
                let open = UnsafeMutablePointer<Int32>.allocate(capacity: max(live, 1))
                defer { open.deallocate() }
                var depth = 0
                let types = Int32(typeCount)
                for p in 0 ..< 2 * live {
                    let t = token[p]
                    if t >= 0 {
                        let x = Int(t)
                        guard x < slots else { return flaw(.tourToken, p, "tour position \(p) enters slot \(t), not a slot of \(slots)") }
                        guard span[x].enter == UInt32(p) else {
                            return flaw(.span, x, "slot \(x) is entered at tour position \(p), but its span says \(span[x].enter)")
                        }
                        let expected = depth == 0 ? _TreeStorage.none : open[depth &- 1]
                        guard parent[x] == expected else {
                            return flaw(.parent, x, depth == 0
                                ? "slot \(x) begins a tree at tour position \(p) (no node is open there), but its parent is \(parent[x]), not -1"
                                : "slot \(x) is entered at tour position \(p) inside slot \(expected), but its parent is \(parent[x])")
                        }
                        let type = fileType[x]
                        guard type >= 0 && type < types else {
                            return flaw(.type, x, "slot \(x) has type \(type), not in the type table of \(types)")
                        }
                        guard !unusable[Int(type)] else {
                            return flaw(.type, x, "slot \(x) has type \(type), which the type table marks as no node's")
                        }
                        guard tourTag[p] == narrowTag[x] else {
                            return flaw(.tourTag, p, "tour position \(p) copies tag \(tourTag[p]), slot \(x) has \(narrowTag[x])")
                        }
                        guard fileTourType[p] == type else {
                            return flaw(.tourType, p, "tour position \(p) copies type \(fileTourType[p]), slot \(x) has \(type)")
                        }
                        // No more open than there are live nodes (the stack's room): a tour
                        // of enters alone, on spare slots, ends here.
                        guard depth < live else {
                            return flaw(.tourToken, p, "tour position \(p) enters slot \(x) with all \(live) live nodes open")
                        }
                        open[depth] = t
                        depth &+= 1
                    } else {
                        let x = Int(~t)
                        guard depth > 0 && open[depth &- 1] == ~t else {
                            return flaw(.tourToken, p, depth == 0
                                ? "tour position \(p) exits slot \(x) where no node is open"
                                : "tour position \(p) exits slot \(x) where slot \(open[depth &- 1]) is open (a child run that does not close)")
                        }
                        guard span[x].exit == UInt32(p) else {
                            return flaw(.span, x, "slot \(x) is exited at tour position \(p), but its span says \(span[x].exit)")
                        }
                        guard tourTag[p] == _ColumnImage.exitTag else {
                            return flaw(.tourTag, p, "tour position \(p) exits slot \(x) with tag copy \(tourTag[p]), not an exit's \(_ColumnImage.exitTag)")
                        }
                        guard fileTourType[p] == _ColumnImage.exitType else {
                            return flaw(.tourType, p, "tour position \(p) exits slot \(x) with type copy \(fileTourType[p]), not an exit's \(_ColumnImage.exitType)")
                        }
                        depth &-= 1
                    }
                }
                // 2 × live tokens, each enter pushing and each exit popping: balanced, and
                // with live enters, each of a different slot (its span names one position).
                guard depth == 0 else {
                    return flaw(.tourToken, 2 * live, "the tour ends with \(depth) nodes open")
                }
                return nil
            }}}}}
        }
        if let tourFlaw { throw tourFlaw }
        guard fast.sound && fast.enters == live else {
            // The stack check fails exactly the tours the rule fails: not reached.
            throw flaw(.tourToken, 0, "the tour is not a tree")
        }
        let (roots, wide) = (fast.roots, fast.wide)

        // The free list takes every other slot, once: after exactly slots - live steps it
        // ends (a cycle never would, and a live slot's parent is no free mark).
        var free: [Int32] = []
        free.reserveCapacity(slots - live)
        var x = columns.freeHead
        for k in 0 ..< slots - live {
            guard x >= 0 && Int(x) < slots else {
                throw flaw(k == 0 ? .freeHead : .parent, k == 0 ? 0 : Int(free[k - 1]),
                           "free-list entry \(k) is slot \(x), not a slot of \(slots) (\(slots - live) slots are free)")
            }
            let i = Int(x)
            guard _TreeStorage.isFree(parent[i]) else {
                throw flaw(k == 0 ? .freeHead : .parent, k == 0 ? 0 : Int(free[k - 1]),
                           "free-list entry \(k) is slot \(i), which is live")
            }
            guard columns.typeID[i] == 0 && narrowTag[i] == 0 && spanWords[i] == 0 else {
                throw flaw(.type, i, "free slot \(i) has a type, tag or span")
            }
            free.append(x)
            x = _TreeStorage.nextFree(parent[i])
            if k + 1 < slots - live && x == _TreeStorage.none {
                throw flaw(.parent, i, "the free list ends after \(k + 1) slots, \(slots - live) are free")
            }
        }
        guard x == _TreeStorage.none else {
            throw flaw(free.last.map { _ in .parent } ?? .freeHead, Int(free.last ?? 0),
                       "the free list goes on past the \(slots - live) free slots (a cycle, or a live slot on it)")
        }

        let (wideTags, attributes) = try parent.withUnsafeBufferPointer { (parent) throws(_PreorderImageFlaw) in
            try narrowTag.withUnsafeBufferPointer { (narrowTag) throws(_PreorderImageFlaw) in
                try Self._validateExtras(extras, slots: slots, free: free, wide: wide, parent: parent, narrowTag: narrowTag, textFlaws: textFlaws)
            }
        }

        let storage = _TreeStorage(
            checked: (parent, generation, typeID, narrowTag), wideTags: wideTags, freeHead: columns.freeHead, geometryOf: extras,
            attributes: attributes, live: live, roots: roots, tour: (span, token, tourTag, tourType))
        storage.borrowsMemory = [parent.isBorrowed, generation.isBorrowed, typeID.isBorrowed, narrowTag.isBorrowed,
                                 token.isBorrowed, tourTag.isBorrowed, tourType.isBorrowed, span.isBorrowed].contains(true)
        // The tour check passed and saw every enter in slot order: said for this version.
        if fast.enteredInSlotOrder { storage.slotOrderVersion = storage.version }
        self.init(_storage: storage)
    }
}


extension ViewTree {
    /// Whether the tree reads some of its columns in place from memory another object owns
    /// (a loaded snapshot's); its first change copies them.
    package var _borrowsMemory: Bool { _storage.borrowsMemory }
}

extension ViewTree {
    /// Renumbers the types of a tree just made by ``init(validatingColumns:typeCount:unusedTypes:extras:owner:textFlaws:tourShare:)``
    /// (which keeps the file's own type numbers): each live node's type `t`,
    /// and its copy in the index, becomes `typeMap[t]`. The two type columns become columns
    /// of the tree's own; the others stay as they are (borrowed or not), and so does the
    /// shape. How a loader checks a snapshot before this process's type ids are known (they
    /// are registered only once the checksum matches), and maps them after.
    ///
    /// - Precondition: every live node's type is an index of `typeMap` (checked by the load).
    /// - Complexity: O(slots + index positions)
    package mutating func _renumberTypes(_ typeMap: [Int32]) {
        if !isKnownUniquelyReferenced(&_storage) { _storage = _TreeStorage(copying: _storage) }
        let s = _storage
        let slots = s.slotCount
        let old = (typeID: s.typeID, tourType: s.tour.type)
        s.typeID = _Column(count: slots) { out in
            for x in 0 ..< slots { out[x] = _TreeStorage.isFree(s.parent[x]) ? old.typeID[x] : typeMap[Int(old.typeID[x])] }
        }
        let tokens = 2 * s.liveCount
        s.tour.type = _Column(count: old.tourType.count) { out in
            for p in 0 ..< old.tourType.count {
                out[p] = p < tokens && s.tour.token[p] >= 0 ? typeMap[Int(old.tourType[p])] : old.tourType[p]
            }
        }
    }
}

extension ViewTree {
    /// The tour positions in a piece of the check that a helper may take.
    package static let tourPiece = 1 << 16

    /// The position-local check (``_TourCheck``) of the whole saved tour in `columns`, in
    /// pieces of ``tourPiece`` positions that a helper of `share` may take some of; without
    /// `vector`, one position at a time even where the processor has AVX2.
    ///
    /// - Complexity: O(live)
    package static func _checkTour(
        _ columns: _ColumnPointers, typeCount: Int, unusable: [Bool], share: _WorkShare<_TourCheck.Tally>?, vector: Bool = true
    ) -> _TourCheck.Tally {
        let positions = 2 * columns.liveCount
        guard positions > 0, let token = columns.token.baseAddress, let parent = columns.parent.baseAddress,
              let span = columns.span.baseAddress, let narrowTag = columns.narrowTag.baseAddress,
              let typeID = columns.typeID.baseAddress, let tourTag = columns.tourTag.baseAddress,
              let tourType = columns.tourType.baseAddress
        else { return _TourCheck.Tally() }
        let usable: [Int32] = unusable.map { $0 ? 0 : 1 } + [0]
        return usable.withUnsafeBufferPointer { usable in
            var checker = _TourCheck(
                token: token, parent: parent, span: span, narrowTag: narrowTag, typeID: typeID, tourTag: tourTag,
                tourType: tourType, typeUsable: usable.baseAddress!, typeCount: typeCount, slots: columns.slotCount)
            checker.vector = vector
            let check = checker
            guard let share, positions > 2 * Self.tourPiece else { return check.check(0 ..< positions) }
            let pieces = (positions + Self.tourPiece - 1) / Self.tourPiece
            return share.run(pieces: pieces) { k in
                check.check(k * Self.tourPiece ..< min(positions, (k + 1) * Self.tourPiece))
            }.reduce(_TourCheck.Tally()) { $0.adding($1) }
        }
    }
}
