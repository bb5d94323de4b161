import RelativeViewCore
import RelativeViewEngine
import CSnapshotKernels
/// A ``ViewTree`` as a snapshot stores it (see the RelativeViewSnapshot module): the live
/// nodes in depth-first pre-order, each with its slot, its parent's position in that order,
/// its tag and its type; the free slots in free-list order; and the slot-indexed columns a
/// pre-order does not give (generations, geometry, attributes). That is all a tree is: the
/// index and the slot-indexed parent, tag and type columns are rebuilt from it in one pass
/// that reads the pre-order front to back, so its cost is the writes, not cache misses.
package struct _PreorderImage: Sendable {
    /// One live node, in pre-order: its slot, the pre-order position of its parent (-1 for
    /// a root), its tag (``wideTagSentinel`` for one kept in `wideTags`) and its type
    /// (a ``TypeID`` raw value once mapped; see ``ViewTree/init(validating:typeMap:)``).
    package struct Node: Sendable, Equatable {
        package var slot: Int32
        package var parent: Int32
        package var tag: Int32
        package var type: Int32

        package init(slot: Int32, parent: Int32, tag: Int32, type: Int32) {
            (self.slot, self.parent, self.tag, self.type) = (slot, parent, tag, type)
        }
    }

    /// Per slot, live or free.
    package var generation: [UInt32] = []
    /// The live nodes in depth-first pre-order (the order of the tour's enter tokens).
    package var nodes: [Node] = []
    /// The free slots, in free-list order (the next node made takes the first).
    package var free: [Int32] = []
    /// The tags that do not fit in an `Int32`, by slot, in increasing slot order.
    package var wideTags: [(slot: Int32, tag: Int)] = []
    package var frameOrigin: [SIMD2<Double>] = []
    package var frameSize: [SIMD2<Double>] = []
    package var boundsOrigin: [SIMD2<Double>] = []
    /// One per ``NodeAttribute``, in its order: each slot's start in `bytes` (-1 for none)
    /// and the texts, each a LEB128 byte count then its UTF-8 bytes.
    package var attributes: [(start: [Int], bytes: [UInt8])] = []
    /// Per ``NodeAttribute``, in its order, where given: the column read in place from
    /// memory its owner keeps (a loaded snapshot's), used instead of `attributes`' entry.
    package var borrowedAttributes: [_BorrowedTexts?] = []
    /// Whether the attribute texts (starts within the bytes, lengths that fit) were already
    /// checked, with ``ViewTree/_attributeTextFlaw(starts:bytes:)``, so that validation
    /// checks only that free slots have none.
    package var attributeTextsChecked = false

    package init() {}

    /// The number of slots, live or free.
    package var slotCount: Int { generation.count }

    /// The tag stored for a tag kept in `wideTags`.
    package static var wideTagSentinel: Int32 { _TreeStorage.wideTagSentinel }
}

/// Why an ``_PreorderImage`` is not a tree: the part and the element where it was found.
package struct _PreorderImageFlaw: Error, Sendable, Equatable {
    package enum Part: Sendable, Equatable {
        /// A field of a pre-order node: the element is its position.
        case nodeSlot, nodeParent, nodeType
        /// An element of the free list.
        case free
        /// A slot (its generation's place stands for it).
        case slot
        case wideTags
        case geometry
        case attribute(NodeAttribute)
        /// A slot column's entry (version 2, read in place): the element is the slot.
        case parent, type, span
        /// An index position (version 2): the element is the tour position.
        case tourToken, tourTag, tourType
        /// The free list's head (version 2).
        case freeHead
    }

    package var part: Part
    /// The index of the element (pre-order position, free-list entry, slot, table entry).
    package var element: Int
    package var reason: String
}

extension ViewTree {
    /// The tree as an image: its pre-order with the parents as positions (unless
    /// `preOrder` is false: a writer that stores the columns as they are has no use for
    /// it), its free list, and its slot columns (shared with the tree until one is changed).
    ///
    /// - Complexity: O(n)
    package func _image(preOrder: Bool = true) -> _PreorderImage {
        precondition(!_hasPendingRemovals, "an image of a tree whose removed nodes wait to be freed: image _settled()")
        let s = _storage
        var image = _PreorderImage()
        image.generation = s.generation.array
        // The image has one per slot (a snapshot stores them all).
        image.generation.append(contentsOf: repeatElement(0, count: s.slotCount - s.generation.count))
        image.wideTags = s.wideTags.map { (slot: $0.key, tag: $0.value) }.sorted { $0.slot < $1.slot }
        image.frameOrigin = s.frameOrigin
        image.frameSize = s.frameSize
        image.boundsOrigin = s.boundsOrigin
        image.attributes = s.attributes.map { column in
            column.borrowed == nil ? (start: column.start.array(), bytes: column.bytes) : column.withParts { (start: $0.array(), bytes: Array($1)) }
        }
        if preOrder { image.nodes = _preOrder() }
        var x = s.freeHead
        while x != _TreeStorage.none {
            image.free.append(x)
            x = _TreeStorage.nextFree(s.parent[Int(x)])
        }
        return image
    }

