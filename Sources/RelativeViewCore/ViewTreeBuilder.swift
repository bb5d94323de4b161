import RelativeViewEngine
/// Builds a ``ViewTree`` from a stream of open/close events, as a parser produces a
/// document, with its index ready and no extra pass: a node's enter token is appended to
/// the Euler tour when it opens, its exit token when it closes, so the tour's blocks come
/// out full and in order.
///
/// ```swift
/// var builder = ViewTreeBuilder()
/// builder.open(type: TypeRegistry.shared.typeID(named: "html"))
/// builder.open(tag: 7, type: TypeRegistry.shared.typeID(named: "body"))
/// builder.close()
/// builder.close()
/// let tree = builder.finish()
/// ```
///
/// A builder given the number of nodes to expect (`init(minimumCapacity:)`, an upper bound
/// is fine) reserves every column for that many nodes and writes each event straight into
/// the reserved memory, the columns' counts brought up to date when read: it never grows a
/// column, and its tree takes no more memory than that many nodes need. Past that many, or
/// given none, events are staged in a small buffer and copied into the columns a few
/// thousand at a time, one column after another, and the columns grow by doubling, as
/// arrays do. Either way a node costs a few nanoseconds, not one array append per column.
/// (Writing directly made the project's JSON import 9% faster than staging every event,
/// for the same instruction count: the stage's loads and stores were what it saved.)
///
/// A builder is noncopyable: it owns its staging memory, and a stream has one consumer.
public struct ViewTreeBuilder: ~Copyable, @unchecked Sendable {
    // Sendable: the raw buffers are owned by this value alone, which cannot be copied.

    /// One event: a node's enter token (with its tag, type and parent) or an exit token.
    @usableFromInline
    struct Event {
        @usableFromInline var token: Int32
        @usableFromInline var tag: Int32
        @usableFromInline var type: Int32
        @usableFromInline var parent: Int32

        @inlinable @inline(always)
        init(token: Int32, tag: Int32, type: Int32, parent: Int32) {
            (self.token, self.tag, self.type, self.parent) = (token, tag, type, parent)
        }

        /// The exit event of `node`.
        @inlinable @inline(always)
        static func exit(of node: Int32) -> Event {
            Event(token: ~node, tag: Int32.min, type: _TourBlocks.exitType, parent: 0)
        }
    }

    /// Events staged before a flush copies them into the tree's columns.
    @inlinable static var batch: Int { 4096 }

    // `open()` and `close()` are inlined into the parsers that call them (a call, and
    // this value's fields reloaded, cost more than the event itself): the fields they use
    // are visible to them, and nothing else.
    private var tree: ViewTree
    /// The open nodes, innermost last.
    @usableFromInline var open: UnsafeMutablePointer<Int32>
    @usableFromInline var openCount = 0
    @usableFromInline var openCapacity = 64
    @usableFromInline var staged: UnsafeMutablePointer<Event>
    @usableFromInline var stagedCount = 0
    /// The slot of the next node opened: the nodes so far, flushed or staged.
    @usableFromInline var nodes: Int32 = 0
    /// While `nodes` is below this, events are written straight into the columns' reserved
    /// memory (see ``_DirectColumns``), not staged and copied: a builder given a capacity
    /// starts so, and leaves it for good (``leaveDirect()``) at its first node past the
    /// capacity. 0 when events are staged.
    @usableFromInline var directLimit: Int32 = 0
    /// The columns' memory, written directly while ``directLimit`` allows.
    @usableFromInline var direct = _DirectColumns()
    /// The tokens written directly so far (the next one's slot), and the roots among the
    /// nodes written directly since the columns' counts were last brought up to date.
    @usableFromInline var directTokens = 0
    @usableFromInline var directRoots = 0
    /// The token count at which `directCheckpoint()` next tells the warmers how far the
    /// writes are (every ``batch`` tokens, as a flush did).
    @usableFromInline var nextCheckpoint = 0
    /// The tree's identity, the stamp of every id the builder hands out (its nodes are all
    /// at generation 0; see ``NodeID``).
    @usableFromInline let identity: UInt32
    /// The nodes the builder was told to expect: an attribute column is reserved for as
    /// many when it is made.
    private let capacity: Int
    /// The attribute columns while the build runs (the tree gets them in `finish()`), and
    /// per attribute a table of the starts of recently stored texts by a hash of their
    /// bytes, so that a text repeated among them is stored once.
    private var keyColumn = _TextColumn()
    private var idColumn = _TextColumn()
    private var classColumn = _TextColumn()
    /// The content while the build runs: each node's own text and its named attributes.
    private var content = _Content()
    /// The tables of recent texts: one per ``NodeAttribute``, then one for the nodes' own
    /// texts (the same indentation between elements, the same `true` in a JSON array), then
    /// one for attribute values.
    @usableFromInline let recent: UnsafeMutablePointer<RecentText>
    private static let valueTable = NodeAttribute.allCases.count
    private static let attributeValueTable = NodeAttribute.allCases.count + 1
    private static let tables = NodeAttribute.allCases.count + 2
    @usableFromInline static let recentSlots = 1024  // a power of two

    /// A text stored lately: where it starts in its column, its length, and its first 16
    /// bytes (zero past its end), so that a text of up to 16 bytes is recognised without
    /// reading the column.
    @usableFromInline struct RecentText {
        @usableFromInline var start = -1
        @usableFromInline var count = 0
        @usableFromInline var prefix: (UInt64, UInt64) = (0, 0)
    }
    /// The texts of the whole content (values, attribute values) on their way to their
    /// columns: written here with no array call, appended to the column a stage at a time
    /// (in `finish()`). An array append per text, with its uniqueness checks, was most of
    /// what storing a JSON value cost.
    @usableFromInline let valueStage = _TextStage()
    private let attributeValueStage = _TextStage()
    /// Named attribute entries on their way to the attribute runs (a name with
    /// `_AttributeRuns.lastBit` on a run's last entry, and where its value starts), appended
    /// to the runs' two arrays a stage at a time: two array appends, and their uniqueness
    /// checks, were most of what an entry cost. `attributeEntries` counts the entries of
    /// the arrays and the stage together.
    private let stagedNames: UnsafeMutablePointer<UInt32>
    private let stagedValues: UnsafeMutablePointer<Int>
    private var stagedEntries = 0
    private var attributeEntries = 0
    /// Fault in the reserved columns ahead of the writes (see `_PageWarmer`).
    private var warmers: [_PageWarmer]
    /// The reserved memory of the attribute columns made so far, warmed with the others.
    private var attributeRanges: [_PageWarmer.Range] = []

