import RelativeViewEngine

/// A text that a node may carry besides its tag and type, so that the nodes of an imported
/// document can be found by what the document called them: the member name of a JSON value,
/// the `id` and `class` of a markup element.
///
/// A whole import (`ImportContent.whole`) keeps an element's `id` and `class` among its
/// named attributes (``ViewTree/attribute(named:of:)``) and not in these columns:
/// ``ViewTree/attribute(_:of:)`` reads them there when the column has no text for the node.
///
/// Each attribute is a column of the arena, made when a node of the tree first gets that
/// attribute: 8 bytes per node slot (where the node's text starts, or none), plus the text's
/// bytes (a tree loaded from a version 4 snapshot file reads 4-byte starts in place until
/// its first change to an attribute). A ``ViewTreeBuilder`` (an import) stores a text
/// repeated among the recent ones once (the same member name in every object of an array;
/// an `id`, meant to be unique, is not looked for); ``ViewTree/setAttribute(_:_:of:)`` stores each text it is given.
/// Reading a node's attribute is O(1) to find, O(its length) to copy out.
public enum NodeAttribute: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// The member name of a JSON value inside an object.
    case key
    /// A markup element's `id` attribute.
    case id
    /// A markup element's `class` attribute, as written (space-separated class names).
    case className

    /// The name in `recursiveDescription()`: `key`, `id` or `class`.
    ///
    /// - Complexity: O(1)
    public var description: String {
        switch self {
        case .key: "key"
        case .id: "id"
        case .className: "class"
        }
    }
}

extension ViewTree {
    /// The text of `attribute` on `node`, or `nil` if it has none. Traps on a stale id.
    ///
    /// - Complexity: O(1) to find, O(length) to copy out.
    public func attribute(_ attribute: NodeAttribute, of node: NodeID) -> String? {
        let s = _storage
        s.check(node)
        if let text = s.attributes[attribute.rawValue].text(at: Int(node.index)) { return text }
        // A whole import keeps `id` and `class` among the element's named attributes.
        guard attribute != .key, !s.content.attributes.isEmpty else { return nil }
        return self.attribute(named: attribute == .id ? "id" : "class", of: node)
    }

    /// Sets (or, with `nil`, removes) the text of `attribute` on `node`. Traps on a stale id.
    /// The shape is unchanged: indexes, spans and grouped answers stay valid.
    ///
    /// - Complexity: O(length) amortized (the column is made, O(slots), on first use). A
    ///   replaced text's bytes stay in the column's table until the tree is dropped.
    public mutating func setAttribute(_ attribute: NodeAttribute, _ text: String?, of node: NodeID) {
        _storage.check(node)
        _makeStorageUniqueAndOwned()
        let s = _storage
        let slot = Int(node.index)
        if var text {
            text.withUTF8 { s.attributes[attribute.rawValue].set($0, at: slot) }
        } else {
            s.attributes[attribute.rawValue].clear(at: slot)
        }
    }

    /// The attributes `node` carries, in ``NodeAttribute`` order, with their texts.
    ///
    /// - Complexity: O(attributes' lengths)
    public func attributes(of node: NodeID) -> [(NodeAttribute, String)] {
        let s = _storage
        s.check(node)
        var texts: [(NodeAttribute, String)] = []
        s.forEachAttribute(at: node.index) { texts.append(($0, $1)) }
        return texts
    }
}

extension _TreeStorage {
    /// Calls `body` with each attribute slot `x` carries and its text, in ``NodeAttribute``
    /// order (a column never written is skipped without a read).
    ///
    /// - Complexity: O(attributes' lengths)
    @inline(__always)
    func forEachAttribute(at x: Int32, _ body: (NodeAttribute, String) throws -> Void) rethrows {
        for a in NodeAttribute.allCases where !attributes[a.rawValue].isEmpty {
            if let text = attributes[a.rawValue].text(at: Int(x)) { try body(a, text) }
        }
    }
}

extension ViewTree {
    /// The most text bytes one attribute column holds (lengths included), over the
    /// attributes: whether a snapshot's 4-byte starts can point into each.
    ///
    /// - Complexity: O(1)
    package var _mostAttributeTextBytes: Int {
        _storage.attributes.lazy.map { $0.withParts { _, bytes in bytes.count } }.max() ?? 0
    }
}

