import RelativeViewEngine
/// What a node of a document is: an element, or one of the pieces of content between
/// elements that an import keeps (``ViewTree/kind(of:)``).
///
/// The kind is told by the node's type name, so a content node costs no column of its own
/// and a question by type (a grouping keyed by types) reaches it as it reaches
/// an element: text is `#text`, a CDATA section `#cdata-section`, a comment `#comment`
/// (the names the DOM gives them as `nodeName`), and a processing instruction `?` and its
/// target (`?xml-stylesheet`): names no element can have, since an XML name starts with
/// neither `#` nor `?`. Every other type is an element (a JSON value's type among them:
/// `object`, `string`...).
///
/// Text is made of nodes, as in the XPath and DOM data models, rather than kept inside
/// the element: mixed content (`<p>a <b>b</b> c</p>`) keeps its order with no offsets,
/// `text()` in a query is a node test like any other, and a text node has its own place
/// in document order and in the index (its own interval), so the queries of the relative-
/// view API and the set-at-a-time steps of a query engine need nothing new to reach it.
public enum NodeKind: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// An element (or a node of a view tree, or a JSON value): a node of any type but the
    /// content types below.
    case element
    /// Character data: its ``ViewTree/value(of:)`` is the text, references decoded.
    case text
    /// A CDATA section: its ``ViewTree/value(of:)`` is the section's text.
    case cdata
    /// A comment: its ``ViewTree/value(of:)`` is the text between `<!--` and `-->`.
    case comment
    /// A processing instruction: its target is its type name after the `?`, and its
    /// ``ViewTree/value(of:)`` is the instruction's data (after the target and the spaces
    /// that follow it).
    case processingInstruction

    /// The type name of text nodes.
    ///
    /// - Complexity: O(1)
    public static let textTypeName = "#text"
    /// The type name of CDATA sections.
    ///
    /// - Complexity: O(1)
    public static let cdataTypeName = "#cdata-section"
    /// The type name of comments.
    ///
    /// - Complexity: O(1)
    public static let commentTypeName = "#comment"

    /// The type name of a processing instruction with `target`: `?` then the target.
    ///
    /// - Complexity: O(target's length)
    public static func processingInstructionTypeName(target: String) -> String { "?" + target }

    /// The kind a node whose type is named `typeName` has.
    ///
    /// - Complexity: O(1)
    public init(typeName: String) {
        switch typeName.utf8.first {
        case UInt8(ascii: "#"):
            switch typeName {
            case Self.textTypeName: self = .text
            case Self.cdataTypeName: self = .cdata
            case Self.commentTypeName: self = .comment
            default: self = .element
            }
        case UInt8(ascii: "?"): self = .processingInstruction
        default: self = .element
        }
    }

    /// `element`, `text`, `cdata`, `comment` or `processingInstruction`.
    ///
    /// - Complexity: O(1)
    public var description: String {
        switch self {
        case .element: "element"
        case .text: "text"
        case .cdata: "cdata"
        case .comment: "comment"
        case .processingInstruction: "processingInstruction"
        }
    }
}

/// The content type ids of the process's registry (they never change once registered),
/// and a per-type table of kinds for walks that ask every node's kind.
package struct _ContentTypes: Sendable {
    package let text: TypeID
    package let cdata: TypeID
    package let comment: TypeID

    package static let shared = _ContentTypes()

    private init() {
        let r = TypeRegistry.shared
        (text, cdata, comment) = (r.typeID(named: NodeKind.textTypeName), r.typeID(named: NodeKind.cdataTypeName), r.typeID(named: NodeKind.commentTypeName))
    }

    /// The kind of nodes of `type`.
    ///
    /// - Complexity: O(1) for the three content types; a registry lookup for the others.
    package func kind(of type: TypeID) -> NodeKind {
        if type == text { return .text }
        if type == cdata { return .cdata }
        if type == comment { return .comment }
        return NodeKind(typeName: TypeRegistry.shared.name(of: type))
    }
}

