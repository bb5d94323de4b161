/// A ``ViewTree``'s columns as plain arrays, with the child order as the live nodes in
/// depth-first pre-order: what a snapshot stores (see the RelativeViewSnapshot module), and
/// all a tree is, since the index can be rebuilt from it in one pass.
///
/// `typeID` holds ``TypeID`` raw values of ``TypeRegistry/shared``; a free slot's `parent`
/// is its free-list mark, and its type and tag are not read.
package struct _ArenaImage: Sendable {
    package var parent: [Int32] = []
    package var generation: [UInt32] = []
    package var typeID: [Int32] = []
    package var narrowTag: [Int32] = []
    /// The tags that do not fit in an `Int32`, by slot, in increasing slot order.
    package var wideTags: [(slot: Int32, tag: Int)] = []
    package var freeHead: Int32 = _TreeStorage.none
    /// The live slots in depth-first pre-order (the order of the tour's enter tokens).
    package var preorder: [Int32] = []
    package var frameOrigin: [SIMD2<Double>] = []
    package var frameSize: [SIMD2<Double>] = []
    package var boundsOrigin: [SIMD2<Double>] = []
    /// One per ``NodeAttribute``, in its order: each slot's start in `bytes` (-1 for none)
    /// and the texts, each a LEB128 byte count then its UTF-8 bytes.
    package var attributes: [(start: [Int], bytes: [UInt8])] = []

    package init() {}

    /// The parent entry of a free slot, the one before `next` on the free list (-1 for none).
    package static func freeMark(next: Int32) -> Int32 { _TreeStorage.freeMark(next: next) }
    /// Whether a parent entry marks a free slot.
    package static func isFree(_ parent: Int32) -> Bool { _TreeStorage.isFree(parent) }
    /// The tag stored in `narrowTag` for a tag kept in `wideTags`.
    package static var wideTagSentinel: Int32 { _TreeStorage.wideTagSentinel }
}

/// Why an ``_ArenaImage`` is not a tree: the column and the element where it was found.
package struct _ArenaImageFlaw: Error, Sendable, Equatable {
    package enum Column: Sendable, Equatable {
        case parent, generation, typeID, narrowTag, wideTags, freeList, preorder
        case geometry
        case attribute(NodeAttribute)
    }

    package var column: Column
    /// The index of the element (slot, pre-order position, table entry) in its column.
    package var element: Int
    package var reason: String
}

extension ViewTree {
    /// The tree's columns and pre-order (arrays shared with the tree until one is changed).
    ///
    /// - Complexity: O(n) for the pre-order and the wide tags; the columns are shared.
    package func _image() -> _ArenaImage {
        let s = _storage
        var image = _ArenaImage()
        image.parent = s.parent
        image.generation = s.generation
        image.typeID = s.typeID
        image.narrowTag = s.narrowTag
        image.wideTags = s.wideTags.map { (slot: $0.key, tag: $0.value) }.sorted { $0.slot < $1.slot }
        image.freeHead = s.freeHead
        image.frameOrigin = s.frameOrigin
        image.frameSize = s.frameSize
        image.boundsOrigin = s.boundsOrigin
        image.attributes = s.attributes.map { (start: $0.start, bytes: $0.bytes) }
        var preorder: [Int32] = []
        preorder.reserveCapacity(s.liveCount)
        let tour = s.tour
        var b = tour.head
        while b >= 0 {
            let base = Int(b) * _TourBlocks.capacity
            for k in base ..< base + Int(tour.count[Int(b)]) where tour.token[k] >= 0 {
                preorder.append(tour.token[k])
            }
            b = tour.next[Int(b)]
        }
        image.preorder = preorder
        return image
    }