/// One attribute's column: per node slot, where its text starts in `bytes` (a LEB128 byte
/// count, then the UTF-8), or -1 for none. Slots past the end of `start` have none. A
/// builder stores a text repeated among recent ones once (see `ViewTreeBuilder`).
///
/// A column may borrow its starts and texts from memory it does not own (``_BorrowedTexts``:
/// a loaded snapshot's, read in place); `start` and `bytes` are then empty, reads go to the
/// borrowed memory, and the first write copies it into `start` and `bytes`.
@usableFromInline
package struct _TextColumn {
    package var start = _TextStartColumn()
    package var bytes: [UInt8] = []
    package var borrowed: _BorrowedTexts?

    package init(start: [Int] = [], bytes: [UInt8] = []) {
        self.start = _TextStartColumn(start)
        self.bytes = bytes
    }

    package init(borrowing texts: _BorrowedTexts) {
        borrowed = texts
    }

    /// The number of slots with an entry (a start or -1).
    package var startCount: Int { borrowed?.starts.count ?? start.count }

    package var isEmpty: Bool { startCount == 0 }

    /// Calls `body` with the starts and the texts, borrowed or owned.
    package func withParts<R>(_ body: (_ starts: _TextStarts, _ bytes: UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let borrowed { return try body(borrowed.starts, borrowed.bytes) }
        return try start.withStarts { starts in try bytes.withUnsafeBufferPointer { try body(starts, $0) } }
    }

    /// Makes the column its own: copies borrowed starts and texts into `start` and `bytes`.
    package mutating func own() {
        guard let borrowed else { return }
        start = _TextStartColumn(borrowed.starts.array())
        bytes = Array(borrowed.bytes)
        self.borrowed = nil
    }

    /// The text at `slot`, if any.
    ///
    /// Checked reads (a few comparisons beside the copy): borrowed texts were validated
    /// when they were loaded, but a mapped file that another process rewrites in place
    /// changes under the tree, and that must trap, not read out of bounds.
    package func text(at slot: Int) -> String? {
        withParts { starts, b in
            guard slot < starts.count, starts[slot] >= 0 else { return nil }
            let at = starts[slot]
            precondition(at < b.count, Self.changedUnderfoot)
            guard let (count, from) = Self.checkedLength(in: b, at: at), count >= 0, count <= b.count - from else {
                preconditionFailure(Self.changedUnderfoot)
            }
            return String(decoding: UnsafeBufferPointer(rebasing: b[from ..< from + count]), as: UTF8.self)
        }
    }

    /// The byte count stored at `i` (a position in `b`) and where the text's bytes start,
    /// each length byte read once and within `b`: `nil` if the count runs past `b`'s end or
    /// past 63 bits. How texts that may not be sound are read (a loaded snapshot's, checked
    /// by `ViewTree._attributeTextFlaw`, and texts read in place).
    @inline(__always)
    package static func checkedLength(in b: UnsafeBufferPointer<UInt8>, at i: Int) -> (count: Int, from: Int)? {
        var count = Int(b[i])
        var j = i &+ 1
        // One byte for a text under 128 bytes.
        if count < 0x80 { return (count, j) }
        count &= 0x7F
        var shift = 7
        while true {
            guard j < b.count, shift < 63 else { return nil }
            let byte = b[j]
            count |= Int(byte & 0x7F) << shift
            j &+= 1
            if byte < 0x80 { return (count, j) }
            shift &+= 7
        }
    }

    package static let changedUnderfoot = "an attribute text lies outside its column: the snapshot file this tree reads in place was changed after it was loaded (replace snapshot files, never rewrite them in place)"

    /// The byte count stored at `i` and where the text's bytes start.
    @inline(__always)
    package static func length(in b: UnsafeBufferPointer<UInt8>, at i: Int) -> (Int, Int) {
        var (count, shift, j) = (0, 0, i)
        while true {
            let byte = b[j]
            count |= Int(byte & 0x7F) << shift
            j += 1
            if byte < 0x80 { return (count, j) }
            shift += 7
        }
    }

    /// Gives `slot` the text `utf8`, appended to the table.
    package mutating func set(_ utf8: UnsafeBufferPointer<UInt8>, at slot: Int) {
        own()
        if slot >= start.count { start.appendNone(slot + 1 - start.count) }
        start[slot] = append(utf8)
    }

    /// Removes `slot`'s text.
    package mutating func clear(at slot: Int) {
        own()
        if slot < start.count { start[slot] = -1 }
    }

    /// Whether the text stored at `at` is `utf8`.
    package func holds(_ utf8: UnsafeBufferPointer<UInt8>, at: Int) -> Bool {
        bytes.withUnsafeBufferPointer { Self.holds(utf8, at: at, in: $0) }
    }

    /// Whether the text stored at `at` in `b` (a column's bytes, or a stage of them) is `utf8`.
    @inline(always)
    static func holds(_ utf8: UnsafeBufferPointer<UInt8>, at: Int, in b: UnsafeBufferPointer<UInt8>) -> Bool {
        let (count, from) = length(in: b, at: at)
        guard count == utf8.count else { return false }
        guard let p = utf8.baseAddress, let q = b.baseAddress else { return true }
        for k in 0 ..< count where p[k] != q[from &+ k] { return false }
        return true
    }

    /// Appends `utf8` to `bytes` (its length first); where it starts.
    package mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        let at = bytes.count
        var count = utf8.count
        repeat {
            bytes.append(UInt8(count & 0x7F) | (count >= 0x80 ? 0x80 : 0))
            count >>= 7
        } while count > 0
        bytes.append(contentsOf: utf8)
        return at
    }

    /// The bytes it takes: its starts (by capacity) and texts; borrowed ones do not count:
    /// they are the owner's memory (a loaded snapshot's pages, shared with the page cache
    /// when mapped), as the node columns a tree reads in place are.
    package var memoryFootprint: Int {
        // Borrowed starts and texts are the snapshot file's pages (see `ViewTree.memoryFootprint`).
        if borrowed != nil { return 0 }
        return start.capacityBytes + bytes.capacity
    }
}