    /// The live nodes in pre-order, each with its parent's position in it (see
    /// ``_PreorderImage/nodes``).
    ///
    /// - Complexity: O(n)
    private func _preOrder() -> [_PreorderImage.Node] {
        let s = _storage
        var position = [Int32](repeating: -1, count: s.slotCount)
        var nodes: [_PreorderImage.Node] = []
        nodes.reserveCapacity(s.liveCount)
        let tour = s.tour
        var b = tour.head
        while b >= 0 {
            let base = Int(b) * _TourBlocks.capacity
            for k in base ..< base + Int(tour.count[Int(b)]) where tour.token[k] >= 0 {
                let x = Int(tour.token[k])
                let p = s.parent[x]
                position[x] = Int32(nodes.count)
                nodes.append(_PreorderImage.Node(slot: Int32(x), parent: p < 0 ? -1 : position[Int(p)], tag: s.narrowTag[x], type: s.typeID[x]))
            }
            b = tour.next[Int(b)]
        }
        return nodes
    }

    /// The tree `image` describes, with its index, or the first flaw found.
    ///
    /// `typeMap` maps the image's type numbers to ``TypeID`` raw values (a snapshot numbers
    /// its types in its own table). Every invariant of a tree is checked: a generation per
    /// slot; pre-order nodes on slots in range, each parent an earlier node whose run is
    /// still open (so the links have no cycle and every child run closes), types in the
    /// map; each slot live or free exactly once (the pre-order and the free list together
    /// name every slot: with as many entries as slots, a slot named twice leaves another
    /// unnamed, and that is found); wide tags exactly where the pre-order says; geometry and
    /// attributes only on live slots, and attribute texts that lie within their bytes.
    /// Node ids are the image's: slot and generation.
    ///
    /// - Complexity: O(n), n the number of slots (plus the attribute and wide-tag entries).
    package init(validating image: _PreorderImage, typeMap: [Int32]) throws(_PreorderImageFlaw) {
        let nodes = image.nodes
        let result = nodes.withUnsafeBufferPointer { nodes in
            Result { () throws(_PreorderImageFlaw) in try ViewTree(validating: image, nodes: nodes, typeMap: typeMap) }
        }
        self = try result.get()
    }

