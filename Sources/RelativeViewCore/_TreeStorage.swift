import RelativeViewEngine
import Synchronization

/// The columns of a ``ViewTree``: one final class, copied on write by `ViewTree`.
///
/// Layout per slot (16 bytes): `parent` (for a free slot, the free list's link, see
/// ``freeMark(next:)``), `generation`, `typeID` and `narrowTag`; the index adds each node's
/// two tour positions (8 bytes) and its two tokens. There are no child or sibling columns:
/// a node's first and last child and its siblings are its neighbours in the tour (see
/// ``firstChild(_:)``).
/// Tags that do not fit in an `Int32` (and `Int32.min` itself) are stored as the
/// sentinel ``_TreeStorage/wideTagSentinel`` with the real value in `wideTags`.
///
/// The live index is ``tour`` (a ``_TourBlocks``): the forest's Euler tour in blocks with
/// order labels, which every mutation keeps up to date, so there is no stale state and
/// the index itself is never built lazily (a query engine's document order, derived from
/// one version, is: see ``derived``). The columns and the tour only change through `mutating`
/// methods of a uniquely referenced `ViewTree`, which is why this class can be
/// `@unchecked Sendable` (a finished tree is immutable while shared, and queries from many
/// threads only read), and why its columns opt out of dynamic exclusivity checks
/// (`@exclusivity(unchecked)`): no read can overlap a write, and the checks would cost more
/// than an O(1) query itself.
@usableFromInline
package final class _TreeStorage: @unchecked Sendable {
    @usableFromInline package static let none: Int32 = -1
    /// `parent` of the last slot on the free list; the others hold ``freeMark(next:)``, below it.
    @usableFromInline package static let free: Int32 = -2
    @usableFromInline package static let wideTagSentinel: Int32 = .min

    @usableFromInline @exclusivity(unchecked) package var parent: _Column<Int32>
    /// Per slot, or shorter: a slot past its end has generation 0. A streamed build
    /// (``ViewTreeBuilder``) writes none, since all its nodes have generation 0; the column
    /// grows when a slot past it is freed (see `_free`), so it costs a tree that never
    /// removes a node nothing (4 bytes per node, 7% of what an import writes).
    @usableFromInline @exclusivity(unchecked) package var generation: _Column<UInt32>
    @usableFromInline @exclusivity(unchecked) package var typeID: _Column<Int32>
    @usableFromInline @exclusivity(unchecked) package var narrowTag: _Column<Int32>
    @usableFromInline @exclusivity(unchecked) package var wideTags: [Int32: Int]
    @usableFromInline @exclusivity(unchecked) package var freeHead: Int32
    /// Geometry columns (see `ViewTree+Geometry.swift`): each node's frame origin and size in
    /// its parent's space, and its bounds origin. Empty until the first geometry write, and
    /// after that as long as the other columns (or shorter): a slot past their end has zero
    /// geometry, so trees that never lay out pay nothing for them.
    @usableFromInline @exclusivity(unchecked) package var frameOrigin: [SIMD2<Double>]
    @usableFromInline @exclusivity(unchecked) package var frameSize: [SIMD2<Double>]
    @usableFromInline @exclusivity(unchecked) package var boundsOrigin: [SIMD2<Double>]
    /// One text column per ``NodeAttribute`` (empty until a node gets that attribute).
    @usableFromInline @exclusivity(unchecked) package var attributes: [_TextColumn]
    /// The nodes' own texts and named attributes (empty until a node gets one).
    @usableFromInline @exclusivity(unchecked) package var content: _Content
    @usableFromInline @exclusivity(unchecked) package var liveCount: Int
    /// The number of live nodes with no parent, kept by the mutations so that a tree can
    /// say how many roots it has without scanning the arena.
    @usableFromInline @exclusivity(unchecked) package var rootCount: Int

    /// The live index: the Euler tour of the forest, kept by every mutation.
    @usableFromInline @exclusivity(unchecked) package var tour: _TourBlocks
    /// Whether a node column or an index array borrows memory another object owns (a
    /// loaded snapshot's, read in place): such a storage is copied, into memory of its own,
    /// before its first mutation, as a shared one is (see `ViewTree._mutableStorage()`).
    @usableFromInline @exclusivity(unchecked) package var borrowsMemory = false
    /// Names the tree's current shape: a number no other shape of any tree ever has, replaced
    /// by every mutation (geometry aside). Tour positions read while it is current are current.
    @usableFromInline @exclusivity(unchecked) package var version: UInt64
    /// The version at which a check proved that the tour enters the slots in slot order
    /// (a loaded snapshot's tour check: slot 0 first, each next enter the next slot), 0 for
    /// none: while it is the current version, a query index takes each node's end from its
    /// span without first scanning the spans for that order.
    @usableFromInline @exclusivity(unchecked) package var slotOrderVersion: UInt64 = 0
    /// Whether an HTML parser read the document (see ``ViewTree/isHTMLDocument``).
    @usableFromInline @exclusivity(unchecked) package var isHTML = false
    /// The tree's identity, added to a slot's generation to make a ``NodeID``'s stamp, so
    /// that an id of another tree fails the check (see ``NodeID``). Drawn when a tree is
    /// created, from its first version (distinct for every storage made), mixed so that
    /// two trees' identities differ in every bit at random; a copy keeps it.
    @usableFromInline @exclusivity(unchecked) package var identity: UInt32
    /// What a query engine derives from the current version (its document-order index),
    /// built on first use and never returned for another version; a copy starts without.
    package let derived = _DerivedCache()

    /// Hands out versions, from 1, for the process's life.
    package static let versions = Atomic<UInt64>(0)

    @usableFromInline
    package static func nextVersion() -> UInt64 { versions.wrappingAdd(1, ordering: .relaxed).newValue }

    package init(minimumCapacity: Int) {
        parent = []
        generation = []
        typeID = []
        narrowTag = []
        wideTags = [:]
        freeHead = Self.none
        frameOrigin = []
        frameSize = []
        boundsOrigin = []
        attributes = Array(repeating: _TextColumn(), count: NodeAttribute.allCases.count)
        content = _Content()
        liveCount = 0
        rootCount = 0
        tour = _TourBlocks()
        version = Self.nextVersion()
        identity = Self.identity(from: version)
        reserveCapacity(minimumCapacity)
    }

    /// A copy of the columns and the index, with the same version (the same shape). The
    /// node columns and the index are copied here (they are ``_Column``s, not copied on
    /// write), into memory of the copy's own even where `other` borrows its columns; the
    /// geometry and attribute columns are copied on their first write.
    ///
    /// - Complexity: O(slots)
    package init(copying other: _TreeStorage) {
        parent = other.parent.copied()
        generation = other.generation.copied()
        typeID = other.typeID.copied()
        narrowTag = other.narrowTag.copied()
        wideTags = other.wideTags
        freeHead = other.freeHead
        frameOrigin = other.frameOrigin
        frameSize = other.frameSize
        boundsOrigin = other.boundsOrigin
        attributes = other.attributes
        content = other.content
        // The runs' first entries are a column (not copied on write), read in place from a
        // loaded snapshot: copied as the node columns are.
        content.attributes.first = other.content.attributes.first.copied()
        liveCount = other.liveCount
        rootCount = other.rootCount
        tour = other.tour.copied()
        version = other.version
        slotOrderVersion = other.slotOrderVersion
        isHTML = other.isHTML
        identity = other.identity
    }

    /// A tree identity from a version number: SplitMix64's finalizer (a bijection of 64-bit
    /// numbers), its low 32 bits. Consecutive versions give unrelated identities, so the
    /// stamps of two trees' fresh nodes (generation 0 or 1 in both) differ.
    package static func identity(from version: UInt64) -> UInt32 {
        var z = version &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: z ^ (z >> 31))
    }

    /// Room for `n` nodes in all: the columns, and the index (see
    /// `_TourBlocks.reserveCapacity(nodes:live:)`).
    package func reserveCapacity(_ n: Int) {
        tour.reserveCapacity(nodes: n, live: liveCount)
        reserveNodeColumns(n)
    }

    /// Room for a streamed build (``ViewTreeBuilder``) of `n` nodes: each column and the
    /// index exactly, reserved, not written.
    package func reserveStreamed(nodes n: Int) {
        tour.reserveStreamed(nodes: n)
        reserveNodeColumns(n, generation: false)
    }

    private func reserveNodeColumns(_ n: Int, generation withGeneration: Bool = true) {
        parent.reserveCapacity(n)
        if withGeneration { generation.reserveCapacity(n) }
        typeID.reserveCapacity(n)
        narrowTag.reserveCapacity(n)
    }

    /// Gives back the spare capacity of the node columns (and the index's positions).
    package func trimCapacity() {
        parent._trimCapacity()
        generation._trimCapacity()
        typeID._trimCapacity()
        narrowTag._trimCapacity()
        tour.span._trimCapacity()
        frameOrigin._trimCapacity()
        frameSize._trimCapacity()
        boundsOrigin._trimCapacity()
    }

    /// The number of slots, live or free.
    @inlinable package var slotCount: Int { parent.count }

    @inlinable @inline(__always)
    package func check(_ id: NodeID) {
        precondition(isCurrent(id), misuse(of: id))
    }

    /// Whether `id` names slot `id.index` at its current generation, made by this tree (or a
    /// copy): not whether that slot is live (see ``ViewTree/contains(_:)``).
    @inlinable @inline(__always)
    package func isCurrent(_ id: NodeID) -> Bool {
        let i = Int(id.index)
        let made = id.stamp &- identity
        // A freed slot's generation was bumped, so no outstanding id matches it. Within the
        // generation column, its entry; past its end (a streamed build's slots), generation
        // 0 and a slot in range. One array's count read in the common case.
        guard i >= 0 && (i < generation.count ? generation[i] == made : made == 0 && i < slotCount) else { return false }
        // A node of a large removed subtree keeps its generation until a later mutation
        // frees it (see `ViewTree.removeSubtree(_:)`): it is stale from the removal on.
        return _fastPath(tour.pendingHead < 0) || !tour.isPending(id.index)
    }

    /// Whether slot `i` holds a live node: not free, and not waiting to be freed after a
    /// removal (see `ViewTree.removeSubtree(_:)`). O(1).
    @inlinable
    package func isLive(_ i: Int) -> Bool {
        !Self.isFree(parent[i]) && (tour.pendingHead < 0 || !tour.isPending(Int32(i)))
    }

    /// Why `id` failed ``check(_:)``: stale (its generation is behind the slot's, which only
    /// grows) or of another tree (no such slot here, or a generation this slot never had).
    @usableFromInline @inline(never)
    package func misuse(of id: NodeID) -> String {
        let i = Int(id.index)
        guard i >= 0 && i < slotCount else {
            return "NodeID \(id) belongs to another tree: this tree has no slot \(id.index) (it has \(slotCount))"
        }
        let made = id.stamp &- identity
        let now = generation(at: i)
        if made < now {
            return "stale NodeID \(id): its node was removed from this tree (slot \(i) was at generation \(made), it is at \(now))"
        }
        if made == now && !Self.isFree(parent[i]) && tour.pendingHead >= 0 && tour.isPending(id.index) {
            return "stale NodeID \(id): its node was removed from this tree (with a subtree whose slots are not freed yet)"
        }
        return "NodeID \(id) belongs to another tree: it was not made by this tree or a copy of it"
    }

    @inlinable @inline(__always)
    package func nodeID(_ index: Int32) -> NodeID {
        NodeID(index: index, stamp: generation(at: Int(index)) &+ identity)
    }

    /// The ids of the nodes at ranks `ranks` (slot `order[r]` for rank r, or slot r with no
    /// order): one loop in here, so that the columns are not counted once per node.
    ///
    /// - Complexity: O(ranks.count)
    package func nodeIDs(ranks: [Int32], order: [Int32]?) -> [NodeID] {
        var out: [NodeID] = []
        out.reserveCapacity(ranks.count)
        if let order {
            order.withUnsafeBufferPointer { order in
                for r in ranks { out.append(nodeID(Int(r) < order.count ? order[Int(r)] : r)) }
            }
        } else {
            for r in ranks { out.append(nodeID(r)) }
        }
        return out
    }

    /// The ids of the nodes at ranks `ranks`, slot `order[r]` and stamp `stamps[r]` for rank
    /// r (a moved tree's columns by rank, made with its document index): read in rank
    /// order, as the answers come, rather than a slot's generation wherever the slot lies.
    ///
    /// - Complexity: O(ranks.count)
    package func nodeIDs(ranks: [Int32], order: [Int32], stamps: [UInt32]) -> [NodeID] {
        var out: [NodeID] = []
        out.reserveCapacity(ranks.count)
        order.withUnsafeBufferPointer { order in
            stamps.withUnsafeBufferPointer { stamps in
                for r in ranks { out.append(NodeID(index: order[Int(r)], stamp: stamps[Int(r)])) }
            }
        }
        return out
    }

    /// The ids of the nodes at ranks `ranks`, slot `order[r]` for rank r, each with the
    /// stamp `stamp` (a tree whose nodes' stamps are all the same: ``uniformStamp``).
    ///
    /// - Complexity: O(ranks.count)
    package func nodeIDs(ranks: [Int32], order: [Int32], stamp: UInt32) -> [NodeID] {
        [NodeID](unsafeUninitializedCapacity: ranks.count) { out, initialized in
            ranks.withUnsafeBufferPointer { ranks in
                order.withUnsafeBufferPointer { order in
                    for i in 0 ..< ranks.count { (out.baseAddress! + i).initialize(to: NodeID(index: order[Int(ranks[i])], stamp: stamp)) }
                }
            }
            initialized = ranks.count
        }
    }

    /// The stamp every slot's id has, if it is the same for all (every generation 0: no
    /// slot was ever reused, as in a tree that was only built, moved and added to).
    ///
    /// - Complexity: O(slots)
    package var uniformStamp: UInt32? {
        generation.withUnsafeBufferPointer { g in g.allSatisfy { $0 == 0 } } ? identity : nil
    }

    /// The stamp of each of `order`'s slots (its generation plus the tree's identity), in
    /// the order given.
    ///
    /// - Complexity: O(order.count)
    package func stamps(of order: [Int32]) -> [UInt32] {
        order.map { generation(at: Int($0)) &+ identity }
    }

    /// The generation the id `id` was made at, if it is of this tree.
    @inlinable @inline(__always)
    package func generation(of id: NodeID) -> UInt32 { id.stamp &- identity }

    /// The generation of slot `i` (< ``slotCount``): 0 past the end of `generation`.
    @inlinable @inline(__always)
    package func generation(at i: Int) -> UInt32 {
        i < generation.count ? generation[i] : 0
    }

    /// Makes `generation` cover slot `i`, with 0 for the slots it did not cover.
    ///
    /// - Complexity: O(slots added)
    package func coverGeneration(of i: Int) {
        if i >= generation.count { generation.append(contentsOf: repeatElement(0, count: i + 1 - generation.count)) }
    }

    // MARK: Free slots

    /// Whether a `parent` entry marks a free slot.
    @inlinable @inline(__always)
    package static func isFree(_ parent: Int32) -> Bool { parent <= free }

    /// The `parent` entry of a free slot whose successor on the free list is `next` (none
    /// for the last): ``free`` or below, so the free list needs no column of its own.
    @inlinable @inline(__always)
    package static func freeMark(next: Int32) -> Int32 { free - 1 - next }

    /// The successor on the free list of a free slot with `parent` entry `mark`.
    @inlinable @inline(__always)
    package static func nextFree(_ mark: Int32) -> Int32 { free - 1 - mark }

    // MARK: Navigation, from the tour

    /// The node `step` gives from live node `node` (after checking it), or `nil` for ``none``.
    @inlinable @inline(__always)
    package func step(from node: NodeID, _ step: (_TreeStorage, Int32) -> Int32) -> NodeID? {
        check(node)
        let x = step(self, node.index)
        return x == Self.none ? nil : nodeID(x)
    }

    /// The first child of live node `x`, or ``none``: the token after its enter token, if
    /// that is an enter token. O(1).
    @inlinable @inline(__always)
    package func firstChild(_ x: Int32) -> Int32 {
        let t = tour.token(after: tour.span[Int(x)].enter)
        return t >= 0 ? t : Self.none
    }

    /// The last child of live node `x`, or ``none``: the node whose exit token comes just
    /// before `x`'s. O(1).
    @inlinable @inline(__always)
    package func lastChild(_ x: Int32) -> Int32 {
        let t = tour.token(before: tour.span[Int(x)].exit)
        return t < 0 ? ~t : Self.none
    }

    /// The next sibling of live node `x`, or ``none`` (a last child, or a root): the token
    /// after its exit token, if that is an enter token. O(1).
    @inlinable @inline(__always)
    package func nextSibling(_ x: Int32) -> Int32 {
        guard parent[Int(x)] >= 0 else { return Self.none }
        let t = tour.token(after: tour.span[Int(x)].exit)
        return t >= 0 ? t : Self.none
    }

    /// The previous sibling of live node `x`, or ``none`` (a first child, or a root): the
    /// node whose exit token comes just before `x`'s enter token. O(1).
    @inlinable @inline(__always)
    package func previousSibling(_ x: Int32) -> Int32 {
        guard parent[Int(x)] >= 0 else { return Self.none }
        let t = tour.token(before: tour.span[Int(x)].enter)
        return t < 0 ? ~t : Self.none
    }

    // MARK: Tags

    @inlinable @inline(__always)
    package static func narrow(_ tag: Int) -> Int32? {
        guard let t = Int32(exactly: tag), t != wideTagSentinel else { return nil }
        return t
    }

    @inlinable @inline(__always)
    package func tag(at i: Int32) -> Int {
        let t = narrowTag[Int(i)]
        return t == Self.wideTagSentinel ? wideTag(at: i) : Int(t)
    }

    @usableFromInline @inline(never)
    package func wideTag(at i: Int32) -> Int {
        guard let tag = wideTags[i] else { preconditionFailure("tag table lost the tag of slot \(i)") }
        return tag
    }

    package func setTag(_ tag: Int, at i: Int32) {
        if let t = Self.narrow(tag) {
            if narrowTag[Int(i)] == Self.wideTagSentinel { wideTags[i] = nil }
            narrowTag[Int(i)] = t
        } else {
            narrowTag[Int(i)] = Self.wideTagSentinel
            wideTags[i] = tag
        }
        tour.setTag(narrowTag[Int(i)], of: i)
    }
}

extension Array {
    /// Gives back the spare capacity when at least an eighth of it is spare: the tree's node
    /// columns (``ViewTree/compactIndex()``) and the facade store's table of views.
    ///
    /// - Complexity: O(count) when it copies, else O(1).
    package mutating func _trimCapacity() {
        guard capacity - count > count / 8 else { return }
        // Not `init(unsafeUninitializedCapacity: 0)`: that writes into the shared empty
        // storage, a race when two threads do it (see `_large(count:initializingWith:)`).
        guard count > 0 else { self = []; return }
        self = Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = withUnsafeBufferPointer { buffer.initialize(fromContentsOf: $0) }
        }
    }
}