/// A text column's own starts, each read and written as an `Int` (-1 for none) and kept in
/// four bytes (`UInt32.max` for none) while every start is below `UInt32.max`: half the
/// memory of `Int`s, and half the pages a build faults in (a whole JSON import gives every
/// value a start). The first start from `UInt32.max` on widens the column to `Int`s once,
/// so a column of more than 4 GiB of texts still works.
@usableFromInline
package struct _TextStartColumn {
    @usableFromInline var narrow: [UInt32] = []
    @usableFromInline var wide: [Int] = []
    @usableFromInline var isWide = false

    package init() {}

    /// `starts` as they are: narrow if each is -1 or fits, else wide (a loaded snapshot's
    /// starts are checked after this, and a wrong one must stay as it was to be reported).
    package init(_ starts: [Int]) {
        if starts.allSatisfy({ $0 >= -1 && $0 < Int(UInt32.max) }) {
            narrow = starts.map { $0 < 0 ? UInt32.max : UInt32($0) }
        } else {
            (wide, isWide) = (starts, true)
        }
    }

    package var count: Int { isWide ? wide.count : narrow.count }
    package var isEmpty: Bool { count == 0 }
    package var capacity: Int { isWide ? wide.capacity : narrow.capacity }
    /// The bytes its capacity takes.
    package var capacityBytes: Int { isWide ? wide.capacity * MemoryLayout<Int>.stride : narrow.capacity * 4 }

    /// The start of slot `i`, -1 for none.
    @inlinable
    package subscript(i: Int) -> Int {
        @inline(__always) get {
            if isWide { return wide[i] }
            let v = narrow[i]
            return v == UInt32.max ? -1 : Int(v)
        }
        @inline(__always) set {
            if !isWide && newValue < Int(UInt32.max) {
                narrow[i] = newValue < 0 ? UInt32.max : UInt32(truncatingIfNeeded: newValue)
            } else {
                setWide(i, newValue)
            }
        }
    }

    /// Slot `i`'s start as an `Int`, widening first. Out of line: the setter is inlined
    /// into the builder's hottest path, which this rare case made too large to inline.
    @usableFromInline @inline(never)
    mutating func setWide(_ i: Int, _ start: Int) {
        widen()
        wide[i] = start
    }

    /// Makes every start an `Int` (once a start no longer fits four bytes).
    @usableFromInline @inline(never)
    mutating func widen() {
        guard !isWide else { return }
        wide.reserveCapacity(narrow.capacity)
        wide.append(contentsOf: narrow.lazy.map { $0 == UInt32.max ? -1 : Int($0) })
        narrow = []
        isWide = true
    }

    /// Appends `count` slots with no text.
    @inline(never)
    package mutating func appendNone(_ count: Int) {
        if isWide { wide.append(contentsOf: repeatElement(-1, count: count)) } else { narrow.append(contentsOf: repeatElement(UInt32.max, count: count)) }
    }

    package mutating func removeLast(_ k: Int) {
        if isWide { wide.removeLast(k) } else { narrow.removeLast(k) }
    }

    @inline(never)
    package mutating func reserveCapacity(_ n: Int) {
        if isWide { wide.reserveCapacity(n) } else { narrow.reserveCapacity(n) }
    }

    /// The memory its capacity takes, for a page warmer.
    @inline(never)
    package mutating func reservedRange() -> _PageWarmer.Range {
        isWide ? _PageWarmer.Range(capacityOf: &wide) : _PageWarmer.Range(capacityOf: &narrow)
    }

    /// Calls `body` with the starts in place.
    package func withStarts<R>(_ body: (_TextStarts) throws -> R) rethrows -> R {
        if isWide { return try wide.withUnsafeBufferPointer { try body(_TextStarts($0)) } }
        return try narrow.withUnsafeBufferPointer { try body(_TextStarts(narrow: $0)) }
    }

    /// The starts as `Int`s, -1 for none.
    package func array() -> [Int] { isWide ? wide : narrow.map { $0 == UInt32.max ? -1 : Int($0) } }
}