    /// ``init(validating:typeMap:)`` with the pre-order nodes in `nodes` (read in place,
    /// from a snapshot's bytes, say) instead of `image.nodes`, which is ignored.
    ///
    /// - Complexity: O(n), n the number of slots (plus the attribute and wide-tag entries).
    ///
    /// With `image.attributeTextsChecked`, `textFlaws` gives the first text flaw of each
    /// attribute column (by ``NodeAttribute`` raw value; `nil` or missing for none), found by
    /// ``_attributeTextFlaw(starts:bytes:parent:)`` without `parent` (on another thread, say);
    /// it is called once, when the attributes are checked, and merged with the free-slot
    /// check so that the flaw reported is the one a check of everything here would report.
    package init(
        validating image: _PreorderImage, nodes: UnsafeBufferPointer<_PreorderImage.Node>, typeMap: [Int32],
        textFlaws: () -> [(element: Int, reason: String)?] = { [] }
    ) throws(_PreorderImageFlaw) {
        let slots = image.generation.count
        let live = nodes.count
        func flaw(_ part: _PreorderImageFlaw.Part, _ element: Int, _ reason: String) -> _PreorderImageFlaw {
            _PreorderImageFlaw(part: part, element: element, reason: reason)
        }
        guard slots < Int(Int32.max) else { throw flaw(.slot, 0, "\(slots) slots: at most \(Int32.max - 1)") }
        guard live + image.free.count == slots else {
            throw flaw(.slot, 0, "\(live) live nodes and \(image.free.count) free slots for \(slots) slots")
        }

        // The pre-order, front to back: each node's slot columns (scattered writes) and
        // its tokens (written in order). A parent is found on the stack of open nodes,
        // never read from a column, so no read waits on a cache miss.
        let unnamed = Int32.min
        var parent = _Column<Int32>._large(repeating: unnamed, count: slots)
        var narrowTag = _Column<Int32>._large(repeating: 0, count: slots)
        var typeID = _Column<Int32>._large(repeating: 0, count: slots)
        var span = _Column<_TourBlocks.Span>._large(repeating: _TourBlocks.Span(enter: 0, exit: 0), count: slots)
        let tokenCount = 2 * live
        let tokenSlots = (tokenCount + _TourBlocks.capacity - 1) / _TourBlocks.capacity * _TourBlocks.capacity
        var tokens = _Column<Int32>._large(repeating: 0, count: tokenSlots)
        var tourTags = _Column<Int32>._large(repeating: 0, count: tokenSlots)
        var tourTypes = _Column<Int32>._large(repeating: 0, count: tokenSlots)
        var roots = 0
        var wide = 0
        let orderFlaw: _PreorderImageFlaw? = typeMap.withUnsafeBufferPointer { typeMap in
            parent.withUnsafeMutableBufferPointer { parent in
            narrowTag.withUnsafeMutableBufferPointer { narrowTag in
            typeID.withUnsafeMutableBufferPointer { typeID in
            span.withUnsafeMutableBufferPointer { span in
            tokens.withUnsafeMutableBufferPointer { token in
            tourTags.withUnsafeMutableBufferPointer { tourTag in
            tourTypes.withUnsafeMutableBufferPointer { tourType in
                // The open nodes: their pre-order positions and slots.
                let open = UnsafeMutablePointer<(position: Int32, slot: Int32)>.allocate(capacity: max(live, 1))
                defer { open.deallocate() }
                var depth = 0
                var at = 0
                @inline(__always) func close() {
                    depth &-= 1
                    let top = open[depth].slot
                    token[at] = ~top
                    tourTag[at] = Int32.min
                    tourType[at] = _TourBlocks.exitType
                    span[Int(top)].exit = UInt32(truncatingIfNeeded: at)
                    at &+= 1
                }
                for k in 0 ..< nodes.count {
                    let node = nodes[k]
                    let x = Int(node.slot)
                    guard x >= 0 && x < slots else {
                        return flaw(.nodeSlot, k, "pre-order node \(k) is on slot \(node.slot), not a slot of \(slots)")
                    }
                    guard node.type >= 0 && Int(node.type) < typeMap.count else {
                        return flaw(.nodeType, k, "pre-order node \(k) (slot \(x)) has type \(node.type), not in the type table of \(typeMap.count)")
                    }
                    let p = node.parent
                    if p == -1 {
                        while depth > 0 { close() }
                        parent[x] = _TreeStorage.none
                        roots &+= 1
                    } else {
                        guard p >= 0 && Int(p) < k else {
                            return flaw(.nodeParent, k, "pre-order node \(k) (slot \(x)) has parent \(p): a parent comes before its child, so -1 or 0 ... \(k - 1)")
                        }
                        while depth > 0 && open[depth &- 1].position != p { close() }
                        guard depth > 0 else {
                            return flaw(.nodeParent, k, "pre-order node \(k) (slot \(x)) is not in its parent \(p)'s run: the parent's children ended before it")
                        }
                        parent[x] = open[depth &- 1].slot
                    }
                    let type = typeMap[Int(node.type)]
                    narrowTag[x] = node.tag
                    typeID[x] = type
                    if node.tag == _TreeStorage.wideTagSentinel { wide &+= 1 }
                    token[at] = Int32(x)
                    tourTag[at] = node.tag
                    tourType[at] = type
                    span[x].enter = UInt32(truncatingIfNeeded: at)
                    at &+= 1
                    open[depth] = (Int32(k), Int32(x))
                    depth &+= 1
                }
                while depth > 0 { close() }
                return nil
            }}}}}}}
        }
        if let orderFlaw { throw orderFlaw }

        // The free list, in order: each entry's parent is the mark that links to the next.
        for (j, f) in image.free.enumerated() {
            guard f >= 0 && Int(f) < slots else { throw flaw(.free, j, "free-list entry \(j) is slot \(f), not a slot of \(slots)") }
            let next = j + 1 < image.free.count ? image.free[j + 1] : _TreeStorage.none
            parent[Int(f)] = _TreeStorage.freeMark(next: next)
        }
        // Every slot named once: with live + free == slots entries, a slot named twice
        // (twice in the pre-order, twice on the free list, or in both) leaves one unnamed.
        if let i = parent.firstIndex(of: unnamed) {
            throw flaw(.slot, i, "slot \(i) is neither in the pre-order nor on the free list (another slot is named twice)")
        }

        let (wideTags, columns) = try parent.withUnsafeBufferPointer { (parent) throws(_PreorderImageFlaw) in
            try narrowTag.withUnsafeBufferPointer { (narrowTag) throws(_PreorderImageFlaw) in
                try Self._validateExtras(image, slots: slots, free: image.free, wide: wide, parent: parent, narrowTag: narrowTag, textFlaws: textFlaws)
            }
        }

        self.init(_storage: _TreeStorage(
            checked: (parent, _Column(image.generation), typeID, narrowTag), wideTags: wideTags, freeHead: image.free.first ?? _TreeStorage.none,
            geometryOf: image, attributes: columns, live: live, roots: roots, tour: (span, tokens, tourTags, tourTypes)))
    }