    /// A builder with room for `minimumCapacity` nodes.
    ///
    /// - Complexity: O(1): the memory is reserved, not written.
    public init(minimumCapacity: Int = 0) {
        tree = ViewTree()
        identity = tree._storage.identity
        capacity = max(0, minimumCapacity)
        tree._storage.reserveStreamed(nodes: capacity)
        warmers = [_PageWarmer(ranges: Self.nodeColumnRanges(tree._storage), units: capacity)]
        if capacity > 0 {
            direct = _DirectColumns(tree._storage)
            directLimit = Int32(clamping: min(capacity, Int(Int32.max) - 2))
            nextCheckpoint = Self.batch
        }
        staged = .allocate(capacity: Self.batch)
        open = .allocate(capacity: openCapacity)
        recent = .allocate(capacity: Self.tables * Self.recentSlots)
        recent.initialize(repeating: RecentText(), count: Self.tables * Self.recentSlots)
        stagedNames = .allocate(capacity: Self.batch)
        stagedValues = .allocate(capacity: Self.batch)
    }

    deinit {
        for w in warmers { w.stop() }
        staged.deallocate()
        open.deallocate()
        recent.deallocate()
        valueStage.deallocate()
        attributeValueStage.deallocate()
        stagedNames.deallocate()
        stagedValues.deallocate()
    }

    /// Room for `bytes` bytes of values and as many of attribute values, reserved, not
    /// written (a whole import gives its document's size: no text is longer than the
    /// document), so that the text tables never copy themselves while they grow.
    ///
    /// - Complexity: O(1)
    package mutating func reserveContentBytes(_ bytes: Int) {
        content.text.bytes.reserveCapacity(bytes)
        content.attributes.texts.bytes.reserveCapacity(bytes)
        // Named attribute entries: at most one per 5 bytes (` a=""`), up to 2^26 of them.
        // Reserved, not written: an array that doubles holds its old and new memory at
        // once while it copies, which raised the XML import's peak by 3.5 MB.
        let entries = min(bytes / 5, 1 << 26)
        content.attributes.name.reserveCapacity(entries)
        content.attributes.value.reserveCapacity(entries)
    }

    /// How many nodes are open (the depth of the next node opened).
    ///
    /// - Complexity: O(1)
    public var depth: Int { openCount }

    /// The number of nodes so far.
    ///
    /// - Complexity: O(1)
    public var count: Int { Int(nodes) }

    /// Opens a node: the last child of the innermost open node, or a new root.
    ///
    /// - Complexity: O(1) amortized.
    @discardableResult @inlinable @inline(always)
    public mutating func open(tag: Int = 0, type: TypeID) -> NodeID {
        if nodes < directLimit {
            let x = writeEnter(tag: tag, type: type)
            if openCount == openCapacity { growOpenNodes() }
            open[openCount] = x
            openCount &+= 1
            if directTokens >= nextCheckpoint { directCheckpoint() }
            return NodeID(index: x, stamp: identity)
        }
        if directLimit > 0 { leaveDirect() }
        let enter = newNode(tag: tag, type: type)
        stage(enter)
        if openCount == openCapacity { growOpenNodes() }
        open[openCount] = enter.token
        openCount &+= 1
        return NodeID(index: enter.token, stamp: identity)
    }

    /// Takes the next slot for a node of `tag` and `type`, the last child of the innermost
    /// open node or a new root, and returns its enter event (not staged yet).
    @inlinable @inline(always)
    mutating func newNode(tag: Int, type: TypeID) -> Event {
        // The last slot's free mark, free - 1 - slot, must fit in an Int32.
        precondition(nodes < Int32.max - 2, "a ViewTree holds at most Int32.max - 2 nodes")
        let i = nodes
        nodes &+= 1
        let narrow = _TreeStorage.narrow(tag) ?? _TreeStorage.wideTagSentinel
        if narrow == _TreeStorage.wideTagSentinel { keepWideTag(tag, of: i) }
        return Event(token: i, tag: narrow, type: type.rawValue, parent: openCount > 0 ? open[openCount &- 1] : _TreeStorage.none)
    }

    /// Writes a new node's enter token straight into the columns (direct mode: `nodes` is
    /// below ``directLimit``): the node's parent, type, tag and enter position, and the
    /// token with its tag and type at the next slot. Returns the node.
    @inlinable @inline(always)
    mutating func writeEnter(tag: Int, type: TypeID) -> Int32 {
        let x = nodes
        nodes &+= 1
        let narrow = _TreeStorage.narrow(tag) ?? _TreeStorage.wideTagSentinel
        if narrow == _TreeStorage.wideTagSentinel { keepWideTag(tag, of: x) }
        let parent = openCount > 0 ? open[openCount &- 1] : _TreeStorage.none
        directRoots &+= openCount > 0 ? 0 : 1
        let i = Int(x)
        let slot = directTokens
        directTokens &+= 1
        direct.parent[i] = parent
        direct.typeID[i] = type.rawValue
        direct.narrowTag[i] = narrow
        direct.span[i] = _TourBlocks.Span(enter: UInt32(truncatingIfNeeded: slot), exit: 0)
        direct.token[slot] = x
        direct.tag[slot] = narrow
        direct.type[slot] = type.rawValue
        return x
    }

    /// Writes node `x`'s exit token straight into the columns (direct mode).
    @inlinable @inline(always)
    mutating func writeExit(of x: Int32) {
        let slot = directTokens
        directTokens &+= 1
        direct.token[slot] = ~x
        direct.tag[slot] = Int32.min
        direct.type[slot] = _TourBlocks.exitType
        direct.span[Int(x)].exit = UInt32(truncatingIfNeeded: slot)
    }

    /// Brings the columns' counts up to what was written directly (the nodes, their
    /// tokens, the live and root counts), so that they can be read or cut.
    ///
    /// - Complexity: O(1)
    @usableFromInline @inline(never)
    mutating func syncDirect() {
        guard directLimit > 0 else { return }
        let s = tree._storage
        let newNodes = Int(nodes) - s.parent.count
        let newTokens = directTokens - s.tour.token.count
        guard newNodes > 0 || newTokens > 0 else { return }
        // Within the capacity reserved: no column moves, so the direct pointers stay valid.
        s.parent.appendUnwritten(newNodes)
        s.typeID.appendUnwritten(newNodes)
        s.narrowTag.appendUnwritten(newNodes)
        s.tour.span.appendUnwritten(newNodes)
        s.tour.token.appendUnwritten(newTokens)
        s.tour.tag.appendUnwritten(newTokens)
        s.tour.type.appendUnwritten(newTokens)
        s.liveCount += newNodes
        s.rootCount += directRoots
        directRoots = 0
    }