/// An attribute column's starts in memory, each read as an `Int` (-1 for none): 8-byte
/// `Int`s (a column of more than 4 GiB of texts, a version 1 to 3 snapshot), or narrow
/// ones, 4-byte `UInt32`s with `UInt32.max` for none, as a tree keeps them
/// (``_TextStartColumn``), a version 4 snapshot stores them and a tree loaded from it reads them in place
/// (half the bytes; a version 4 snapshot's texts of one attribute number fewer than
/// 2^32 - 1 bytes, which the loader checks).
@usableFromInline
package struct _TextStarts {
    @usableFromInline package let base: UnsafeRawPointer?
    @usableFromInline package let count: Int
    /// Whether each start takes 4 bytes (else 8).
    @usableFromInline package let isNarrow: Bool

    /// Wide starts: `Int`s, -1 for none.
    package init(_ starts: UnsafeBufferPointer<Int>) {
        (base, count, isNarrow) = (starts.baseAddress.map(UnsafeRawPointer.init), starts.count, false)
    }

    /// Narrow starts: `UInt32`s, `UInt32.max` for none.
    package init(narrow starts: UnsafeBufferPointer<UInt32>) {
        (base, count, isNarrow) = (starts.baseAddress.map(UnsafeRawPointer.init), starts.count, true)
    }

    package var indices: Range<Int> { 0 ..< count }

    /// The start of slot `i` (in `0 ..< count`), -1 for none.
    @inlinable @inline(__always)
    package subscript(i: Int) -> Int {
        precondition(i >= 0 && i < count, "attribute start \(i) out of 0 ..< \(count)")
        if isNarrow {
            let v = base.unsafelyUnwrapped.load(fromByteOffset: 4 &* i, as: UInt32.self)
            // On a 32-bit platform a start past Int.max is out of any texts' range.
            return v == UInt32.max ? -1 : Int(exactly: v) ?? Int.max
        }
        return base.unsafelyUnwrapped.load(fromByteOffset: MemoryLayout<Int>.stride &* i, as: Int.self)
    }

    /// Where the start of slot `i` lies in memory, for a read ahead of it (`nil` past the
    /// starts, or with none).
    @inlinable @inline(__always)
    package func address(_ i: Int) -> UnsafeRawPointer? {
        guard i >= 0, i < count, let base else { return nil }
        return base + (isNarrow ? i &* 4 : i &* MemoryLayout<Int>.stride)
    }

    /// The starts as `Int`s, -1 for none.
    package func array() -> [Int] {
        guard count > 0 else { return [] }
        return [Int](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0 ..< count { buffer[i] = self[i] }
            initialized = count
        }
    }

    /// The starts of `range` (within `indices`).
    package func slice(_ range: Range<Int>) -> _TextStarts {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "attribute starts \(range) out of 0 ..< \(count)")
        return _TextStarts(base: base.map { $0 + range.lowerBound * (isNarrow ? 4 : MemoryLayout<Int>.stride) }, count: range.count, isNarrow: isNarrow)
    }

    /// `count` starts at `base` (raw memory: they are loaded, not bound), narrow or wide.
    package init(base: UnsafeRawPointer?, count: Int, isNarrow: Bool) {
        precondition(count == 0 || base != nil, "attribute starts with no memory")
        (self.base, self.count, self.isNarrow) = (base, count, isNarrow)
    }
}

/// An attribute column's starts and texts in memory that `owner` keeps alive and nobody
/// writes (a snapshot file mapped read-only, or read into a buffer): how a loaded tree reads
/// its attributes in place instead of copying them. Immutable, so `@unchecked Sendable`.
package final class _BorrowedTexts: @unchecked Sendable {
    package let starts: _TextStarts
    package let bytes: UnsafeBufferPointer<UInt8>
    package let owner: AnyObject

    /// Texts read from `starts` (wide or narrow) and `bytes`, valid as long as `owner` lives.
    package init(starts: _TextStarts, bytes: UnsafeBufferPointer<UInt8>, owner: AnyObject) {
        (self.starts, self.bytes, self.owner) = (starts, bytes, owner)
    }
}