    /// The tree `image` describes, with its index built in the same pass that checks it, or
    /// the first flaw found. Every invariant of a tree is checked: columns of one length,
    /// parents that are live slots, a free list that holds every free slot once and ends,
    /// wide tags exactly where `narrowTag` says, types that ``TypeRegistry/shared`` knows, a
    /// pre-order that lists every live node once with each node inside its parent's run (so
    /// the parent links have no cycle), geometry and attributes only on live slots, and
    /// attribute texts that lie within their bytes. Node ids are the image's: slot and
    /// generation.
    ///
    /// - Complexity: O(n), n the number of slots (plus the attribute and wide-tag entries).
    package init(validating image: consuming _ArenaImage) throws(_ArenaImageFlaw) {
        let slots = image.parent.count
        func flaw(_ column: _ArenaImageFlaw.Column, _ element: Int, _ reason: String) -> _ArenaImageFlaw {
            _ArenaImageFlaw(column: column, element: element, reason: reason)
        }
        guard slots < Int(Int32.max) else { throw flaw(.parent, 0, "\(slots) slots: at most \(Int32.max - 1)") }
        guard image.generation.count == slots else { throw flaw(.generation, 0, "\(image.generation.count) generations for \(slots) slots") }
        guard image.typeID.count == slots else { throw flaw(.typeID, 0, "\(image.typeID.count) types for \(slots) slots") }
        guard image.narrowTag.count == slots else { throw flaw(.narrowTag, 0, "\(image.narrowTag.count) tags for \(slots) slots") }
        let typeCount = TypeRegistry.shared.count

        // The slots: parents, types and the tags kept in the wide table.
        var free = 0
        var roots = 0
        var wide = 0
        let firstFlaw: _ArenaImageFlaw? = image.parent.withUnsafeBufferPointer { parent in
            image.typeID.withUnsafeBufferPointer { type in
            image.narrowTag.withUnsafeBufferPointer { tag in
                for i in 0 ..< slots {
                    let p = parent[i]
                    if _TreeStorage.isFree(p) {
                        free &+= 1
                        continue
                    }
                    if p == _TreeStorage.none {
                        roots &+= 1
                    } else if Int(p) >= slots {
                        return flaw(.parent, i, "parent \(p) of slot \(i) is past the last slot, \(slots - 1)")
                    } else if _TreeStorage.isFree(parent[Int(p)]) {
                        return flaw(.parent, i, "parent \(p) of slot \(i) is a free slot")
                    }
                    guard type[i] >= 0 && Int(type[i]) < typeCount else {
                        return flaw(.typeID, i, "type \(type[i]) of slot \(i) is not a registered type")
                    }
                    if tag[i] == _TreeStorage.wideTagSentinel { wide &+= 1 }
                }
                return nil
            }}
        }
        if let firstFlaw { throw firstFlaw }
        let live = slots - free

        // The free list: it holds free slots only and ends; with as many steps as there are
        // free slots it cannot repeat one (a repeat would never end), so it holds each once.
        var x = image.freeHead
        var steps = 0
        while x != _TreeStorage.none {
            guard x >= 0 && Int(x) < slots else {
                throw flaw(.freeList, steps, "free-list entry \(steps), \(x), is not a slot")
            }
            let mark = image.parent[Int(x)]
            guard _TreeStorage.isFree(mark) else {
                throw flaw(.freeList, steps, "free-list entry \(steps), slot \(x), is live")
            }
            steps += 1
            guard steps <= free else {
                throw flaw(.freeList, steps, "the free list has a cycle (more than the \(free) free slots)")
            }
            x = _TreeStorage.nextFree(mark)
        }
        guard steps == free else { throw flaw(.freeList, steps, "the free list holds \(steps) of the \(free) free slots") }

        // The wide tags: one for each sentinel, on live slots, none that would fit narrow.
        guard image.wideTags.count == wide else {
            throw flaw(.wideTags, 0, "\(image.wideTags.count) wide tags for \(wide) slots that need one")
        }
        var wideTags: [Int32: Int] = [:]
        wideTags.reserveCapacity(wide)
        for (k, entry) in image.wideTags.enumerated() {
            let i = Int(entry.slot)
            guard i >= 0 && i < slots && !_TreeStorage.isFree(image.parent[i]) else {
                throw flaw(.wideTags, k, "wide tag \(k) is for slot \(entry.slot), not a live slot")
            }
            guard image.narrowTag[i] == _TreeStorage.wideTagSentinel, _TreeStorage.narrow(entry.tag) == nil else {
                throw flaw(.wideTags, k, "wide tag \(k) (slot \(i), tag \(entry.tag)) is not a tag that needs the wide table")
            }
            guard wideTags.updateValue(entry.tag, forKey: entry.slot) == nil else {
                throw flaw(.wideTags, k, "wide tag \(k) repeats slot \(i)")
            }
        }

        // Geometry and attributes: live slots only, texts within their bytes.
        let geometry = image.frameOrigin.count
        guard image.frameSize.count == geometry && image.boundsOrigin.count == geometry && geometry <= slots else {
            throw flaw(.geometry, 0, "geometry columns of \(image.frameOrigin.count), \(image.frameSize.count) and \(image.boundsOrigin.count) entries for \(slots) slots")
        }
        for i in 0 ..< geometry where _TreeStorage.isFree(image.parent[i]) {
            guard image.frameOrigin[i] == .zero && image.frameSize[i] == .zero && image.boundsOrigin[i] == .zero else {
                throw flaw(.geometry, i, "free slot \(i) has geometry")
            }
        }
        guard image.attributes.count <= NodeAttribute.allCases.count else {
            throw flaw(.attribute(.key), 0, "\(image.attributes.count) attribute columns: there are \(NodeAttribute.allCases.count) attributes")
        }
        for (a, column) in image.attributes.enumerated() {
            let attribute = NodeAttribute.allCases[a]
            if let problem = Self.attributeFlaw(column, slots: slots, parent: image.parent) {
                throw flaw(.attribute(attribute), problem.element, "\(attribute): \(problem.reason)")
            }
        }

        // The pre-order: every live node once, each inside its parent's run. The tour is
        // written in the same pass: a node's enter token, then, when a later node's parent
        // is an ancestor of it, the exit tokens of the nodes closed in between.
        guard image.preorder.count == live else {
            throw flaw(.preorder, 0, "the pre-order lists \(image.preorder.count) nodes, the tree has \(live)")
        }
        let storage = _TreeStorage(minimumCapacity: 0)
        let tokenSlots = (2 * live + _TourBlocks.capacity - 1) / _TourBlocks.capacity * _TourBlocks.capacity
        var span = [_TourBlocks.Span](repeating: _TourBlocks.Span(enter: .max, exit: .max), count: slots)
        var tokens = [Int32](repeating: 0, count: tokenSlots)
        var tourTags = [Int32](repeating: 0, count: tokenSlots)
        var tourTypes = [Int32](repeating: 0, count: tokenSlots)
        let buildFlaw: _ArenaImageFlaw? = image.preorder.withUnsafeBufferPointer { order in
            image.parent.withUnsafeBufferPointer { parent in
            image.typeID.withUnsafeBufferPointer { type in
            image.narrowTag.withUnsafeBufferPointer { tag in
            span.withUnsafeMutableBufferPointer { span in
            tokens.withUnsafeMutableBufferPointer { token in
            tourTags.withUnsafeMutableBufferPointer { tourTag in
            tourTypes.withUnsafeMutableBufferPointer { tourType in
                var open: [Int32] = []
                var slot = 0
                func close() {
                    let top = open.removeLast()
                    token[slot] = ~top
                    tourTag[slot] = Int32.min
                    tourType[slot] = _TourBlocks.exitType
                    span[Int(top)].exit = UInt32(truncatingIfNeeded: slot)
                    slot &+= 1
                }
                for k in 0 ..< order.count {
                    let x = order[k]
                    guard x >= 0 && Int(x) < slots && !_TreeStorage.isFree(parent[Int(x)]) else {
                        return flaw(.preorder, k, "pre-order entry \(k), \(x), is not a live slot")
                    }
                    guard span[Int(x)].enter == .max else {
                        return flaw(.preorder, k, "pre-order entry \(k) lists slot \(x) a second time")
                    }
                    let p = parent[Int(x)]
                    if p == _TreeStorage.none {
                        while !open.isEmpty { close() }
                    } else {
                        while let top = open.last, top != p { close() }
                        guard !open.isEmpty else {
                            return flaw(.preorder, k, "pre-order entry \(k), slot \(x), does not follow its parent \(p)'s run (a parent listed after its child, a cycle, or a broken child run)")
                        }
                    }
                    token[slot] = x
                    tourTag[slot] = tag[Int(x)]
                    tourType[slot] = type[Int(x)]
                    span[Int(x)].enter = UInt32(truncatingIfNeeded: slot)
                    slot &+= 1
                    open.append(x)
                }
                while !open.isEmpty { close() }
                return nil
            }}}}}}}
        }
        if let buildFlaw { throw buildFlaw }
        // Free slots have no positions; zero them as a tree's are never read.
        if free > 0 {
            for i in 0 ..< slots where _TreeStorage.isFree(image.parent[i]) { span[i] = _TourBlocks.Span(enter: 0, exit: 0) }
        }

        storage.parent = image.parent
        storage.generation = image.generation
        storage.typeID = image.typeID
        storage.narrowTag = image.narrowTag
        storage.wideTags = wideTags
        storage.freeHead = image.freeHead
        storage.frameOrigin = image.frameOrigin
        storage.frameSize = image.frameSize
        storage.boundsOrigin = image.boundsOrigin
        for (a, column) in image.attributes.enumerated() where !column.start.isEmpty {
            storage.attributes[a] = _TextColumn(start: column.start, bytes: column.bytes)
        }
        storage.liveCount = live
        storage.rootCount = roots
        storage.tour.span = span
        storage.tour.token = tokens
        storage.tour.tag = tourTags
        storage.tour.type = tourTypes
        storage.tour.adoptStreamedBlocks(tokens: 2 * live)
        self.init(_storage: storage)
    }