    /// Whether every start in `starts` is -1 (none) or a text within `bytes`, as
    /// ``_attributeTextFlaw(starts:bytes:parent:)`` checks without `parent`, but with no
    /// branch on whether a slot has a text (the check that names a flaw has one, and
    /// mispredicts it on texts that come and go at random): run it first, and the other
    /// only when it says no. It also says no to a length of two bytes or more (a text of 128
    /// bytes or more), which the other reads, and to any column but an empty one on a
    /// 32-bit platform. Without `vector`, one start at a time even where the processor has
    /// AVX2.
    ///
    /// - Complexity: O(starts.count)
    package static func _attributeTextsAreSound(
        starts: _TextStarts, bytes: UnsafeBufferPointer<UInt8>, vector: Bool = true
    ) -> Bool {
        // 32-bit platforms read no texts in place (`SnapshotReader.textsInPlace`), so do not
        // come here: there the answer is no, which leaves the texts to the other check.
        guard MemoryLayout<Int>.size == 8, let first = starts.base else { return starts.count == 0 }
        // In C (CSnapshotKernels): wide starts four at a time with AVX2 where the processor
        // has it, narrow ones eight at a time.
        let text = bytes.baseAddress
        return starts.isNarrow
            ? first.withMemoryRebound(to: UInt32.self, capacity: starts.count) { rv_texts_sound32($0, starts.count, text, bytes.count, vector ? 1 : 0) != 0 }
            : first.withMemoryRebound(to: Int64.self, capacity: starts.count) { rv_texts_sound($0, starts.count, text, bytes.count, vector ? 1 : 0) != 0 }
    }

    /// ``_attributeTextsAreSound(starts:bytes:vector:)`` of wide starts.
    package static func _attributeTextsAreSound(
        starts: UnsafeBufferPointer<Int>, bytes: UnsafeBufferPointer<UInt8>, vector: Bool = true
    ) -> Bool {
        _attributeTextsAreSound(starts: _TextStarts(starts), bytes: bytes, vector: vector)
    }

    /// The first flaw of an attribute column, by slot: with `parent` (the tree's parent
    /// column), a text on a free slot; a start (other than -1, none) outside its bytes, or a
    /// text whose length runs past them. Without `parent`, the texts alone: a caller that
    /// checks them apart merges the free slots in (``init(validating:nodes:typeMap:textFlaws:)``).
    /// With `slots`, only those slots' starts.
    ///
    /// - Complexity: O(starts.count), or O(slots.count)
    package static func _attributeTextFlaw(
        starts: UnsafeBufferPointer<Int>, bytes: UnsafeBufferPointer<UInt8>, parent: UnsafeBufferPointer<Int32>? = nil,
        slots: Range<Int>? = nil
    ) -> (element: Int, reason: String)? {
        _attributeTextFlaw(starts: _TextStarts(starts), bytes: bytes, parent: parent, slots: slots)
    }

    /// The first flaw of a text column as ``_attributeTextFlaw(starts:bytes:parent:slots:)``
    /// with `parent` reports it, from `found` (its first flaw without `parent`, found apart)
    /// and the `free` slots: the lowest free slot with a text against `found`, the lower
    /// slot first, a free slot first at the same slot.
    ///
    /// - Complexity: O(free slots)
    package static func _textFlaw(
        found: (element: Int, reason: String)?, starts: _TextStarts, free: some Sequence<Int32>
    ) -> (element: Int, reason: String)? {
        var lowest: Int?
        for f in free where Int(f) < starts.count && starts[Int(f)] != -1 { lowest = min(lowest ?? Int(f), Int(f)) }
        if let lowest, found.map({ lowest <= $0.element }) ?? true { return (lowest, "free slot \(lowest) has a text") }
        return found
    }

