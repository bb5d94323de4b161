import Synchronization

/// The columns of a ``ViewTree``: one final class, copied on write by `ViewTree`.
///
/// Layout per slot (28 bytes): `parent`, `firstChild`, `nextSibling`, `previousSibling`
/// (circular within a parent: the first child's previous is the last child, which makes
/// a separate last-child column unnecessary), `generation`, `typeID` and `narrowTag`.
/// Tags that do not fit in an `Int32` (and `Int32.min` itself) are stored as the
/// sentinel ``_TreeStorage/wideTagSentinel`` with the real value in `wideTags`.
///
/// The Euler index is an immutable ``EulerIndex`` published through an atomic slot, so a
/// query that is not `mutating` can build and publish it without racing readers in other
/// threads: readers either see no index (and walk the links) or a complete one. The
/// columns themselves only change through `mutating` methods of a uniquely referenced
/// `ViewTree`, which is why this class can be `@unchecked Sendable`, and why its columns
/// opt out of dynamic exclusivity checks (`@exclusivity(unchecked)`): no read can overlap
/// a write, and the checks would cost more than an O(1) query itself.
@usableFromInline
final class _TreeStorage: @unchecked Sendable {
    @usableFromInline static let none: Int32 = -1
    /// `parent` of a slot on the free list.
    @usableFromInline static let free: Int32 = -2
    @usableFromInline static let wideTagSentinel: Int32 = .min

    @usableFromInline @exclusivity(unchecked) var parent: [Int32]
    @usableFromInline @exclusivity(unchecked) var firstChild: [Int32]
    /// For a free slot: the next free slot.
    @usableFromInline @exclusivity(unchecked) var nextSibling: [Int32]
    @usableFromInline @exclusivity(unchecked) var previousSibling: [Int32]
    @usableFromInline @exclusivity(unchecked) var generation: [UInt32]
    @usableFromInline @exclusivity(unchecked) var typeID: [Int32]
    @usableFromInline @exclusivity(unchecked) var narrowTag: [Int32]
    @usableFromInline @exclusivity(unchecked) var wideTags: [Int32: Int]
    @usableFromInline @exclusivity(unchecked) var freeHead: Int32
    /// Geometry columns (see `ViewTree+Geometry.swift`): each node's frame origin and size in
    /// its parent's space, and its bounds origin. Empty until the first geometry write, and
    /// after that as long as the other columns (or shorter): a slot past their end has zero
    /// geometry, so trees that never lay out pay nothing for them.
    @usableFromInline @exclusivity(unchecked) var frameOrigin: [SIMD2<Double>]
    @usableFromInline @exclusivity(unchecked) var frameSize: [SIMD2<Double>]
    @usableFromInline @exclusivity(unchecked) var boundsOrigin: [SIMD2<Double>]
    @usableFromInline @exclusivity(unchecked) var liveCount: Int
    /// The number of live nodes with no parent, kept by the mutations so that a tree can
    /// say how many roots it has without scanning the arena.
    @usableFromInline @exclusivity(unchecked) var rootCount: Int

    @usableFromInline let indexSlot: Atomic<Unmanaged<EulerIndex>?>
    /// Link-walking work done by queries since the index was last built (the ski-rental debt).
    @usableFromInline let debt: Atomic<Int>

    init(minimumCapacity: Int) {
        parent = []
        firstChild = []
        nextSibling = []
        previousSibling = []
        generation = []
        typeID = []
        narrowTag = []
        wideTags = [:]
        freeHead = Self.none
        frameOrigin = []
        frameSize = []
        boundsOrigin = []
        liveCount = 0
        rootCount = 0
        indexSlot = Atomic(nil)
        debt = Atomic(0)
        reserveCapacity(minimumCapacity)
    }