    /// Every ``batch`` tokens written directly: tells the warmers how far the writes are.
    @usableFromInline @inline(never)
    mutating func directCheckpoint() {
        nextCheckpoint = directTokens &+ Self.batch
        for w in warmers { w.advance(to: Int(nodes)) }
    }

    /// Leaves direct mode for good (the first node past the capacity): the counts brought
    /// up to date, then events are staged and flushed, and the columns grow.
    @usableFromInline @inline(never)
    mutating func leaveDirect() {
        syncDirect()
        directLimit = 0
        direct = _DirectColumns()
        directValueSlots = 0
        directKeySlots = 0
    }

    /// Keeps a tag that does not fit the narrow column.
    @usableFromInline @inline(never)
    mutating func keepWideTag(_ tag: Int, of node: Int32) {
        tree._storage.wideTags[node] = tag
    }

    /// Whether a warmer's thread is running (for tests).
    var _isWarming: Bool { warmers.contains { $0.isRunning } }

    /// The warmers the builder keeps (for tests).
    var _warmerCount: Int { warmers.count }

    /// Whether the builder maps its columns' pages itself, ahead of its writes (for tests).
    var _mapsItsOwnPages: Bool { warmers.contains { $0.mapsInline } }

    /// Whether the builder may map its columns' pages ahead of its writes on a thread of
    /// its own (see ``forgoWarming()``).
    private var warming = true

    /// Stops mapping the columns' pages ahead of the writes on a thread of their own: the
    /// caller keeps the other CPU busy (an import that scans on one thread while this one
    /// builds), and the writer maps them itself, a few hundred KiB a call (see
    /// ``_PageWarmer``).
    package mutating func forgoWarming() {
        warming = false
        stopWarmers()
        if capacity > 0 && Int(nodes) < capacity { startWarmer() }
    }

    /// Maps the columns' pages ahead of the writes on a thread again after
    /// ``forgoWarming()``: from now on (`startingNow`, a warmer from the current node, when
    /// the other CPU is free again and the build goes on, as after a hand-over to another
    /// parser), or from the next column reserved.
    package mutating func resumeWarming(startingNow: Bool) {
        warming = true
        guard startingNow, !_isWarming, capacity > 0, Int(nodes) < capacity else { return }
        stopWarmers()
        startWarmer()
    }

    /// One warmer for every column (the node columns and the attribute columns made so
    /// far), from the current node: a thread of its own if ``warming`` allows, else the
    /// writer's own mapping.
    private mutating func startWarmer() {
        let warmer = _PageWarmer(ranges: Self.nodeColumnRanges(tree._storage) + attributeRanges, units: capacity, from: Int(nodes), thread: warming)
        warmer.advance(to: Int(nodes))
        warmers = [warmer]
    }

    /// Stops and forgets every warmer: the columns are about to grow past what was reserved,
    /// and a column that grows moves.
    @inline(never)
    private mutating func stopWarmers() {
        for w in warmers { w.stop() }
        warmers.removeAll()
    }