/// The named attributes of a tree's nodes, each node's in the order they were given: per
/// node slot, where its run of entries starts (-1 for none; slots past the end of `first`
/// have none), and per entry its name (a ``TypeID``'s raw value, with ``lastBit`` set on
/// a run's last entry) and where its value starts in `texts` (a LEB128 byte count, then
/// the UTF-8, as ``_TextColumn`` stores texts).
///
/// An import appends runs in node order, so the entries of a document are one array in
/// document order. A change to a node's run rewrites it in place when it keeps its length
/// or shrinks, and appends a new run otherwise (the old entries stay, unreferenced, and
/// are counted in ``unusedEntries``).
@usableFromInline
package struct _AttributeRuns {
    /// A loaded snapshot's is read where it lies in the file's memory (borrowed, see
    /// ``_Column``) until its first change, which copies it.
    package var first = _Column<Int32>()
    package var name: [UInt32] = []
    package var value: [Int] = []
    /// The values' bytes (its `start` is unused).
    package var texts = _TextColumn()
    /// Entries no run holds any more.
    package var unusedEntries = 0
    /// Moves on at every change of the runs (of `first`): what a query index derived from
    /// the runs of one version of the tree (whose shape an attribute's edit does not change)
    /// compares, to know whether it still holds.
    package private(set) var stamp: UInt64 = 0

    @usableFromInline package static let lastBit: UInt32 = 1 << 31

    package init() {}

    package var isEmpty: Bool { first.isEmpty }

    /// The entries of `slot`'s run (empty if it has none).
    @inline(__always)
    package func run(of slot: Int) -> Range<Int> {
        guard slot < first.count else { return 0 ..< 0 }
        let f = first[slot]
        guard f >= 0 else { return 0 ..< 0 }
        var e = Int(f)
        while name[e] & Self.lastBit == 0 { e &+= 1 }
        return Int(f) ..< e &+ 1
    }

    /// The name of entry `e`.
    @inline(__always)
    package func name(at e: Int) -> TypeID { TypeID(rawValue: Int32(bitPattern: name[e] & ~Self.lastBit)) }

    /// The value of entry `e`.
    package func value(at e: Int) -> String { texts.text(atByte: value[e]) }

    /// Calls `body` with the UTF-8 of entry `e`'s value.
    @inline(__always)
    package func withValue<R>(at e: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        texts.withBytes(atByte: value[e], body)
    }

    /// The entry of `slot`'s run named `name`, if any.
    package func entry(named name: TypeID, at slot: Int) -> Int? {
        for e in run(of: slot) where self.name(at: e) == name { return e }
        return nil
    }

    /// Makes `first` the runs' own where it is borrowed: what every change does first (a
    /// storage copied for a change copies it: see ``_TreeStorage/init(copying:)``).
    @inline(__always)
    private mutating func ownFirst() {
        if _slowPath(first.isBorrowed) { first = first.copied() }
    }

    /// Grows `first` to cover `slot` (with -1).
    @inline(__always)
    private mutating func cover(_ slot: Int) {
        ownFirst()
        if slot >= first.count { first.append(contentsOf: repeatElement(-1, count: slot + 1 - first.count)) }
    }

    /// Appends an entry to the run of `slot`, which must be the last run of the entries
    /// or have none (how a builder gives the node it opened last its attributes).
    @inline(__always)
    package mutating func appendToLastRun(name n: TypeID, valueAt v: Int, slot: Int) {
        stamp &+= 1
        cover(slot)
        precondition(name.count < Int(Int32.max), "a tree holds at most 2^31 - 1 attributes")
        if first[slot] < 0 {
            first[slot] = Int32(name.count)
        } else {
            name[name.count &- 1] &= ~Self.lastBit
        }
        name.append(UInt32(bitPattern: n.rawValue) | Self.lastBit)
        value.append(v)
    }

    /// ``appendToLastRun(name:valueAt:slot:)`` with a name's raw value (a loader's).
    package mutating func appendToLastRun(rawName n: Int32, valueAt v: Int, slot: Int) {
        appendToLastRun(name: TypeID(rawValue: n), valueAt: v, slot: slot)
    }

    /// Gives `slot` the attribute `n` with the value `utf8`: replaced where it is, or
    /// added after the others.
    package mutating func set(_ n: TypeID, _ utf8: UnsafeBufferPointer<UInt8>, at slot: Int) {
        stamp &+= 1
        texts.own()
        let v = texts.append(utf8)
        if let e = entry(named: n, at: slot) {
            value[e] = v
            return
        }
        let old = run(of: slot)
        cover(slot)
        precondition(name.count + old.count < Int(Int32.max), "a tree holds at most 2^31 - 1 attributes")
        if old.upperBound == name.count && !old.isEmpty {
            // The last run: grows in place.
            appendToLastRun(name: n, valueAt: v, slot: slot)
            return
        }
        let start = name.count
        for e in old {
            name.append(name[e] & ~Self.lastBit)
            value.append(value[e])
        }
        name.append(UInt32(bitPattern: n.rawValue) | Self.lastBit)
        value.append(v)
        first[slot] = Int32(start)
        unusedEntries += old.count
    }

    /// Removes the attribute `n` of `slot`; whether it had one.
    @discardableResult
    package mutating func remove(_ n: TypeID, at slot: Int) -> Bool {
        stamp &+= 1
        guard let e = entry(named: n, at: slot) else { return false }
        ownFirst()
        let r = run(of: slot)
        if r.count == 1 {
            first[slot] = -1
        } else {
            // The later entries move up by one; the run's new last gets the mark.
            for k in e ..< r.upperBound - 1 {
                name[k] = name[k + 1]
                value[k] = value[k + 1]
            }
            name[r.upperBound - 2] |= Self.lastBit
            name[r.upperBound - 1] = Self.lastBit  // unused now
        }
        unusedEntries += 1
        return true
    }

    /// Removes every attribute of `slot`.
    package mutating func clear(at slot: Int) {
        stamp &+= 1
        let r = run(of: slot)
        guard !r.isEmpty else { return }
        ownFirst()
        first[slot] = -1
        unusedEntries += r.count
    }

    /// The bytes it takes (by capacity).
    package var memoryFootprint: Int {
        first.capacity * MemoryLayout<Int32>.stride + name.capacity * MemoryLayout<UInt32>.stride
            + value.capacity * MemoryLayout<Int>.stride + texts.memoryFootprint
    }
}

