/// A text that a node may carry besides its tag and type, so that the nodes of an imported
/// document can be found by what the document called them: the member name of a JSON value,
/// the `id` and `class` of a markup element.
///
/// Each attribute is a column of the arena, made when a node of the tree first gets that
/// attribute: 8 bytes per node slot (where the node's text starts, or none), plus the text's
/// bytes, which are stored once for a text repeated among recently stored ones (the same
/// member name in every object of an array; an `id`, meant to be unique, is not looked for). Reading a node's attribute is O(1) to find,
/// O(its length) to copy out.
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
        return s.attributes[attribute.rawValue].text(at: Int(node.index))
    }

    /// Sets (or, with `nil`, removes) the text of `attribute` on `node`. Traps on a stale id.
    /// The shape is unchanged: indexes, spans and grouped answers stay valid.
    ///
    /// - Complexity: O(length) amortized (the column is made, O(slots), on first use). A
    ///   replaced text's bytes stay in the column's table until the tree is dropped.
    public mutating func setAttribute(_ attribute: NodeAttribute, _ text: String?, of node: NodeID) {
        _storage.check(node)
        if !isKnownUniquelyReferenced(&_storage) { _storage = _TreeStorage(copying: _storage) }
        let s = _storage
        let slot = Int(node.index)
        if var text {
            text.withUTF8 { s.attributes[attribute.rawValue].set($0, at: slot, repeats: attribute != .id) }
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
        return NodeAttribute.allCases.compactMap { a in s.attributes[a.rawValue].text(at: Int(node.index)).map { (a, $0) } }
    }
}

/// One attribute's column: per node slot, where its text starts in `bytes` (a LEB128 byte
/// count, then the UTF-8), or -1 for none. Slots past the end of `start` have none.
@usableFromInline
struct _TextColumn {
    var start: [Int] = []
    var bytes: [UInt8] = []
    /// Starts of recently stored texts by a hash of their bytes, so that a text repeated
    /// among them is stored once.
    private var recent: [Int] = []

    static let recentSlots = 1024  // a power of two

    var isEmpty: Bool { start.isEmpty }

    /// The text at `slot`, if any.
    func text(at slot: Int) -> String? {
        guard slot < start.count, start[slot] >= 0 else { return nil }
        return bytes.withUnsafeBufferPointer { b in
            let (count, from) = Self.length(in: b, at: start[slot])
            return String(decoding: UnsafeBufferPointer(rebasing: b[from ..< from + count]), as: UTF8.self)
        }
    }

    /// The byte count stored at `i` and where the text's bytes start.
    private static func length(in b: UnsafeBufferPointer<UInt8>, at i: Int) -> (Int, Int) {
        var (count, shift, j) = (0, 0, i)
        while true {
            let byte = b[j]
            count |= Int(byte & 0x7F) << shift
            j += 1
            if byte < 0x80 { return (count, j) }
            shift += 7
        }
    }

    /// Gives `slot` the text `utf8`, looked for among the recent texts first unless it is
    /// not expected to repeat (`repeats`: false for an `id`).
    mutating func set(_ utf8: UnsafeBufferPointer<UInt8>, at slot: Int, repeats: Bool = true) {
        // One element at a time: a streamed import sets a node's text right after the
        // node opened, so this appends a few starts, and a generic append of a repeated
        // element would cost more than they do.
        while start.count <= slot { start.append(-1) }
        start[slot] = repeats ? store(utf8) : append(utf8)
    }

    /// Removes `slot`'s text.
    mutating func clear(at slot: Int) {
        if slot < start.count { start[slot] = -1 }
    }

    /// Where `utf8` is in `bytes`: a recent copy, or a new one appended. Raw loops: a
    /// streamed import stores a text per node, most of them a few bytes long.
    private mutating func store(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        if recent.isEmpty { recent = Array(repeating: -1, count: Self.recentSlots) }
        let n = utf8.count
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(n)
        if let p = utf8.baseAddress {
            for k in 0 ..< min(n, 16) { hash = (hash ^ UInt64(p[k])) &* 0x100_0000_01B3 }
        }
        // FNV-1a leaves the high bits of a short text's hash nearly alike (every one-letter
        // text fell in one slot); a final mix (MurmurHash3's) spreads them.
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        let r = Int(truncatingIfNeeded: hash) & (Self.recentSlots - 1)
        let candidate = recent[r]
        if candidate >= 0 {
            let same = bytes.withUnsafeBufferPointer { b -> Bool in
                let (count, from) = Self.length(in: b, at: candidate)
                guard count == n else { return false }
                guard let p = utf8.baseAddress, let q = b.baseAddress else { return true }
                for k in 0 ..< n where p[k] != q[from &+ k] { return false }
                return true
            }
            if same { return candidate }
        }
        let at = append(utf8)
        recent[r] = at
        return at
    }

    /// Appends `utf8` to `bytes` (its length first); where it starts.
    private mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        let at = bytes.count
        var count = utf8.count
        repeat {
            bytes.append(UInt8(count & 0x7F) | (count >= 0x80 ? 0x80 : 0))
            count >>= 7
        } while count > 0
        bytes.append(contentsOf: utf8)
        return at
    }

    /// The bytes it takes: its starts (by capacity), texts and recent table.
    var memoryFootprint: Int {
        start.capacity * MemoryLayout<Int>.stride + bytes.capacity + recent.capacity * MemoryLayout<Int>.stride
    }
}