    /// Doubles the room for open nodes.
    @usableFromInline @inline(never)
    mutating func growOpenNodes() {
        let bigger = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * openCapacity)
        bigger.moveInitialize(from: open, count: openCount)
        open.deallocate()
        (open, openCapacity) = (bigger, 2 * openCapacity)
    }

    /// Closes the innermost open node. Traps if none is open.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable @inline(always)
    public mutating func close() {
        guard openCount > 0 else { preconditionFailure("close() without a matching open()") }
        openCount &-= 1
        if directLimit > 0 {
            writeExit(of: open[openCount])
            if directTokens >= nextCheckpoint { directCheckpoint() }
            return
        }
        stage(.exit(of: open[openCount]))
    }

    /// Opens and closes a node at once: a leaf, the last child of the innermost open node
    /// or a new root. The same as `open(tag:type:)` then `close()`, for less.
    ///
    /// - Complexity: O(1) amortized.
    @discardableResult @inlinable @inline(always)
    public mutating func appendLeaf(tag: Int = 0, type: TypeID) -> NodeID {
        if nodes < directLimit {
            let x = writeEnter(tag: tag, type: type)
            writeExit(of: x)
            if directTokens >= nextCheckpoint { directCheckpoint() }
            return NodeID(index: x, stamp: identity)
        }
        if directLimit > 0 { leaveDirect() }
        // Room for both events first: a flush takes every node counted as staged.
        if stagedCount >= Self.batch &- 1 { flush() }
        let enter = newNode(tag: tag, type: type)
        staged[stagedCount] = enter
        staged[stagedCount &+ 1] = .exit(of: enter.token)
        stagedCount &+= 2
        if stagedCount == Self.batch { flush() }
        return NodeID(index: enter.token, stamp: identity)
    }

    @inlinable @inline(always)
    mutating func stage(_ event: Event) {
        staged[stagedCount] = event
        stagedCount &+= 1
        if stagedCount == Self.batch { flush() }
    }

    /// Gives the node opened last the text `utf8` (well-formed UTF-8, which is not checked)
    /// as its `attribute`. Traps if no node was opened yet.
    ///
    /// - Complexity: O(utf8.count) amortized.
    public mutating func setAttribute(_ attribute: NodeAttribute, utf8: UnsafeBufferPointer<UInt8>) {
        set(attribute, utf8: utf8, prefix: Self.prefixWords(utf8))
    }

    /// Gives the node opened last a text of at most 16 bytes (well-formed UTF-8, which is
    /// not checked) as its `attribute`, given as two little-endian words, zero past the
    /// text's `count` bytes: what a scanner that read the text as words already has.
    ///
    /// - Complexity: O(1)
    package mutating func setAttribute(_ attribute: NodeAttribute, words: (UInt64, UInt64), count: Int) {
        precondition(count >= 0 && count <= 16, "a text of \(count) bytes given as two words")
        Self.withText(words, count: count) { set(attribute, utf8: $0, prefix: words) }
    }

    /// ``setAttribute(_:words:count:)`` for ``NodeAttribute/key``, inlined: the common case
    /// of a JSON import, a member name stored lately for a node whose start is in the
    /// column's memory already (made in batches, see `set`), writes only that start,
    /// straight into the memory (see ``directKeyStarts``); anything else takes the general
    /// path. Out of line, with an array write and its uniqueness check, the common case
    /// was 17% of a deep JSON document's import instructions (callgrind).
    ///
    /// - Complexity: O(1)
    @inlinable @inline(always)
    package mutating func setKey(words: (UInt64, UInt64), count: Int) {
        let slot = Int(nodes) &- 1
        // (More than 16 bytes is not two words: the general path traps on it.)
        if UInt(bitPattern: slot) < UInt(bitPattern: directKeySlots) && UInt(bitPattern: count) <= 16 {
            let seen = recent[Self.recentSlot(prefix: words, count: count)]
            if seen.start >= 0 && seen.count == count && seen.prefix.0 == words.0 && seen.prefix.1 == words.1 {
                directKeyStarts[slot] = UInt32(truncatingIfNeeded: seen.start)
                return
            }
        }
        setKeySlowly(words: words, count: count)
    }

    /// ``setKey(words:count:)``'s general path.
    @usableFromInline @inline(never)
    mutating func setKeySlowly(words: (UInt64, UInt64), count: Int) {
        setAttribute(.key, words: words, count: count)
    }

    /// Calls `body` with the first `count` bytes of a text given as two little-endian words.
    private static func withText<R>(_ words: (UInt64, UInt64), count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var bytes = (words.0.littleEndian, words.1.littleEndian)
        return withUnsafeBytes(of: &bytes) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    /// `setAttribute(_:utf8:)` with the text's ``prefixWords(_:)``.
    @inline(always)
    private mutating func set(_ attribute: NodeAttribute, utf8: UnsafeBufferPointer<UInt8>, prefix: (UInt64, UInt64)) {
        precondition(nodes > 0, "setAttribute(_:utf8:) before any open()")
        let slot = Int(nodes) - 1
        // Past the capacity the columns may move: the warmers must not map their old memory.
        if slot >= capacity && !warmers.isEmpty { stopWarmers() }
        let recent = self.recent + attribute.rawValue * Self.recentSlots
        // Each column a stored property, borrowed in place (an array of columns would copy
        // the element it reads).
        let reserved = switch attribute {
        case .key: Self.set(utf8, prefix: prefix, at: slot, in: &keyColumn, recent: recent, capacity: capacity)
        case .id: Self.set(utf8, prefix: prefix, at: slot, in: &idColumn, recent: nil, capacity: capacity)
        case .className: Self.set(utf8, prefix: prefix, at: slot, in: &classColumn, recent: recent, capacity: capacity)
        }
        if let reserved { warm(reserved) }
        if attribute == .key { refreshDirectKeys() }
    }

    /// Warms `reserved` (a column's starts just reserved) with the node columns.
    private mutating func warm(_ reserved: _PageWarmer.Range) {
        // One warming thread for every column, started again from here with the new
        // one: a thread of its own for each attribute column left three threads to two
        // CPUs, and the writer faulting.
        attributeRanges.append(reserved)
        stopWarmers()
        startWarmer()
    }

    /// The reserved memory of the node columns and the index, which a streamed build fills
    /// side by side.
    private static func nodeColumnRanges(_ s: _TreeStorage) -> [_PageWarmer.Range] {
        [.init(capacityOf: &s.parent), .init(capacityOf: &s.typeID), .init(capacityOf: &s.narrowTag),
         .init(capacityOf: &s.tour.span), .init(capacityOf: &s.tour.token), .init(capacityOf: &s.tour.tag),
         .init(capacityOf: &s.tour.type)]
    }

    /// Gives `slot` of `column` the text `utf8`: the copy found through `recent` (a table
    /// of the starts of recently stored texts by a hash of their first 16 bytes, `prefix`)
    /// if it holds the same bytes, else a new one. No table: always a new one (an `id`,
    /// meant to be unique). Returns the column's starts' memory if it was reserved just now, to be warmed.
    @inline(always)
    private static func set(
        _ utf8: UnsafeBufferPointer<UInt8>, prefix: (UInt64, UInt64), at slot: Int, in column: inout _TextColumn,
        recent: UnsafeMutablePointer<RecentText>?, capacity: Int, stage: _TextStage? = nil
    ) -> _PageWarmer.Range? {
        var reserved: _PageWarmer.Range?
        if column.start.count <= slot {
            // Made, or extended a batch past the node at once (not a start per node opened
            // since the last text): `finish()` and `rollBack(to:)` cut it back to the nodes.
            // Never past the capacity reserved: that would double the column.
            if column.start.capacity < capacity && slot < capacity {
                column.start.reserveCapacity(capacity)
                reserved = column.start.reservedRange()
            }
            let end = max(slot + 1, min(slot + batch, column.start.capacity))
            column.start.appendNone(end - column.start.count)
        }
        column.start[slot] = store(utf8, prefix: prefix, in: &column, recent: recent, stage: stage)
        return reserved
    }

    /// Stores `utf8` in `column`'s bytes (through `stage`, if given), or finds it stored
    /// lately through `recent` (a table of the starts of recently stored texts by a hash of
    /// their first 16 bytes, `prefix`); where it starts. No table: always a new copy.
    @inline(always)
    private static func store(
        _ utf8: UnsafeBufferPointer<UInt8>, prefix: (UInt64, UInt64), in column: inout _TextColumn, recent: UnsafeMutablePointer<RecentText>?,
        stage: _TextStage? = nil
    ) -> Int {
        let n = utf8.count
        guard let recent else {
            if let stage, n <= 16 {
                // A short text as two words, no call and no loop.
                let at = stage.writeShort(prefix, count: n, to: &column)
                stage.advance(by: 1 &+ n)
                return at
            }
            return stage?.append(utf8, to: &column) ?? column.append(utf8)
        }
        let r = recentSlot(prefix: prefix, count: n)
        let seen = recent[r]
        if let stage, n <= 16 {
            // A short text (most JSON values, most XML texts and attribute values) with no
            // branch on whether it was stored lately, which no predictor guesses: it is
            // written past the staged texts either way, and kept only if it was not.
            let fresh = stage.writeShort(prefix, count: n, to: &column)
            let same = (seen.start >= 0 ? 1 : 0) & (seen.count == n ? 1 : 0) & (seen.prefix.0 == prefix.0 ? 1 : 0) & (seen.prefix.1 == prefix.1 ? 1 : 0)
            let at = same == 1 ? seen.start : fresh
            stage.advance(by: same == 1 ? 0 : 1 &+ n)
            recent[r] = RecentText(start: at, count: n, prefix: prefix)
            return at
        }
        if seen.start >= 0 && seen.count == n && seen.prefix == prefix
            && (n <= 16 || (stage?.holds(utf8, at: seen.start, in: column) ?? column.holds(utf8, at: seen.start))) {
            return seen.start
        }
        let at = stage?.append(utf8, to: &column) ?? column.append(utf8)
        recent[r] = RecentText(start: at, count: n, prefix: prefix)
        return at
    }

    /// Whether ``setValue(utf8:)`` looks a value up among those set lately and shares the
    /// bytes of an equal one (the default), or stores every value anew. Sharing suits
    /// markup, whose indentation texts repeat; a JSON import turns it off: its values are
    /// numbers and short strings the look-up seldom finds, and without it the project's
    /// JSON imported 10% faster for 3% more peak memory.
    package var sharesRecentValues = true {
        didSet { refreshDirectValues() }
    }

    /// While a value's slot is below `directValueSlots`, ``setValue(words:count:)`` writes
    /// its start straight into `directValueStarts`, the memory of the values' narrow starts
    /// (reserved for the capacity, so that it does not move), with no array call: a builder
    /// in direct mode that stores every value anew. 0 otherwise.
    @usableFromInline var directValueStarts = UnsafeMutablePointer<UInt32>(bitPattern: MemoryLayout<UInt32>.alignment)!
    @usableFromInline var directValueSlots = 0

    /// While a node's slot is below `directKeySlots`, ``setKey(words:count:)`` writes the
    /// start of a member name stored lately straight into `directKeyStarts`, the memory of
    /// the keys' narrow starts (reserved for the capacity, so that it does not move): a
    /// builder in direct mode. 0 otherwise.
    @usableFromInline var directKeyStarts = UnsafeMutablePointer<UInt32>(bitPattern: MemoryLayout<UInt32>.alignment)!
    @usableFromInline var directKeySlots = 0

    /// Sets ``directKeyStarts`` and ``directKeySlots`` from the keys' starts as they are now
    /// (after any change to their count, capacity or width), as ``refreshDirectValues()``.
    private mutating func refreshDirectKeys() {
        guard directLimit > 0 && !keyColumn.start.isWide && keyColumn.start.capacity >= capacity && keyColumn.start.count > 0 else {
            directKeySlots = 0
            return
        }
        directKeyStarts = keyColumn.start.narrow.withUnsafeMutableBufferPointer { $0.baseAddress! }
        directKeySlots = keyColumn.start.count
    }

    /// Sets ``directValueStarts`` and ``directValueSlots`` from the values' starts as they
    /// are now (after any change to their count, capacity or width).
    private mutating func refreshDirectValues() {
        // Read in place, not copied: a copy would make the array shared, and the pointer
        // taken below that of a fresh copy.
        guard directLimit > 0 && !sharesRecentValues && !content.text.start.isWide
            && content.text.start.capacity >= capacity && content.text.start.count > 0 else {
            directValueSlots = 0
            return
        }
        // The array is this builder's alone and does not move while it stays within the
        // capacity reserved: its memory is written in place until the next refresh.
        directValueStarts = content.text.start.narrow.withUnsafeMutableBufferPointer { $0.baseAddress! }
        directValueSlots = content.text.start.count
    }

    /// Gives the node opened last its own text, of at most 16 bytes (well-formed UTF-8,
    /// which is not checked), given as two little-endian words, zero past its `count`
    /// bytes: what a scanner that reads values as words has. The same as
    /// ``setValue(utf8:)``; inlined, and with no array call, in direct mode.
    ///
    /// - Complexity: O(1)
    @inlinable @inline(always)
    package mutating func setValue(words: (UInt64, UInt64), count n: Int) {
        if stagesDirectly(count: n, room: 16, { to in
            to.storeBytes(of: words.0.littleEndian, as: UInt64.self)
            to.storeBytes(of: words.1.littleEndian, toByteOffset: 8, as: UInt64.self)
        }) { return }
        setValueSlowly(words: words, count: n)
    }

    /// Gives the node opened last its own text, the `n` bytes at `p` (well-formed UTF-8,
    /// which is not checked), reading 32 bytes from `p`: all must be readable, whatever
    /// `n`. The same as ``setValue(utf8:)``; inlined, and with no array call, in direct
    /// mode for a text of 17 to 32 bytes (a float's digits, a short sentence), as
    /// ``setValue(words:count:)`` is for one of at most 16.
    ///
    /// - Complexity: O(n) amortized.
    @inlinable @inline(always)
    package mutating func setValue(readingThirtyTwoBytesAt p: UnsafePointer<UInt8>, count n: Int) {
        if stagesDirectly(count: n, room: 32, { to in
            let from = UnsafeRawPointer(p)
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 24, as: UInt64.self), toByteOffset: 24, as: UInt64.self)
        }) { return }
        setValue(utf8: UnsafeBufferPointer(start: p, count: n))
    }

    /// In direct mode, with the stage's room for a length byte and `room` bytes: writes
    /// `n` (at most `room`, below 128) as the length, lets `write` fill the `room` bytes
    /// after it (those past `n` are overwritten by the next text staged, or never kept),
    /// and makes the `n` bytes the value of the node opened last. False, with nothing
    /// written, outside direct mode or without the room.
    @inlinable @inline(always)
    mutating func stagesDirectly(count n: Int, room: Int, _ write: (UnsafeMutableRawPointer) -> Void) -> Bool {
        let slot = Int(nodes) &- 1
        let staged = valueStage.count.pointee
        let at = valueStage.inColumn.pointee &+ staged
        guard UInt(bitPattern: slot) < UInt(bitPattern: directValueSlots) && staged <= _TextStage.capacity &- 1 &- room
            && at < Int(UInt32.max) && UInt(bitPattern: n) <= UInt(bitPattern: room) else { return false }
        let to = UnsafeMutableRawPointer(valueStage.bytes + staged)
        to.storeBytes(of: UInt8(truncatingIfNeeded: n), as: UInt8.self)
        write(to + 1)
        directValueStarts[slot] = UInt32(truncatingIfNeeded: at)
        valueStage.count.pointee = staged &+ 1 &+ n
        return true
    }

    /// ``setValue(words:count:)`` through ``setValue(utf8:)``.
    @usableFromInline @inline(never)
    mutating func setValueSlowly(words: (UInt64, UInt64), count n: Int) {
        precondition(n >= 0 && n <= 16, "a text of \(n) bytes given as two words")
        Self.withText(words, count: n) { setValue(utf8: $0) }
    }

    /// Gives the node opened last its own text `utf8` (well-formed UTF-8, which is not
    /// checked): what ``ViewTree/value(of:)`` returns for it. Traps if no node was opened yet.
    ///
    /// - Complexity: O(utf8.count) amortized.
    public mutating func setValue(utf8: UnsafeBufferPointer<UInt8>) {
        precondition(nodes > 0, "setValue(utf8:) before any open()")
        let slot = Int(nodes) - 1
        if slot >= capacity && !warmers.isEmpty { stopWarmers() }
        if let reserved = Self.set(utf8, prefix: Self.prefixWords(utf8), at: slot, in: &content.text,
                                   recent: sharesRecentValues ? recent + Self.valueTable * Self.recentSlots : nil,
                                   capacity: capacity, stage: valueStage) {
            warm(reserved)
        }
        // More slots, or starts made wide: the direct writes' memory may have changed.
        refreshDirectValues()
    }

    /// Gives the node opened last its own text `text`. Traps if no node was opened yet.
    ///
    /// - Complexity: O(text's length) amortized.
    public mutating func setValue(_ text: String) {
        var text = text
        text.withUTF8 { setValue(utf8: $0) }
    }

    /// Gives the node opened last one more named attribute, `name` (an element's
    /// attribute name as written, registered as a type name) with the value `utf8`
    /// (well-formed UTF-8, which is not checked), after those given before. Traps if no
    /// node was opened yet. A name given twice is kept twice: the caller (a parser) checks
    /// uniqueness.
    ///
    /// - Complexity: O(utf8.count) amortized.
    public mutating func addAttribute(name: TypeID, utf8: UnsafeBufferPointer<UInt8>) {
        precondition(nodes > 0, "addAttribute(name:utf8:) before any open()")
        let slot = Int(nodes) - 1
        if content.attributes.first.count <= slot {
            if content.attributes.first.capacity < capacity && slot < capacity {
                content.attributes.first.reserveCapacity(capacity)
            }
            // A batch of slots with no run at once, not the slots since the last run one
            // append at a time: `finish()` and `rollBack(to:)` cut it back to the nodes.
            let end = max(slot + 1, min(slot + Self.batch, content.attributes.first.capacity))
            content.attributes.first.append(contentsOf: repeatElement(-1, count: end - content.attributes.first.count))
        }
        let at = Self.store(utf8, prefix: Self.prefixWords(utf8), in: &content.attributes.texts,
                            recent: recent + Self.attributeValueTable * Self.recentSlots, stage: attributeValueStage)
        precondition(attributeEntries < Int(Int32.max), "a tree holds at most 2^31 - 1 attributes")
        if stagedEntries == Self.batch { unstageAttributes() }
        // The node's run: started here, or the entry before it (its last so far) is not
        // the last any more.
        if content.attributes.first[slot] < 0 {
            content.attributes.first[slot] = Int32(attributeEntries)
        } else if stagedEntries > 0 {
            stagedNames[stagedEntries &- 1] &= ~_AttributeRuns.lastBit
        } else {
            content.attributes.name[attributeEntries &- 1] &= ~_AttributeRuns.lastBit
        }
        stagedNames[stagedEntries] = UInt32(bitPattern: name.rawValue) | _AttributeRuns.lastBit
        stagedValues[stagedEntries] = at
        stagedEntries &+= 1
        attributeEntries &+= 1
    }

    /// Appends the staged attribute entries to the runs' arrays.
    private mutating func unstageAttributes() {
        guard stagedEntries > 0 else { return }
        // Room reserved and not yet written: mapped in one call each, not faulted in page by page.
        content.attributes.name._populateRoom(for: stagedEntries)
        content.attributes.value._populateRoom(for: stagedEntries)
        content.attributes.name.append(contentsOf: UnsafeBufferPointer(start: stagedNames, count: stagedEntries))
        content.attributes.value.append(contentsOf: UnsafeBufferPointer(start: stagedValues, count: stagedEntries))
        stagedEntries = 0
        assert(content.attributes.name.count == attributeEntries, "attribute entries written around their stage")
    }

    /// Gives the node opened last the named attribute `name` with `value`.
    ///
    /// - Complexity: O(value's length) amortized.
    public mutating func addAttribute(name: String, value: String) {
        var value = value
        let type = TypeRegistry.shared.typeID(named: name)
        value.withUTF8 { addAttribute(name: type, utf8: $0) }
    }

    /// The slot of a text in a table of recent texts (``recentSlots`` of them): its first 16
    /// bytes as two words, multiplied so that every byte reaches the high bits, then
    /// MurmurHash3's final mix; the slot from the high bits.
    @inlinable @inline(always)
    static func recentSlot(prefix: (UInt64, UInt64), count: Int) -> Int {
        var hash = (prefix.0 &* 0x9E37_79B9_7F4A_7C15) ^ (prefix.1 &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(truncatingIfNeeded: count)
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash >> UInt64(64 - recentSlots.trailingZeroBitCount))
    }

    /// The first 16 bytes of `utf8` as two little-endian words, zero past its end, read
    /// without reading past its end.
    @inline(always)
    static func prefixWords(_ utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        guard let p = utf8.baseAddress else { return (0, 0) }
        let raw = UnsafeRawPointer(p)
        let n = utf8.count
        func word(_ at: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        if n >= 16 { return (word(0), word(8)) }
        if n >= 8 {
            // The last 8 bytes, shifted down over the ones already in the first word.
            return (word(0), n == 8 ? 0 : word(n - 8) >> UInt64(8 * (16 - n)))
        }
        if n >= 4 {
            // Two 4-byte reads that overlap: the shared bytes are the same in both.
            let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)))
            return (low | high << UInt64(8 * (n - 4)), 0)
        }
        // One to three bytes: the first, the middle and the last (for one or two bytes some
        // of them are the same byte, in the same place), with no loop.
        guard n > 0 else { return (0, 0) }
        let middle = n >> 1
        return (UInt64(p[0]) | UInt64(p[middle]) << UInt64(8 &* middle) | UInt64(p[n &- 1]) << UInt64(8 &* (n &- 1)), 0)
    }

    /// Forgets the starts of `column` past `nodes`.
    private static func cut(_ column: inout _TextColumn, to nodes: Int) {
        if column.start.count > nodes { column.start.removeLast(column.start.count - nodes) }
    }

    /// Forgets the content of nodes past `nodes`, and attribute entries past `entries`.
    private static func cut(_ content: inout _Content, to nodes: Int, entries: Int) {
        cut(&content.text, to: nodes)
        let a = content.attributes.first.count
        if a > nodes { content.attributes.first.removeLast(a - nodes) }
        if content.attributes.name.count > entries {
            content.attributes.name.removeLast(content.attributes.name.count - entries)
            content.attributes.value.removeLast(content.attributes.value.count - entries)
            // The run left last ends at the cut.
            if entries > 0 { content.attributes.name[entries - 1] |= _AttributeRuns.lastBit }
        }
    }

    /// The three attribute columns, in ``NodeAttribute`` order.
    private var columns: [_TextColumn] { [keyColumn, idColumn, classColumn] }

    /// Gives the node opened last the text `text` as its `attribute`. Traps if no node was
    /// opened yet.
    ///
    /// - Complexity: O(text's length) amortized.
    public mutating func setAttribute(_ attribute: NodeAttribute, _ text: String) {
        var text = text
        text.withUTF8 { setAttribute(attribute, utf8: $0) }
    }

    /// Where a stream stood: what ``rollBack(to:)`` returns the builder to.
    package struct Mark {
        fileprivate var nodes: Int32
        fileprivate var tokens: Int
        fileprivate var depth: Int
        fileprivate var attributeEntries: Int
    }

    /// The builder's state now, to return to if what follows is abandoned (an importer's
    /// fast path handing a document over to another parser).
    ///
    /// - Complexity: O(1)
    package var mark: Mark {
        Mark(nodes: nodes, tokens: directLimit > 0 ? directTokens : tree._storage.tour.token.count + stagedCount,
             depth: openCount, attributeEntries: attributeEntries)
    }

    /// Forgets every event since `mark` was taken: the nodes opened since, and the closes
    /// of nodes opened before it. The builder is then as it was (attribute texts stored
    /// since stay in their tables, unreferenced).
    ///
    /// - Complexity: O(events since the mark)
    package mutating func rollBack(to mark: Mark) {
        syncDirect()
        unstageAttributes()
        attributeEntries = mark.attributeEntries
        let s = tree._storage
        let flushedTokens = s.tour.token.count
        if mark.tokens >= flushedTokens {
            stagedCount = mark.tokens - flushedTokens
        } else {
            // The mark is inside the columns: undo the flushed events after it.
            stagedCount = 0
            let flushedNodes = s.parent.count
            var roots = 0
            for x in Int(mark.nodes) ..< flushedNodes where s.parent[x] == _TreeStorage.none { roots += 1 }
            let removed = flushedNodes - Int(mark.nodes)
            s.parent.removeLast(removed)
            s.typeID.removeLast(removed)
            s.narrowTag.removeLast(removed)
            s.tour.span.removeLast(removed)
            let tokens = flushedTokens - mark.tokens
            s.tour.token.removeLast(tokens)
            s.tour.tag.removeLast(tokens)
            s.tour.type.removeLast(tokens)
            s.liveCount -= removed
            s.rootCount -= roots
        }
        for x in s.wideTags.keys where x >= mark.nodes { s.wideTags[x] = nil }
        Self.cut(&keyColumn, to: Int(mark.nodes))
        Self.cut(&idColumn, to: Int(mark.nodes))
        Self.cut(&classColumn, to: Int(mark.nodes))
        Self.cut(&content, to: Int(mark.nodes), entries: mark.attributeEntries)
        // The open stack at the mark: every node open then is an ancestor-or-self of the
        // last node opened before it (it was open when that node opened), so the stack is
        // the first `depth` nodes of that node's path from its root.
        nodes = mark.nodes
        if directLimit > 0 { directTokens = s.tour.token.count }
        var path: [Int32] = []
        if mark.depth > 0 {
            var y = mark.nodes - 1
            while y != _TreeStorage.none {
                path.append(y)
                y = parentOf(y)
            }
        }
        for (k, x) in path.reversed().prefix(mark.depth).enumerated() { open[k] = x }
        openCount = mark.depth
        refreshDirectValues()
        refreshDirectKeys()
    }

    /// The parent of node `x`, staged or flushed.
    private func parentOf(_ x: Int32) -> Int32 {
        let s = tree._storage
        if Int(x) < s.parent.count { return s.parent[Int(x)] }
        for k in 0 ..< stagedCount where staged[k].token == x { return staged[k].parent }
        preconditionFailure("node \(x) is neither flushed nor staged")
    }

    /// The finished tree, its index ready. Traps if a node is still open.
    ///
    /// Whether an HTML parser reads the document (the tree's ``ViewTree/isHTMLDocument``):
    /// set by a markup reader of HTML.
    package var isHTMLDocument = false

    /// - Complexity: O(1) amortized over the nodes built (the last staged events are copied).
    public consuming func finish() -> ViewTree {
        precondition(openCount == 0, "finish() with \(openCount) node(s) still open")
        syncDirect()
        flush()
        for w in warmers { w.stop() }
        valueStage.unstage(into: &content.text)
        attributeValueStage.unstage(into: &content.attributes.texts)
        unstageAttributes()
        let s = tree._mutableStorage()
        s.tour.finishStreamed()
        Self.cut(&keyColumn, to: Int(nodes))
        Self.cut(&idColumn, to: Int(nodes))
        Self.cut(&classColumn, to: Int(nodes))
        Self.cut(&content, to: Int(nodes), entries: content.attributes.name.count)
        for (a, column) in columns.enumerated() where !column.isEmpty { s.attributes[a] = column }
        s.content = content
        s.isHTML = isHTMLDocument
        return tree
    }

    /// Copies the staged events into the columns: each new node's parent, type
    /// and tag, each token (with its tag and type copies) at the end of the tour, and each
    /// node's two positions. In a streamed build the tour is one contiguous run from slot
    /// 0, so a token's position is its slot.
    @usableFromInline @inline(never)
    mutating func flush() {
        guard stagedCount > 0 else { return }
        // Past the capacity the columns may move: the warmers must not map their old memory.
        if Int(nodes) > capacity && !warmers.isEmpty { stopWarmers() }
        // The builder's tree is its own: no copy, and no version to bump until `finish()`.
        let s = tree._storage
        let firstNode = s.parent.count
        let firstSlot = s.tour.token.count
        let newNodes = Int(nodes) - firstNode
        let events = UnsafeBufferPointer(start: staged, count: stagedCount)
        // Every element made here is written below (a span's exit as 0 with its enter, then
        // its own when the node closes): no zeros written first.
        s.parent.appendUnwritten(newNodes)
        s.typeID.appendUnwritten(newNodes)
        s.narrowTag.appendUnwritten(newNodes)
        s.tour.span.appendUnwritten(newNodes)
        s.tour.token.appendUnwritten(events.count)
        s.tour.tag.appendUnwritten(events.count)
        s.tour.type.appendUnwritten(events.count)
        precondition(firstSlot + events.count < Int(UInt32.max), "the index holds at most 2^32 - 1 tokens")
        var roots = 0
        s.parent.withUnsafeMutableBufferPointer { parent in
        s.typeID.withUnsafeMutableBufferPointer { typeID in
        s.narrowTag.withUnsafeMutableBufferPointer { narrowTag in
        s.tour.token.withUnsafeMutableBufferPointer { token in
        s.tour.tag.withUnsafeMutableBufferPointer { tag in
        s.tour.type.withUnsafeMutableBufferPointer { type in
        s.tour.span.withUnsafeMutableBufferPointer { span in
            for (k, e) in events.enumerated() {
                let slot = firstSlot &+ k
                token[slot] = e.token
                tag[slot] = e.tag
                type[slot] = e.type
                if e.token >= 0 {
                    let x = Int(e.token)
                    parent[x] = e.parent
                    typeID[x] = e.type
                    narrowTag[x] = e.tag
                    span[x] = _TourBlocks.Span(enter: UInt32(truncatingIfNeeded: slot), exit: 0)
                    if e.parent == _TreeStorage.none { roots &+= 1 }
                } else {
                    span[Int(~e.token)].exit = UInt32(truncatingIfNeeded: slot)
                }
            }
        }}}}}}}
        s.liveCount += newNodes
        s.rootCount += roots
        stagedCount = 0
        for w in warmers { w.advance(to: Int(nodes)) }
    }
}