    /// ``_attributeTextFlaw(starts:bytes:parent:slots:)`` of starts wide or narrow.
    package static func _attributeTextFlaw(
        starts: _TextStarts, bytes: UnsafeBufferPointer<UInt8>, parent: UnsafeBufferPointer<Int32>? = nil,
        slots: Range<Int>? = nil
    ) -> (element: Int, reason: String)? {
        let n = bytes.count
        for i in slots ?? 0 ..< starts.count {
            let start = starts[i]
            if start == -1 { continue }
            if let parent, _TreeStorage.isFree(parent[i]) { return (i, "free slot \(i) has a text") }
            guard start >= 0 && start < n else { return (i, "slot \(i)'s text starts at \(start), outside the \(n) bytes") }
            // The LEB128 byte count, read with bounds checks (the builder's reads go without).
            guard let (count, j) = _TextColumn.checkedLength(in: bytes, at: start) else {
                return (i, "slot \(i)'s text length runs past the bytes")
            }
            guard count >= 0 && count <= n &- j else {
                return (i, "slot \(i)'s text of \(count) bytes runs past the bytes")
            }
        }
        return nil
    }
}

extension _TreeStorage {
    /// A storage of checked parts (a loaded snapshot's): the node columns (parent,
    /// generation, type, narrow tag), the wide tags, the free list's head, `image`'s
    /// geometry, the attribute columns, the counts, and the tour's columns (span, token,
    /// tag and type copies) laid out in tour order from slot 0, full blocks.
    ///
    /// - Complexity: O(blocks)
    convenience init(
        checked columns: (parent: _Column<Int32>, generation: _Column<UInt32>, typeID: _Column<Int32>, narrowTag: _Column<Int32>),
        wideTags: [Int32: Int], freeHead: Int32, geometryOf image: _PreorderImage, attributes: [_TextColumn], live: Int, roots: Int,
        tour: (span: _Column<_TourBlocks.Span>, token: _Column<Int32>, tag: _Column<Int32>, type: _Column<Int32>)
    ) {
        self.init(minimumCapacity: 0)
        (parent, generation, typeID, narrowTag) = columns
        self.wideTags = wideTags
        self.freeHead = freeHead
        (frameOrigin, frameSize, boundsOrigin) = (image.frameOrigin, image.frameSize, image.boundsOrigin)
        for (a, column) in attributes.enumerated() where !column.isEmpty { self.attributes[a] = column }
        (liveCount, rootCount) = (live, roots)
        (self.tour.span, self.tour.token, self.tour.tag, self.tour.type) = tour
        self.tour.adoptStreamedBlocks(tokens: 2 * live)
    }
}