    /// The first flaw of an attribute column: a start past the arena, on a free slot, or
    /// out of its bytes, or a text whose length runs past them.
    private static func attributeFlaw(_ column: (start: [Int], bytes: [UInt8]), slots: Int, parent: [Int32]) -> (element: Int, reason: String)? {
        guard column.start.count <= slots else {
            return (0, "\(column.start.count) entries for \(slots) slots")
        }
        return column.bytes.withUnsafeBufferPointer { bytes in
            for (i, start) in column.start.enumerated() where start != -1 {
                guard !_TreeStorage.isFree(parent[i]) else { return (i, "free slot \(i) has a text") }
                guard start >= 0 && start < bytes.count else { return (i, "slot \(i)'s text starts at \(start), outside the \(bytes.count) bytes") }
                // The LEB128 byte count, read with bounds checks (the tree reads it without).
                var (count, shift, j) = (0, 0, start)
                while true {
                    guard j < bytes.count, shift < 63 else { return (i, "slot \(i)'s text length runs past the bytes") }
                    let byte = bytes[j]
                    count |= Int(byte & 0x7F) << shift
                    j += 1
                    if byte < 0x80 { break }
                    shift += 7
                }
                guard count >= 0 && count <= bytes.count - j else {
                    return (i, "slot \(i)'s text of \(count) bytes runs past the bytes")
                }
            }
            return nil
        }
    }
}