/// Texts on their way to a ``_TextColumn``'s bytes (see ``ViewTreeBuilder``): stored as the
/// column stores them (a LEB128 byte count, then the UTF-8), each at the place it will have
/// once the stage is appended to the column, so that its start is final at once. A text
/// longer than the stage's room goes to the column directly, after what is staged.
/// The owner deallocates it.
@usableFromInline
struct _TextStage {
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    /// The bytes staged (pointers, so that the stage is used by value).
    @usableFromInline let count: UnsafeMutablePointer<Int>
    /// The column's bytes when the stage was last appended to it (the column, empty when
    /// the build starts, is written only through the stage): where the first staged byte
    /// will be, without reading the array's count on every text.
    @usableFromInline let inColumn: UnsafeMutablePointer<Int>
    @usableFromInline static var capacity: Int { 1 << 16 }

    init() {
        bytes = .allocate(capacity: Self.capacity)
        count = .allocate(capacity: 1)
        count.initialize(to: 0)
        inColumn = .allocate(capacity: 1)
        inColumn.initialize(to: 0)
    }

    func deallocate() {
        bytes.deallocate()
        count.deallocate()
        inColumn.deallocate()
    }

    /// Stores `utf8` as `column` will hold it; where it starts in the column's bytes.
    @inline(always)
    func append(_ utf8: UnsafeBufferPointer<UInt8>, to column: inout _TextColumn) -> Int {
        let n = utf8.count
        var header = 1
        while n >> (7 &* header) > 0 { header &+= 1 }
        if count.pointee &+ header &+ n > Self.capacity {
            unstage(into: &column)
            if header &+ n > Self.capacity {
                let at = column.append(utf8)
                inColumn.pointee = column.bytes.count
                return at
            }
        }
        let at = inColumn.pointee &+ count.pointee
        var p = bytes + count.pointee
        var rest = n
        repeat {
            p.pointee = UInt8(truncatingIfNeeded: rest & 0x7F) | (rest >= 0x80 ? 0x80 : 0)
            p += 1
            rest >>= 7
        } while rest > 0
        if let from = utf8.baseAddress { p.update(from: from, count: n) }
        count.pointee &+= header &+ n
        return at
    }