extension ViewTree {
    /// The checks of an image's parts beyond the structure, given the checked `parent` and
    /// `narrowTag` columns, the free slots in free-list order and the number of live nodes
    /// whose tag is wide: the wide tags (one for each sentinel, on live slots, none that
    /// would fit narrow), geometry (none on free slots) and attributes (none on free slots,
    /// texts within their bytes; see ``init(validating:nodes:typeMap:textFlaws:)`` for
    /// `textFlaws`). Returns the wide-tag table and the attribute columns.
    ///
    /// - Complexity: O(slots + entries)
    static func _validateExtras(
        _ image: _PreorderImage, slots: Int, free: [Int32], wide: Int, parent: UnsafeBufferPointer<Int32>,
        narrowTag: UnsafeBufferPointer<Int32>, textFlaws: () -> [(element: Int, reason: String)?]
    ) throws(_PreorderImageFlaw) -> (wideTags: [Int32: Int], attributes: [_TextColumn]) {
        func flaw(_ part: _PreorderImageFlaw.Part, _ element: Int, _ reason: String) -> _PreorderImageFlaw {
            _PreorderImageFlaw(part: part, element: element, reason: reason)
        }
        // The wide tags: one for each sentinel, on live slots, none that would fit narrow.
        guard image.wideTags.count == wide else {
            throw flaw(.wideTags, 0, "\(image.wideTags.count) wide tags for \(wide) nodes that need one")
        }
        var wideTags: [Int32: Int] = [:]
        wideTags.reserveCapacity(wide)
        for (k, entry) in image.wideTags.enumerated() {
            let i = Int(entry.slot)
            guard i >= 0 && i < slots && !_TreeStorage.isFree(parent[i]) else {
                throw flaw(.wideTags, k, "wide tag \(k) is for slot \(entry.slot), not a live slot")
            }
            guard narrowTag[i] == _TreeStorage.wideTagSentinel, _TreeStorage.narrow(entry.tag) == nil else {
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
        for i in 0 ..< geometry where _TreeStorage.isFree(parent[i]) {
            guard image.frameOrigin[i] == .zero && image.frameSize[i] == .zero && image.boundsOrigin[i] == .zero else {
                throw flaw(.geometry, i, "free slot \(i) has geometry")
            }
        }
        guard image.attributes.count <= NodeAttribute.allCases.count && image.borrowedAttributes.count <= NodeAttribute.allCases.count else {
            throw flaw(.attribute(.key), 0, "\(max(image.attributes.count, image.borrowedAttributes.count)) attribute columns: there are \(NodeAttribute.allCases.count) attributes")
        }
        var columns: [_TextColumn] = []
        var checkedFlaws: [(element: Int, reason: String)?]?
        for a in 0 ..< max(image.attributes.count, image.borrowedAttributes.count) {
            let attribute = NodeAttribute.allCases[a]
            let column = if a < image.borrowedAttributes.count, let borrowed = image.borrowedAttributes[a] {
                _TextColumn(borrowing: borrowed)
            } else if a < image.attributes.count {
                _TextColumn(start: image.attributes[a].start, bytes: image.attributes[a].bytes)
            } else {
                _TextColumn()
            }
            if image.attributeTextsChecked && checkedFlaws == nil { checkedFlaws = textFlaws() }
            let problem: (element: Int, reason: String)? = column.withParts { starts, bytes -> (element: Int, reason: String)? in
                guard starts.count <= slots else { return (0, "\(starts.count) entries for \(slots) slots") }
                guard let checked = checkedFlaws else {
                    return Self._attributeTextFlaw(starts: starts, bytes: bytes, parent: parent)
                }
                return Self._textFlaw(found: a < checked.count ? checked[a] : nil, starts: starts, free: free)
            }
            if let problem { throw flaw(.attribute(attribute), problem.element, "\(attribute): \(problem.reason)") }
            columns.append(column)
        }

        return (wideTags, columns)
    }
}

extension ViewTree {
    /// A tree that reads this one's node columns and index in place, borrowed (kept alive
    /// by this tree's storage), with no copy: how a tree loaded from a mapped snapshot will
    /// hold the file's memory, here over memory a tree owns, so that tests can drive the
    /// borrowing path (queries read in place; the first change copies into memory of the
    /// tree's own and leaves the lender as it was). Geometry, attributes and wide tags are
    /// shared as the copy-on-write arrays they are.
    ///
    /// - Complexity: O(1), plus O(attribute columns).
    package func _borrowingColumns() -> ViewTree {
        let s = _storage
        func borrowed<Element>(_ column: _Column<Element>) -> _Column<Element> {
            column.withUnsafeBufferPointer { _Column(borrowing: $0.baseAddress!, count: $0.count, owner: s) }
        }
        let b = _TreeStorage(minimumCapacity: 0)
        b.parent = borrowed(s.parent)
        b.generation = borrowed(s.generation)
        b.typeID = borrowed(s.typeID)
        b.narrowTag = borrowed(s.narrowTag)
        b.wideTags = s.wideTags
        b.freeHead = s.freeHead
        b.frameOrigin = s.frameOrigin
        b.frameSize = s.frameSize
        b.boundsOrigin = s.boundsOrigin
        b.attributes = s.attributes
        b.liveCount = s.liveCount
        b.rootCount = s.rootCount
        var tour = s.tour
        tour.token = borrowed(tour.token)
        tour.tag = borrowed(tour.tag)
        tour.type = borrowed(tour.type)
        tour.count = borrowed(tour.count)
        tour.next = borrowed(tour.next)
        tour.previous = borrowed(tour.previous)
        tour.label = borrowed(tour.label)
        tour.span = borrowed(tour.span)
        b.tour = tour
        // The same shape: positions kept by views of the lender stay right.
        b.version = s.version
        b.identity = s.identity
        b.borrowsMemory = true
        return ViewTree(_storage: b)
    }
}