extension _TextColumn {
    /// The text stored at byte `at` of `bytes` (owned bytes: a value table's).
    package func text(atByte at: Int) -> String {
        withBytes(atByte: at) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 of the text stored at byte `at` of the bytes, borrowed
    /// or owned.
    @inline(__always)
    package func withBytes<R>(atByte at: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withParts { _, b in
            precondition(at >= 0 && at < b.count, Self.changedUnderfoot)
            guard let (count, from) = Self.checkedLength(in: b, at: at), count >= 0, count <= b.count - from else {
                preconditionFailure(Self.changedUnderfoot)
            }
            return body(UnsafeBufferPointer(rebasing: b[from ..< from + count]))
        }
    }

    /// Calls `body` with the UTF-8 of `slot`'s text, or `nil` if it has none.
    @inline(__always)
    package func withText<R>(at slot: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        let at = withParts { starts, _ in slot < starts.count ? starts[slot] : -1 }
        guard at >= 0 else { return body(nil) }
        return withBytes(atByte: at, body)
    }
}

extension ViewTree {
    /// What `node` is: an element, text, a CDATA section, a comment or a processing
    /// instruction (see ``NodeKind``). Traps on a stale id.
    ///
    /// - Complexity: O(1) for elements of a registered name and the content kinds.
    public func kind(of node: NodeID) -> NodeKind {
        let s = _storage
        s.check(node)
        return _ContentTypes.shared.kind(of: TypeID(rawValue: s.typeID[Int(node.index)]))
    }

    /// The text a node holds itself (the DOM's `nodeValue`): a text node's or a CDATA
    /// section's text, a comment's, a processing instruction's data, a JSON scalar's value
    /// (a string decoded, a number as written, `true` or `false`); `nil` for a node that
    /// holds none (an element, an object). Traps on a stale id.
    ///
    /// - Complexity: O(1) to find, O(length) to copy out.
    public func value(of node: NodeID) -> String? {
        let s = _storage
        s.check(node)
        return s.content.text.text(at: Int(node.index))
    }

    /// Sets (or, with `nil`, removes) the text `node` holds itself (see ``value(of:)``).
    /// The shape is unchanged. Traps on a stale id.
    ///
    /// - Complexity: O(length) amortized. A replaced text's bytes stay in the tree's table
    ///   until the tree is saved or dropped.
    public mutating func setValue(_ text: String?, of node: NodeID) {
        _storage.check(node)
        _makeStorageUniqueAndOwned()
        let s = _storage
        if var text {
            text.withUTF8 { s.content.text.set($0, at: Int(node.index)) }
        } else {
            s.content.text.clear(at: Int(node.index))
        }
    }