    /// A copy of the columns that shares the (immutable) index.
    init(copying other: _TreeStorage) {
        parent = other.parent
        firstChild = other.firstChild
        nextSibling = other.nextSibling
        previousSibling = other.previousSibling
        generation = other.generation
        typeID = other.typeID
        narrowTag = other.narrowTag
        wideTags = other.wideTags
        freeHead = other.freeHead
        frameOrigin = other.frameOrigin
        frameSize = other.frameSize
        boundsOrigin = other.boundsOrigin
        liveCount = other.liveCount
        rootCount = other.rootCount
        let index = other.indexSlot.load(ordering: .acquiring)
        _ = index?.retain()
        indexSlot = Atomic(index)
        debt = Atomic(other.debt.load(ordering: .relaxed))
    }

    deinit {
        indexSlot.load(ordering: .acquiring)?.release()
    }

    func reserveCapacity(_ n: Int) {
        parent.reserveCapacity(n)
        firstChild.reserveCapacity(n)
        nextSibling.reserveCapacity(n)
        previousSibling.reserveCapacity(n)
        generation.reserveCapacity(n)
        typeID.reserveCapacity(n)
        narrowTag.reserveCapacity(n)
    }

    /// The number of slots, live or free.
    @inlinable var slotCount: Int { parent.count }

    @inlinable @inline(__always)
    func check(_ id: NodeID) {
        let i = Int(id.index)
        precondition(
            // A freed slot's generation was bumped, so no outstanding id matches it.
            i >= 0 && i < generation.count && generation[i] == id.generation,
            "stale NodeID \(id): the node was removed from this tree, or the id belongs to another tree")
    }

    @inlinable @inline(__always)
    func nodeID(_ index: Int32) -> NodeID {
        NodeID(index: index, generation: generation[Int(index)])
    }

    // MARK: Tags

    @inlinable @inline(__always)
    static func narrow(_ tag: Int) -> Int32? {
        guard let t = Int32(exactly: tag), t != wideTagSentinel else { return nil }
        return t
    }

    @inlinable @inline(__always)
    func tag(at i: Int32) -> Int {
        let t = narrowTag[Int(i)]
        return t == Self.wideTagSentinel ? wideTag(at: i) : Int(t)
    }

    @usableFromInline @inline(never)
    func wideTag(at i: Int32) -> Int {
        guard let tag = wideTags[i] else { preconditionFailure("tag table lost the tag of slot \(i)") }
        return tag
    }

    func setTag(_ tag: Int, at i: Int32) {
        if let t = Self.narrow(tag) {
            if narrowTag[Int(i)] == Self.wideTagSentinel { wideTags[i] = nil }
            narrowTag[Int(i)] = t
        } else {
            narrowTag[Int(i)] = Self.wideTagSentinel
            wideTags[i] = tag
        }
    }

    // MARK: Index slot

    /// The published index, or `nil` when the index is stale.
    @inlinable @inline(__always)
    var freshIndex: Unmanaged<EulerIndex>? {
        indexSlot.load(ordering: .acquiring)
    }

    /// Drops the index; called by every mutation (the storage is uniquely referenced then).
    @inlinable @inline(__always)
    func invalidateIndex() {
        if indexSlot.load(ordering: .relaxed) != nil {
            indexSlot.exchange(nil, ordering: .acquiringAndReleasing)?.release()
        }
    }

    /// Builds the index from the links and publishes it, unless another thread got there first.
    @usableFromInline @discardableResult
    func publishIndex() -> Unmanaged<EulerIndex> {
        if let index = freshIndex { return index }
        let built = Unmanaged.passRetained(EulerIndex(building: self))
        let (exchanged, current) = indexSlot.compareExchange(
            expected: nil, desired: built, ordering: .acquiringAndReleasing)
        debt.store(0, ordering: .relaxed)
        if exchanged { return built }
        built.release()
        // The slot is only cleared by a mutation, which cannot run while we are reading.
        guard let current else { preconditionFailure("index slot cleared during a query") }
        return current
    }

    /// Records link-walking work done by a query on a stale index; rebuilds the index once
    /// the work since the last build reaches the number of live nodes (the ski-rental rule).
    @usableFromInline
    func pay(_ work: Int) {
        let total = debt.wrappingAdd(work, ordering: .relaxed).newValue
        if total >= liveCount { publishIndex() }
    }
}