    /// Writes a text of at most 16 bytes, given as two little-endian words zero past its
    /// `n` bytes, after what is staged, without staging it (``advance(by:)`` keeps it);
    /// where it starts in the column's bytes once kept.
    @inline(always)
    func writeShort(_ words: (UInt64, UInt64), count n: Int, to column: inout _TextColumn) -> Int {
        if count.pointee &+ 17 > Self.capacity { unstage(into: &column) }
        let p = UnsafeMutableRawPointer(bytes + count.pointee)
        p.storeBytes(of: UInt8(truncatingIfNeeded: n), as: UInt8.self)
        p.storeBytes(of: words.0.littleEndian, toByteOffset: 1, as: UInt64.self)
        p.storeBytes(of: words.1.littleEndian, toByteOffset: 9, as: UInt64.self)
        return inColumn.pointee &+ count.pointee
    }

    /// Keeps the `k` bytes written after what is staged.
    @inline(always)
    func advance(by k: Int) { count.pointee &+= k }

    /// Whether the text stored at `at` (in `column` or staged) is `utf8`.
    @inline(always)
    func holds(_ utf8: UnsafeBufferPointer<UInt8>, at: Int, in column: _TextColumn) -> Bool {
        let inColumn = self.inColumn.pointee
        guard at >= inColumn else { return column.holds(utf8, at: at) }
        return _TextColumn.holds(utf8, at: at - inColumn, in: UnsafeBufferPointer(start: bytes, count: count.pointee))
    }