    /// The text of `node` and its descendants (the DOM's `textContent`, XPath's string
    /// value): the values of the text nodes and CDATA sections of its subtree, in document
    /// order; for a node without children, its own value (a comment's text, a JSON
    /// scalar's value), or "". Traps on a stale id.
    ///
    /// - Complexity: O(size of the subtree + the text's length)
    public func textContent(of node: NodeID) -> String {
        let s = _storage
        s.check(node)
        let x = node.index
        if s.firstChild(x) == _TreeStorage.none { return s.content.text.text(at: Int(x)) ?? "" }
        let types = _ContentTypes.shared
        var bytes: [UInt8] = []
        s.tour.forEachDescendantRun(of: x) { run in
            for p in run {
                let t = s.tour.token[p]
                guard t >= 0 else { continue }
                let y = TypeID(rawValue: s.typeID[Int(t)])
                guard y == types.text || y == types.cdata else { continue }
                s.content.text.withText(at: Int(t)) { if let utf8 = $0 { bytes.append(contentsOf: utf8) } }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces the children of `node` with one text node holding `text` (none if `text`
    /// is empty), as the DOM's `textContent` setter does for an element; for a node of
    /// another kind (text, a comment), sets its value. Traps on a stale id.
    ///
    /// - Complexity: O(children removed + text's length), amortized.
    public mutating func setTextContent(_ text: String, of node: NodeID) {
        _storage.check(node)
        guard kind(of: node) == .element else { return setValue(text, of: node) }
        while let child = firstChild(of: node) { removeSubtree(child) }
        guard !text.isEmpty else { return }
        let t = appendChild(type: _ContentTypes.shared.text, to: node)
        setValue(text, of: t)
    }

    /// A new root of `kind` holding `text`: a text node, a CDATA section or a comment (for
    /// an element, ``makeElement(named:attributes:tag:)``; for a processing instruction,
    /// a node of type `?target` with ``setValue(_:of:)``). Insert it with
    /// ``append(_:to:)`` or ``insert(_:before:)``.
    ///
    /// - Complexity: O(text's length) amortized.
    @discardableResult
    public mutating func makeContent(_ kind: NodeKind, _ text: String) -> NodeID {
        let types = _ContentTypes.shared
        let type: TypeID
        switch kind {
        case .text: type = types.text
        case .cdata: type = types.cdata
        case .comment: type = types.comment
        case .element, .processingInstruction:
            preconditionFailure("makeContent(_:_:) makes text, CDATA sections and comments, not \(kind)")
        }
        let node = makeNode(type: type)
        setValue(text, of: node)
        return node
    }

    /// A new root element named `name` (its type: the name as written, a prefix
    /// included), with `attributes` in their order (a name given twice keeps its last value).
    ///
    /// - Complexity: O(attributes' lengths) amortized.
    @discardableResult
    public mutating func makeElement(named name: String, attributes: KeyValuePairs<String, String> = [:], tag: Int = 0) -> NodeID {
        let node = makeNode(tag: tag, type: TypeRegistry.shared.typeID(named: name))
        for (n, v) in attributes { setAttribute(named: n, v, of: node) }
        return node
    }

    /// The value of the attribute named `name` on `node` (a markup attribute as the
    /// document had it, a namespace declaration `xmlns:p` among them), or `nil`. Traps on
    /// a stale id.
    ///
    /// - Complexity: O(the node's attributes)
    public func attribute(named name: String, of node: NodeID) -> String? {
        let s = _storage
        s.check(node)
        guard !s.content.attributes.isEmpty, let n = TypeRegistry.shared.existingTypeID(named: name),
              let e = s.content.attributes.entry(named: n, at: Int(node.index)) else { return nil }
        return s.content.attributes.value(at: e)
    }

    /// Sets the attribute named `name` on `node` to `value` (where it is, or after the
    /// others), or with `nil` removes it. The shape is unchanged. Traps on a stale id.
    ///
    /// - Complexity: O(the node's attributes + value's length) amortized.
    public mutating func setAttribute(named name: String, _ value: String?, of node: NodeID) {
        _storage.check(node)
        _makeStorageUniqueAndOwned()
        let s = _storage
        if var value {
            let n = TypeRegistry.shared.typeID(named: name)
            value.withUTF8 { s.content.attributes.set(n, $0, at: Int(node.index)) }
        } else if let n = TypeRegistry.shared.existingTypeID(named: name) {
            s.content.attributes.remove(n, at: Int(node.index))
        }
    }

    /// The attributes of `node` with their values, in their order. Traps on a stale id.
    ///
    /// - Complexity: O(the attributes' lengths)
    public func namedAttributes(of node: NodeID) -> [(name: String, value: String)] {
        let s = _storage
        s.check(node)
        let a = s.content.attributes
        return a.run(of: Int(node.index)).map { (TypeRegistry.shared.name(of: a.name(at: $0)), a.value(at: $0)) }
    }

    /// Whether the tree holds any content: a node's value or a named attribute (an import
    /// that keeps a whole document, or edits).
    ///
    /// - Complexity: O(1)
    public var hasContent: Bool { !_storage.content.text.isEmpty || !_storage.content.attributes.isEmpty }
}

/// The content a tree keeps for its nodes beside their tags and types: each node's own
/// text (``ViewTree/value(of:)``) and its named attributes.
@usableFromInline
package struct _Content {
    package var text = _TextColumn()
    package var attributes = _AttributeRuns()

    package init() {}

    /// Forgets slot `n`'s content (a freed slot).
    package mutating func clear(at n: Int) {
        if n < text.startCount { text.clear(at: n) }
        if n < attributes.first.count { attributes.clear(at: n) }
    }

    package var memoryFootprint: Int { text.memoryFootprint + attributes.memoryFootprint }
}

extension ViewTree {
    /// Calls `body` with the slots of the index that hold the tokens of `node`'s subtree
    /// (its enter token first, its exit token last), or of the whole forest for `nil`, in
    /// document order, one block's run at a time: a token `t >= 0` is the enter token of
    /// node `t`, and `~t` the exit token of node `~t` (read from `tokens`). How a writer
    /// walks a tree: contiguous reads, no parent or sibling lookups.
    ///
    /// - Complexity: O(tokens walked / 64 + the calls)
    package func _forEachTokenRun(of node: NodeID?, _ body: (_ tokens: UnsafeBufferPointer<Int32>) throws -> Void) rethrows {
        let s = _storage
        let t = s.tour
        try t.token.withUnsafeBufferPointer { tokens in
            if let node {
                s.check(node)
                let span = t.span[Int(node.index)]
                try t.forEachRun(from: span.enter, to: span.exit) { try body(UnsafeBufferPointer(rebasing: tokens[$0])) }
                let exit = _TourBlocks.slot(span.exit)
                try body(UnsafeBufferPointer(rebasing: tokens[exit ..< exit + 1]))
            } else {
                var b = t.head
                while b >= 0 {
                    let base = Int(b) * _TourBlocks.capacity
                    try body(UnsafeBufferPointer(rebasing: tokens[base ..< base + Int(t.count[Int(b)])]))
                    b = t.next[Int(b)]
                }
            }
        }
    }

    /// Calls `body` with the UTF-8 of slot `x`'s value, or `nil` (no checks: a writer's walk).
    @inline(__always)
    package func _withValue<R>(ofSlot x: Int32, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        _storage.content.text.withText(at: Int(x), body)
    }

    /// Calls `body` with each named attribute of slot `x`: its name and value's UTF-8.
    @inline(__always)
    package func _forEachNamedAttribute(ofSlot x: Int32, _ body: (TypeID, UnsafeBufferPointer<UInt8>) -> Void) {
        let a = _storage.content.attributes
        for e in a.run(of: Int(x)) {
            let name = a.name(at: e)
            a.withValue(at: e) { body(name, $0) }
        }
    }

    /// The type of slot `x` (no checks: a writer's walk).
    @inline(__always)
    package func _typeID(ofSlot x: Int32) -> TypeID { TypeID(rawValue: _storage.typeID[Int(x)]) }

    /// The tag of slot `x` (no checks: a writer's walk).
    @inline(__always)
    package func _tag(ofSlot x: Int32) -> Int { _storage.tag(at: x) }

    /// The text of `attribute` on slot `x`, if any (no checks: a writer's walk).
    package func _attribute(_ attribute: NodeAttribute, ofSlot x: Int32) -> String? {
        _storage.attributes[attribute.rawValue].text(at: Int(x))
    }

    /// Whether slot `x` has a named attribute `name`.
    package func _hasNamedAttribute(_ name: TypeID, ofSlot x: Int32) -> Bool {
        _storage.content.attributes.entry(named: name, at: Int(x)) != nil
    }

    /// The parent slot of slot `x`, or -1 (no checks: a writer's walk).
    @inline(__always)
    package func _parent(ofSlot x: Int32) -> Int32 { _storage.parent[Int(x)] }
}

extension ViewTree {
    /// Whether an HTML parser read the document (an HTML import, or a snapshot of one), and
    /// its queries follow HTML's rules, as libxml2's XPath on its HTML tree and a browser's
    /// `querySelectorAll` do: `xmlns` and `xmlns:p` are attributes like any other (no
    /// element is in a namespace), XPath's `id()` finds elements by their `id` (and an
    /// `a`'s `name`), and CSS compares element and attribute names ignoring ASCII case
    /// (the parser wrote them in lower case).
    ///
    /// - Complexity: O(1)
    public var isHTMLDocument: Bool { _storage.isHTML }

    /// Marks the tree as read by an HTML parser (see ``isHTMLDocument``): a loader's.
    package mutating func _markHTMLDocument(_ html: Bool) {
        guard _storage.isHTML != html else { return }
        if !isKnownUniquelyReferenced(&_storage) { _storage = _TreeStorage(copying: _storage) }
        _storage.isHTML = html
    }
}

extension ViewTree {
    /// The first root in document order that is an element: an imported document's root
    /// element (a whole import makes the comments and processing instructions around it
    /// roots of their own), or `nil` if no root is an element.
    ///
    /// - Complexity: O(index tokens before it)
    public var documentElement: NodeID? {
        let s = _storage
        let types = _ContentTypes.shared
        var found: Int32?
        var b = s.tour.head
        // Roots are the tokens at depth 0 of the tour, in order.
        var depth = 0
        walk: while b >= 0 {
            let base = Int(b) * _TourBlocks.capacity
            for p in base ..< base + Int(s.tour.count[Int(b)]) {
                let t = s.tour.token[p]
                if t >= 0 {
                    if depth == 0 && types.kind(of: TypeID(rawValue: s.typeID[Int(t)])) == .element {
                        found = t
                        break walk
                    }
                    depth += 1
                } else {
                    depth -= 1
                }
            }
            b = s.tour.next[Int(b)]
        }
        return found.map(s.nodeID)
    }
}

extension ViewTree {
    /// Gives the tree `text` as its values and `attributes` as its named attributes (a
    /// loaded snapshot's, checked).
    package mutating func _adoptContent(text: _TextColumn, attributes: _AttributeRuns) {
        guard !text.isEmpty || !attributes.isEmpty else { return }
        if !isKnownUniquelyReferenced(&_storage) { _storage = _TreeStorage(copying: _storage) }
        _storage.content = _Content()
        _storage.content.text = text
        _storage.content.attributes = attributes
    }
}

/// A tree's columns as raw memory, for a writer's walk (valid inside
/// ``ViewTree/_withWriterView(_:)`` only): types, tags, parents, spans, values, named
/// attributes and the three ``NodeAttribute`` columns, read with no retain, release or
/// bounds check per node.
@usableFromInline
package struct _WriterView {
    @usableFromInline package let typeID: UnsafePointer<Int32>
    @usableFromInline package let narrowTag: UnsafePointer<Int32>
    @usableFromInline package let parent: UnsafePointer<Int32>
    /// Per slot, its two places in the tour (``_TourBlocks/span``).
    @usableFromInline package let span: UnsafePointer<_TourBlocks.Span>
    @usableFromInline package let valueStarts: _TextStarts
    @usableFromInline package let valueBytes: UnsafePointer<UInt8>?
    @usableFromInline package let first: UnsafeBufferPointer<Int32>
    @usableFromInline package let names: UnsafePointer<UInt32>?
    /// The named attributes' entries (`names`' count), those of no run among them.
    @usableFromInline package let entryCount: Int
    @usableFromInline package let values: UnsafePointer<Int>?
    /// The entries' value starts as a snapshot read in place holds them (4 bytes each),
    /// where `values` is `nil`: no column of `Int`s made from them.
    @usableFromInline package let narrowValues: UnsafePointer<UInt32>?
    @usableFromInline package let attributeBytes: UnsafePointer<UInt8>?
    /// Per ``NodeAttribute``: its starts and texts.
    @usableFromInline package let columns: [(starts: _TextStarts, bytes: UnsafePointer<UInt8>?)]
    /// Whether any ``NodeAttribute`` column has a text (a skeleton import's, a JSON tree's).
    @usableFromInline package let hasColumns: Bool
    /// The named attributes' ``_AttributeRuns/stamp`` (0 where none is kept).
    @usableFromInline package let attributeStamp: UInt64
    /// Where the named attributes are checked as they are read (a snapshot's, read in
    /// place, not checked up front): ``run(_:)`` and ``run(first:)`` ask it for each run.
    /// With one, ``first``, ``names``, ``narrowValues`` and ``attributeBytes`` are the
    /// file's, unchecked: an entry is read only within a run those two gave.
    @usableFromInline package let runChecker: (any _RunChecker)?

    /// The columns at these addresses (a tree's, through ``ViewTree/_withWriterView(_:)``, or
    /// a snapshot's sections read in place, checked).
    package init(
        typeID: UnsafePointer<Int32>, narrowTag: UnsafePointer<Int32>, parent: UnsafePointer<Int32>, span: UnsafePointer<_TourBlocks.Span>,
        valueStarts: _TextStarts, valueBytes: UnsafePointer<UInt8>?, first: UnsafeBufferPointer<Int32>, names: UnsafePointer<UInt32>?,
        entryCount: Int, values: UnsafePointer<Int>?, narrowValues: UnsafePointer<UInt32>? = nil, attributeBytes: UnsafePointer<UInt8>?,
        columns: [(starts: _TextStarts, bytes: UnsafePointer<UInt8>?)], hasColumns: Bool, attributeStamp: UInt64 = 0,
        runChecker: (any _RunChecker)? = nil
    ) {
        (self.attributeStamp, self.runChecker) = (attributeStamp, runChecker)
        (self.typeID, self.narrowTag, self.parent, self.span) = (typeID, narrowTag, parent, span)
        (self.valueStarts, self.valueBytes, self.first, self.names, self.entryCount) = (valueStarts, valueBytes, first, names, entryCount)
        (self.values, self.narrowValues, self.attributeBytes, self.columns, self.hasColumns) = (values, narrowValues, attributeBytes, columns, hasColumns)
    }

    /// The UTF-8 of the text stored at `at` in `bytes` (a LEB128 count, then the bytes).
    @inlinable @inline(__always)
    package static func text(_ bytes: UnsafePointer<UInt8>, at: Int) -> UnsafeBufferPointer<UInt8> {
        var count = Int(bytes[at])
        var j = at &+ 1
        if count >= 0x80 {
            count &= 0x7F
            var shift = 7
            while true {
                let byte = bytes[j]
                count |= Int(byte & 0x7F) << shift
                j &+= 1
                if byte < 0x80 { break }
                shift &+= 7
            }
        }
        return UnsafeBufferPointer(start: bytes + j, count: count)
    }

    /// Slot `x`'s value, if it has one.
    @inlinable @inline(__always)
    package func value(_ x: Int32) -> UnsafeBufferPointer<UInt8>? {
        let i = Int(x)
        guard i < valueStarts.count, let bytes = valueBytes else { return nil }
        let at = valueStarts[i]
        return at < 0 ? nil : Self.text(bytes, at: at)
    }

    /// The entries of slot `x`'s named attributes.
    @inlinable @inline(__always)
    package func run(_ x: Int32) -> Range<Int> {
        let i = Int(x)
        guard i < first.count else { return 0 ..< 0 }
        if let runChecker { return runChecker.run(ofSlot: i) }
        return run(first: first[i])
    }

    /// The entries of the run that starts at entry `f` (-1: none), a slot's ``first``.
    @inlinable @inline(__always)
    package func run(first f32: Int32) -> Range<Int> {
        guard let names else { return 0 ..< 0 }
        if let runChecker { return runChecker.run(first: f32) }
        let f = Int(f32)
        guard f >= 0 else { return 0 ..< 0 }
        var e = f
        while names[e] & _AttributeRuns.lastBit == 0 { e &+= 1 }
        return f ..< e &+ 1
    }

    /// Entry `e`'s name (a type id's raw value).
    @inlinable @inline(__always)
    package func name(_ e: Int) -> Int32 { Int32(bitPattern: names.unsafelyUnwrapped[e] & ~_AttributeRuns.lastBit) }

    /// Entry `e`'s value.
    @inlinable @inline(__always)
    package func attributeValue(_ e: Int) -> UnsafeBufferPointer<UInt8> { Self.text(attributeBytes.unsafelyUnwrapped, at: attributeStart(e)) }

    /// Where entry `e`'s value lies in ``attributeBytes``.
    @inlinable @inline(__always)
    package func attributeStart(_ e: Int) -> Int {
        if let narrowValues { return Int(narrowValues[e]) }
        return values.unsafelyUnwrapped[e]
    }

    /// Slot `x`'s text of `attribute` (a skeleton import's id or class, a JSON member name).
    @inlinable @inline(__always)
    package func column(_ attribute: NodeAttribute, _ x: Int32) -> UnsafeBufferPointer<UInt8>? {
        let (starts, bytes) = columns[attribute.rawValue]
        let i = Int(x)
        guard i < starts.count, let bytes else { return nil }
        let at = starts[i]
        return at < 0 ? nil : Self.text(bytes, at: at)
    }

    /// The tag of slot `x` (from the wide table when it does not fit).
    @inlinable @inline(__always)
    package func tag(_ x: Int32, _ tree: ViewTree) -> Int {
        let t = narrowTag[Int(x)]
        return t == _TreeStorage.wideTagSentinel ? tree._storage.wideTag(at: x) : Int(t)
    }
}

/// Checks a view's named attributes run by run as a query reads them (``_WriterView/runChecker``),
/// where no check read them all before: a snapshot's read in place, of which a query reads
/// a few runs. A run that fails the check reads as none, and the checker remembers that it
/// failed, so that its reader can throw the answer away.
@usableFromInline
package protocol _RunChecker: AnyObject, Sendable {
    /// Slot `x`'s run (`x` within ``_WriterView/first``), checked.
    func run(ofSlot x: Int) -> Range<Int>
    /// The run that starts at entry `f` (-1: none), checked.
    func run(first f: Int32) -> Range<Int>
}

extension ViewTree {
    /// Calls `body` with the tree's columns as raw memory (see ``_WriterView``).
    package func _withWriterView<R>(_ body: (_WriterView) throws -> R) rethrows -> R {
        let s = _storage
        let c = s.content
        return try s.typeID.withUnsafeBufferPointer { typeID in
            try s.narrowTag.withUnsafeBufferPointer { narrowTag in
                try s.parent.withUnsafeBufferPointer { parent in
                    try s.tour.span.withUnsafeBufferPointer { span in
                        try c.text.withParts { valueStarts, valueBytes in
                            try c.attributes.first.withUnsafeBufferPointer { first in
                                try c.attributes.name.withUnsafeBufferPointer { names in
                                    try c.attributes.value.withUnsafeBufferPointer { values in
                                        try c.attributes.texts.withParts { _, attributeBytes in
                                            try s.attributes[0].withParts { s0, b0 in
                                                try s.attributes[1].withParts { s1, b1 in
                                                    try s.attributes[2].withParts { s2, b2 in
                                                        try body(_WriterView(
                                                            typeID: typeID.baseAddress ?? UnsafePointer(bitPattern: 8)!,
                                                            narrowTag: narrowTag.baseAddress ?? UnsafePointer(bitPattern: 8)!,
                                                            parent: parent.baseAddress ?? UnsafePointer(bitPattern: 8)!,
                                                            span: span.baseAddress ?? UnsafePointer(bitPattern: 8)!,
                                                            valueStarts: valueStarts, valueBytes: valueBytes.baseAddress,
                                                            first: first, names: names.baseAddress, entryCount: names.count, values: values.baseAddress,
                                                            attributeBytes: attributeBytes.baseAddress,
                                                            columns: [(s0, b0.baseAddress), (s1, b1.baseAddress), (s2, b2.baseAddress)],
                                                            hasColumns: s0.count + s1.count + s2.count > 0, attributeStamp: c.attributes.stamp))
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