    /// Appends what is staged to `column`'s bytes.
    func unstage(into column: inout _TextColumn) {
        precondition(column.bytes.count == inColumn.pointee, "a staged text column written around its stage")
        guard count.pointee > 0 else { return }
        let n = count.pointee
        // Room reserved and not yet written (a whole import reserves its document's size):
        // its pages mapped in one call, not faulted in one by one by the copy.
        column.bytes._populateRoom(for: n)
        column.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: n))
        count.pointee = 0
        inColumn.pointee = column.bytes.count
    }
}

/// The memory of a streamed build's node and tour columns, reserved for its capacity, which
/// a ``ViewTreeBuilder`` writes directly (past the columns' counts, brought up to date
/// later). Valid while no column grows: the builder leaves direct mode before any does.
@usableFromInline
struct _DirectColumns {
    @usableFromInline var parent, typeID, narrowTag, token, tag, type: UnsafeMutablePointer<Int32>
    @usableFromInline var span: UnsafeMutablePointer<_TourBlocks.Span>

    /// No memory: placeholders never written.
    init() {
        let none = UnsafeMutablePointer<Int32>(bitPattern: MemoryLayout<Int32>.alignment)!
        (parent, typeID, narrowTag, token, tag, type) = (none, none, none, none, none, none)
        span = UnsafeMutablePointer(bitPattern: MemoryLayout<_TourBlocks.Span>.alignment)!
    }

    /// The memory of `s`'s columns, as reserved now.
    init(_ s: _TreeStorage) {
        (parent, typeID, narrowTag) = (s.parent.base, s.typeID.base, s.narrowTag.base)
        (token, tag, type, span) = (s.tour.token.base, s.tour.tag.base, s.tour.type.base, s.tour.span.base)
    }
}
