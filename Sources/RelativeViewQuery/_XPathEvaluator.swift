import CColumnMemory
import RelativeViewCore

/// An XPath node, as the evaluator handles it: one 64-bit key whose order is document
/// order. The high half is the rank of the node (or of the element that owns an attribute)
/// plus one, 0 for the root node (the document, parent of the tree's roots); the low half
/// is 0 for the node itself and ``attributeBase`` plus k for its k-th attribute entry (a
/// node's attributes come after it and before its children, as XPath orders them).
typealias _Key = UInt64

extension _Key {
    static let attributeBase: UInt64 = 0x1_0000
    static let root: _Key = 0

    @inline(__always) init(rank: Int32) { self = UInt64(UInt32(bitPattern: rank &+ 1)) << 32 }
    @inline(__always) init(rank: Int32, attribute k: Int) { self = UInt64(UInt32(bitPattern: rank &+ 1)) << 32 | (Self.attributeBase &+ UInt64(k)) }

    /// The rank of the node, or of an attribute's element; -1 for the root node.
    @inline(__always) var rank: Int32 { Int32(truncatingIfNeeded: self >> 32) &- 1 }
    /// Whether the key is an attribute's.
    @inline(__always) var isAttribute: Bool { self & 0xFFFF_FFFF >= Self.attributeBase }
    /// Whether the key is a namespace node's: low half 1 + j for the j-th namespace node
    /// of its element (they come after it and before its attributes).
    @inline(__always) var isNamespace: Bool { self & 0xFFFF_FFFF != 0 && self & 0xFFFF_FFFF < Self.attributeBase }
    /// Whether the key is an attribute's or a namespace node's: a node attached to an
    /// element, not in the tree (no children, no siblings; its parent is the element).
    @inline(__always) var isAttached: Bool { self & 0xFFFF_FFFF != 0 }
    /// The namespace node's index among its element's.
    @inline(__always) var namespaceIndex: Int { Int(self & 0xFFFF_FFFF) - 1 }
    @inline(__always) init(rank: Int32, namespace j: Int) { self = UInt64(UInt32(bitPattern: rank &+ 1)) << 32 | UInt64(j + 1) }
    /// The attribute's index in its element's run.
    @inline(__always) var attributeIndex: Int { Int(self & 0xFFFF_FFFF &- Self.attributeBase) }
}

/// A value of XPath 1.0's four types.
enum _Value {
    case nodes([_Key])
    case boolean(Bool)
    case number(Double)
    case string(String)
}

/// What a type is, to a node test: its kind, its name, and an element's prefix.
struct _TypeInfo {
    var kind: NodeKind
    var name: String
    var prefix: Substring?
    /// An attribute named `xmlns` or `xmlns:...`: a namespace declaration, which XPath's
    /// attribute axis does not hold.
    var isNamespaceDeclaration: Bool
}

/// Evaluates compiled XPath over one tree, set at a time: each location step takes the
/// whole set of context nodes and gives the whole set of results, in document order
/// without a sort where the step allows (the staircase join's pruning: a descendant step
/// reads each subtree once, however many context nodes lie inside it), over the ranks of
/// the tree's ``_DocumentIndex``.
struct _XPathEvaluator: ~Copyable {
    let index: _DocumentIndex
    let view: _WriterView
    let count: Int32
    /// Work units left (nodes visited, values compared): at 0 the evaluation ends with an error.
    var budget: Int
    let textType: Int32, cdataType: Int32, commentType: Int32
    private var infos: [Int32: _TypeInfo] = [:]
    /// Per type's raw value: 1 if its nodes are elements, 0 if not, -1 not known yet.
    private var elementTypes: [Int8]
    /// The node tests resolved so far, by the offset of their step in the query (a name is
    /// looked up in the type registry once per evaluation, not once per context node).
    private var resolved: [Int: Test] = [:]
    /// CSS type selectors resolved so far.
    var cssTypes: [String: Test] = [:]
    /// CSS attribute names resolved so far (-1: no such name).
    var cssAttributeTypes: [String: Int32] = [:]
    /// Elements' places among their element siblings, numbered a parent's children at a
    /// time: from the first, of the type from the first, from the last, of the type from the
    /// last (see `siblingIndex`).
    var siblingPlaces = [_SiblingPlaces](repeating: _SiblingPlaces(), count: 4)
    /// From the first and from the last, the places of the nodes of the type last asked
    /// about among their siblings of the type (see `placesOfType`).
    var typePlaces: [_TypePlaces] = [.none, .none]
    /// Every type's places made so far, by type (shifted left one) and direction (the low
    /// bit: from the last).
    var typePlacesMade: [Int64: _TypePlaces] = [:]
    /// The postings of the type last asked about by `isFirstOfType`, and where in them.
    var typeCursor = _PostingCursor.none
    /// A parent's element children and their types' counts, kept for the next parent (see
    /// `siblingIndex`).
    var siblingChildren: [Int32] = []
    var siblingTypes: [(type: Int32, count: Int32)] = []
    /// The index's namespace flags, once asked for (see ``inNamespace(_:)``).
    private var namespaceFlags: [Bool]?
    /// Whether the document declares namespaces, once asked for (see ``namespacesDeclared``).
    private var declaredKept: Bool?
    /// The query's prefixes and the namespace URIs they are bound to.
    let namespaces: [String: String]
    /// The threads a large scan may use (see ``split(_:_:)``).
    let threads: Int
    /// The values of the expression's variables, by name.
    private(set) var variables: [String: _Value] = [:]
    /// Elements' namespace nodes found so far (see ``namespaceNodes(of:)``).
    private var namespaceNodesKept: [Int32: [(prefix: String, uri: String)]] = [:]

    // The index's columns by rank, held here: read through the index (a class), each read
    // would retain and release the array, and on two threads fight over its count.
    /// The index's ends, or `nil`: each read from its span (``_DocumentIndex/end(_:span:)``).
    private let ends: [Int32]?
    /// Per rank, its type's raw value and its parent's rank (-1 for a root): the index's
    /// columns, or the tree's own where ranks are slots. The index (held) keeps them.
    private let typesByRank: UnsafePointer<Int32>
    private let parentsByRank: UnsafePointer<Int32>
    private let slotsByRank: [Int32]?
    /// Per rank, the first entry of its named attributes, where the index keeps it (a tree
    /// whose ranks are not its slots): read in rank order, not at each rank's slot.
    private let firstsByRank: UnsafePointer<Int32>?
    /// The index's runs of slots, where it keeps them (read before `slotsByRank`, but in a
    /// scan of every rank of a range: see ``slot(_:)``).
    private let slotRuns: _SlotRuns?
    /// Whether a scan of every rank of a range is under way (see ``slot(_:)``).
    var scansRanks = false
    /// The run of slots (``_SlotRuns``) the last rank looked up through them lay in: the
    /// next rank asked for (a name's next node, as a rule) is in it more often than not, and
    /// its slot then needs no read of the runs' tables and no branch on their contents.
    /// Each thread's copy of an evaluator keeps its own.
    private var keptRun = _SlotRuns.Run.none
    /// The postings of the last few types asked for (the latest last): a predicate's steps
    /// ask for theirs once per context node, in turn (`address/country`), and the index's
    /// answer takes its locks and a lookup.
    private var postingsKept: [(type: Int32, ranks: _DocumentIndex._TypeRanks)] = []

    init(index: _DocumentIndex, view: _WriterView, budget: Int, namespaces: [String: String] = [:], threads: Int = 1) {
        self.threads = max(1, threads)
        self.index = index
        (ends, slotsByRank, slotRuns) = (index.end, index.order, index.slotRuns)
        typesByRank = index.typeByRank.map { UnsafePointer($0.base) } ?? view.typeID
        parentsByRank = index.parentByRank.map { UnsafePointer($0.base) } ?? view.parent
        // (Not where an attribute's edit changed the runs since the index read them.)
        firstsByRank = index.firstsStamp == view.attributeStamp ? index.firstByRank.map { UnsafePointer($0.base) } : nil
        self.view = view
        count = Int32(index.count)
        self.budget = budget
        let types = _ContentTypes.shared
        (textType, cdataType, commentType) = (types.text.rawValue, types.cdata.rawValue, types.comment.rawValue)
        elementTypes = [Int8](repeating: -1, count: TypeRegistry.shared.count)
        self.namespaces = namespaces
    }

    // MARK: The tree by rank

    @inline(__always) func end(_ r: Int32) -> Int32 {
        if let ends { return ends[Int(r)] }
        return _DocumentIndex.end(r, span: view.span[Int(r)])
    }
    @inline(__always) func type(_ r: Int32) -> Int32 { typesByRank[Int(r)] }

    /// Asks for the line that holds rank `r`'s end (none for the root's -1), without waiting.
    @inline(__always) func prefetchEnd(of r: Int32) {
        guard r >= 0 else { return }
        if let ends { ends.withUnsafeBufferPointer { rv_prefetch($0.baseAddress! + Int(r)) } } else { rv_prefetch(view.span + Int(r)) }
    }

    /// Asks for the first lines a walk of rank `r`'s children reads (their ends and types,
    /// the first 128 ranks after it), without waiting: a child step asks for the next
    /// context node's while it walks this one's, whose hops from child to child would each
    /// wait on a miss.
    @inline(__always) func prefetchChildren(of r: Int32) {
        guard r >= 0, r &+ 1 < count else { return }
        let from = Int(r) &+ 1
        let ranks = min(128, Int(count) &- from)
        if let ends {
            ends.withUnsafeBufferPointer { e in for k in stride(from: 0, to: ranks, by: 16) { rv_prefetch(e.baseAddress! + from + k) } }
        } else {
            for k in stride(from: 0, to: ranks, by: 8) { rv_prefetch(view.span + from + k) }
        }
        for k in stride(from: 0, to: ranks, by: 16) { rv_prefetch(typesByRank + from + k) }
    }
    /// Calls `body` with the types by rank: the index's, or the tree's own column where the
    /// ranks are the slots.
    func withTypesByRank<R>(_ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
        withExtendedLifetime(index) { body(UnsafeBufferPointer(start: typesByRank, count: Int(count))) }
    }
    @inline(__always) func parent(_ r: Int32) -> Int32 { parentsByRank[Int(r)] }
    /// Whether the document declares namespaces (the index's answer, under its lock, kept
    /// here: a question asked per node).
    var namespacesDeclared: Bool {
        mutating get {
            if let declaredKept { return declaredKept }
            let declared = index.namespaces(self).declared
            declaredKept = declared
            return declared
        }
    }
    /// The slot of rank `r`: in a scan of every rank of a range (``scansRanks``) read from
    /// the slot of each rank, which it reads in order (a line for 16 ranks, streamed); else
    /// from the runs of slots where the index keeps them (a small table, in the cache, where
    /// ranks read far apart would each miss the slot of each rank). `//*[@category]` after
    /// 10^4 moves of XMark (about 30,000 runs) took 1.17x of its time on the tree loaded
    /// afresh through the runs, and 1.09x through the slot of each rank with the index's
    /// columns on huge pages (best of 15, two runs of each, interleaved).
    @inline(__always) mutating func slot(_ r: Int32) -> Int32 {
        if scansRanks, let slotsByRank { return slotsByRank[Int(r)] }
        if let slotRuns {
            if r >= keptRun.low && r < keptRun.high { return r &+ keptRun.delta }
            keptRun = slotRuns.run(of: r)
            return r &+ keptRun.delta
        }
        return slotsByRank?[Int(r)] ?? r
    }
    /// The slot of rank `r`, as ``slot(_:)`` finds it but with no run kept (for a caller
    /// that only borrows the evaluator).
    func lookedUpSlot(_ r: Int32) -> Int32 {
        if let slotRuns { return slotRuns.slot(r) }
        return slotsByRank?[Int(r)] ?? r
    }
    /// The rank of slot `x`.
    @inline(__always) func rank(ofSlot x: Int32) -> Int32 { index.rank?[Int(x)] ?? x }

    /// Gives the variables their values: a node-set's nodes as keys, in document order.
    mutating func bind(_ values: [String: XPathValue]) {
        for (name, value) in values {
            switch value {
            case .boolean(let b): variables[name] = .boolean(b)
            case .number(let n): variables[name] = .number(n)
            case .string(let s): variables[name] = .string(s)
            case .nodes(let nodes):
                var keys: [_Key] = []
                for n in nodes {
                    guard let node = n.node else { keys.append(.root); continue }
                    let r = rank(ofSlot: node.index)
                    if let prefix = n.namespacePrefix {
                        if let j = namespaceNodes(of: r).firstIndex(where: { $0.prefix == prefix }) { keys.append(_Key(rank: r, namespace: j)) }
                        continue
                    }
                    guard let attribute = n.attributeName else { keys.append(_Key(rank: r)); continue }
                    for (k, e) in attributeRun(r).enumerated() where info(view.name(e)).name == attribute {
                        keys.append(_Key(rank: r, attribute: k))
                        break
                    }
                }
                variables[name] = .nodes(Self.sortedUnique(keys))
            }
        }
    }

    /// The ranks of type `t`'s nodes, from the index (made on its first call for the type
    /// in a version), the last eight types' kept (see `postingsKept`).
    mutating func postings(of t: Int32) -> _DocumentIndex._TypeRanks {
        for k in postingsKept.indices.reversed() where postingsKept[k].type == t { return postingsKept[k].ranks }
        let made = withTypesByRank { index.ranks(ofType: t, types: $0) }
        if postingsKept.count == 8 { postingsKept.removeFirst() }
        postingsKept.append((t, made))
        return made
    }

    mutating func info(_ type: Int32) -> _TypeInfo {
        if let known = infos[type] { return known }
        let name = TypeRegistry.shared.name(of: TypeID(rawValue: type))
        let kind = type == textType ? .text : type == cdataType ? .cdata : type == commentType ? .comment : NodeKind(typeName: name)
        var prefix: Substring?
        if kind == .element, let colon = name.firstIndex(of: ":") { prefix = name[..<colon] }
        let made = _TypeInfo(kind: kind, name: name, prefix: prefix,
                             isNamespaceDeclaration: !index.isHTML && (name == "xmlns" || name.hasPrefix("xmlns:")))
        infos[type] = made
        return made
    }

    /// Whether rank `r` is an element (not text, a comment or an instruction).
    @inline(__always) mutating func isElement(_ r: Int32) -> Bool { isElementType(type(r)) }

    /// Whether nodes of type `t` are elements: asked once of a type's postings, whose
    /// nodes all have it, instead of reading each node's type again.
    @inline(__always) mutating func isElementType(_ t: Int32) -> Bool {
        if Int(t) < elementTypes.count {
            let known = elementTypes[Int(t)]
            if known >= 0 { return known == 1 }
        }
        return learnIsElement(t)
    }

    @inline(never)
    mutating func learnIsElement(_ t: Int32) -> Bool {
        let element = t != textType && t != cdataType && t != commentType && info(t).kind == .element
        if Int(t) < elementTypes.count { elementTypes[Int(t)] = element ? 1 : 0 }
        return element
    }

    /// Whether rank `r`'s element is in a namespace: its name has a prefix, or a default
    /// namespace is declared on it or an ancestor (and not undeclared since).
    @inline(__always) mutating func inNamespace(_ r: Int32) -> Bool {
        if namespaceFlags == nil { namespaceFlags = index.namespaces(self).inNamespace }
        let flags = namespaceFlags.unsafelyUnwrapped
        return Int(r) < flags.count && flags[Int(r)]
    }

    /// The namespace URI bound to `prefix` (`nil` for the default namespace) at rank `r`:
    /// the nearest declaration on it or an ancestor; "" if none.
    mutating func namespaceURI(_ r: Int32, prefix: Substring?) -> String {
        if prefix == "xml" { return Self.xmlNamespace }
        let wanted = prefix.map { "xmlns:" + $0 } ?? "xmlns"
        var x = index.isHTML ? -1 : r
        while x >= 0 {
            for e in attributeRun(x) where info(view.name(e)).name == wanted {
                return String(decoding: view.attributeValue(e), as: UTF8.self)
            }
            x = parent(x)
        }
        return ""
    }

    /// The namespace nodes of rank `r`'s element, in libxml2's order: the `xml` prefix's
    /// first, then the declarations in scope (on it or an ancestor, the nearest of each
    /// prefix), the farthest first. As in libxml2, a default namespace undeclared
    /// (`xmlns=""`) nearer than any declaration is one, with an empty URI.
    mutating func namespaceNodes(of r: Int32) -> [(prefix: String, uri: String)] {
        if let known = namespaceNodesKept[r] { return known }
        var found: [(prefix: String, uri: String)] = []
        // An HTML document declares none (its `xmlns` is an attribute).
        var x = index.isHTML ? -1 : r
        while x >= 0 {
            for e in attributeRun(x) {
                let name = info(view.name(e)).name
                guard name == "xmlns" || name.hasPrefix("xmlns:") else { continue }
                let prefix = name == "xmlns" ? "" : String(name.dropFirst(6))
                if !found.contains(where: { $0.prefix == prefix }) {
                    found.append((prefix, String(decoding: view.attributeValue(e), as: UTF8.self)))
                }
            }
            x = parent(x)
        }
        let made = [("xml", Self.xmlNamespace)] + found.reversed()
        namespaceNodesKept[r] = made
        return made
    }

    /// The namespace the `xml` prefix is bound to, in every document and every query.
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// The attribute entries of rank `r`'s element.
    @inline(__always) mutating func attributeRun(_ r: Int32) -> Range<Int> {
        if let firstsByRank { return view.run(first: firstsByRank[Int(r)]) }
        return view.run(slot(r))
    }

    /// A look-ahead over the attributes of the nodes a loop will test (see
    /// ``_AttributesAhead``).
    func attributesAhead() -> _AttributesAhead {
        _AttributesAhead(view: view, runs: slotRuns, slotsByRank: slotsByRank, firstsByRank: firstsByRank.map { UnsafeBufferPointer(start: $0, count: Int(count)) })
    }

    /// The ranks of `ranks` for which `condition` holds, in order, each rank's attributes
    /// asked for ahead of its test where the condition reads them.
    mutating func kept(_ ranks: ArraySlice<Int32>, where condition: _ConditionRef, into out: inout [_Key]) throws(QueryError) {
        if condition.readsAttributes {
            let (a, n) = (ranks.startIndex, ranks.endIndex)
            let d = _AttributesAhead.distance
            var ahead = attributesAhead()
            for j in a ..< min(n, a + d) { ahead.push(ranks[j]) }
            for j in a ..< n {
                if j + d < n { ahead.push(ranks[j + d]) }
                let k = _Key(rank: ranks[j])
                if try holds(condition, k) { out.append(k) }
            }
        } else {
            for r in ranks {
                let k = _Key(rank: r)
                if try holds(condition, k) { out.append(k) }
            }
        }
    }

    mutating func spend(_ units: Int, at offset: Int) throws(QueryError) {
        budget -= units
        if budget < 0 {
            throw QueryError(language: "XPath", offset: offset, message: "the query needs more work than its budget allows (see XPath.evaluate's budget)")
        }
    }

    // MARK: Node tests

    /// A node test resolved against the tree's types.
    enum Test: Sendable {
        case none
        /// Every node of the principal type (elements, or attributes on the attribute axis).
        case principal
        /// Nodes of this type (an element name; an attribute's name on the attribute axis).
        case type(Int32)
        /// Elements of any of these types (several types of one name).
        case types([Int32])
        /// XPath's unprefixed name test: elements of one of these types in no namespace (an
        /// element under a default namespace declaration is in one).
        case unqualified([Int32])
        /// A prefixed name test (or `prefix:*`): elements of one of these types (those of
        /// the local name, with any prefix) in the namespace `uri`.
        case qualified([Int32], uri: String)
        /// The same on the attribute axis: attributes of that local name (any, for `nil`)
        /// whose prefix is bound to `uri` (an unprefixed attribute is in no namespace).
        case qualifiedAttribute(local: String?, uri: String)
        /// A namespace node of that prefix ("" for the default namespace), on the namespace axis.
        case namespacePrefix(String)
        case anyNode
        case text
        case comment
        case processingInstruction(String?)
    }

    /// `test` on `axis` against the tree's types, once per evaluation and step.
    mutating func resolve(_ test: _NodeTest, axis: _Axis, offset: Int) throws(QueryError) -> Test {
        if let known = resolved[offset] { return known }
        let made = try resolveAnew(test, axis: axis, offset: offset)
        resolved[offset] = made
        return made
    }

    /// The types that nodes of the tree have whose names pass `matches`.
    func treeTypes(named matches: (String) -> Bool) -> [Int32] {
        let counts = withTypesByRank { index.typeCounts(types: $0) }
        var ids: [Int32] = []
        for t in counts.indices where counts[t] > 0 {
            if matches(TypeRegistry.shared.name(of: TypeID(rawValue: Int32(t)))) { ids.append(Int32(t)) }
        }
        return ids
    }

    /// The test for elements named `name`: every type of the tree with that name (a name
    /// registered as such, and a class of that name: a view hierarchy's types are classes).
    func elementTest(named name: String) -> Test {
        let ids = treeTypes { $0 == name }
        switch ids.count {
        case 0: return .none
        case 1: return .type(ids[0])
        default: return .types(ids)
        }
    }

    /// The URI a query's prefix is bound to; an error if none.
    func uri(of prefix: String, offset: Int) throws(QueryError) -> String {
        if prefix == "xml" { return Self.xmlNamespace }
        guard let uri = namespaces[prefix] else {
            throw QueryError(language: "XPath", offset: offset, message: "undefined namespace prefix '\(prefix)' (bind it with XPath(_:namespaces:))")
        }
        return uri
    }

    /// The types of the tree whose names have the local part `local` (with any prefix or
    /// none), or every element type for `nil`.
    func types(withLocalName local: String?) -> [Int32] {
        treeTypes { name in
            guard let local else { return true }
            return name == local || (name.hasSuffix(":" + local) && name.filter { $0 == ":" }.count == 1)
        }
    }

    private func resolveAnew(_ test: _NodeTest, axis: _Axis, offset: Int) throws(QueryError) -> Test {
        switch test {
        case .anyName: return .principal
        case .anyLocalName(let prefix):
            let uri = try uri(of: prefix, offset: offset)
            if axis == .namespace { return .none }
            return axis == .attribute ? .qualifiedAttribute(local: nil, uri: uri) : .qualified(types(withLocalName: nil), uri: uri)
        case .name(let prefix, let local):
            if let prefix, prefix != "xml" {
                let uri = try uri(of: prefix, offset: offset)
                return axis == .attribute ? .qualifiedAttribute(local: local, uri: uri) : .qualified(types(withLocalName: local), uri: uri)
            }
            let name = prefix.map { $0 + ":" + local } ?? local
            if axis == .namespace { return prefix == nil ? .namespacePrefix(local) : .none }
            if axis == .attribute {
                guard let id = TypeRegistry.shared.existingTypeID(named: name) else { return .none }
                return .type(id.rawValue)
            }
            let test = elementTest(named: name)
            // Unprefixed: the elements of that name in no namespace, as XPath 1.0 has it.
            guard prefix == nil, index.namespaces(self).declared else { return test }
            switch test {
            case .type(let t): return .unqualified([t])
            case .types(let ts): return .unqualified(ts)
            default: return test
            }
        case .node: return .anyNode
        case .text: return axis == .attribute || axis == .namespace ? .none : .text
        case .comment: return axis == .attribute || axis == .namespace ? .none : .comment
        case .processingInstruction(let target): return axis == .attribute || axis == .namespace ? .none : .processingInstruction(target)
        }
    }

    /// Whether tree node `r` (not an attribute, not the root) passes `test` on an axis whose
    /// principal type is element.
    @inline(__always)
    mutating func passes(_ r: Int32, _ test: Test) -> Bool {
        switch test {
        case .none: return false
        case .anyNode: return true
        case .type(let t): return type(r) == t && isElementType(t)
        case .types(let ts): return ts.contains(type(r)) && isElement(r)
        case .unqualified(let ts): return ts.contains(type(r)) && isElement(r) && !inNamespace(r)
        case .qualified(let ts, let uri):
            guard ts.contains(type(r)) && isElement(r) else { return false }
            return namespaceURI(r, prefix: info(type(r)).prefix) == uri
        case .qualifiedAttribute, .namespacePrefix: return false
        case .principal: return isElement(r)
        case .text:
            let t = type(r)
            return t == textType || t == cdataType
        case .comment: return type(r) == commentType
        case .processingInstruction(let target):
            let i = info(type(r))
            guard i.kind == .processingInstruction else { return false }
            return target.map { i.name.dropFirst() == $0 } ?? true
        }
    }

    /// Whether a key (a node, an attribute or the root) passes `test` on `axis`.
    mutating func passes(key k: _Key, _ test: Test, axis: _Axis) -> Bool {
        if k == .root { if case .anyNode = test { return true } else { return false } }
        if k.isNamespace {
            switch test {
            case .anyNode: return true
            case .principal: return axis == .namespace
            case .namespacePrefix(let p): return axis == .namespace && namespaceNodes(of: k.rank)[k.namespaceIndex].prefix == p
            default: return false
            }
        }
        if k.isAttached {
            switch test {
            case .anyNode: return true
            case .principal: return axis == .attribute
            case .type(let t): return axis == .attribute && view.name(attributeRun(k.rank).lowerBound + k.attributeIndex) == t
            case .qualifiedAttribute: return axis == .attribute && attributePasses(view.name(attributeRun(k.rank).lowerBound + k.attributeIndex), test, owner: k.rank)
            default: return false
            }
        }
        if axis == .attribute { return false }
        return passes(k.rank, test)
    }

    // MARK: Steps

    /// One location step over a whole set of context nodes.
    mutating func step(_ context: [_Key], _ step: _Step) throws(QueryError) -> [_Key] {
        let test = try resolve(step.test, axis: step.axis, offset: step.offset)
        if step.predicates.contains(where: { Self.isPositional($0) }) {
            guard step.axis == .child || step.positionsAmongSiblings else { return try stepPerContext(context, step, test) }
            // Every node of the step has one parent, its position counted among the nodes
            // of the same parent: the whole step at once, then the predicates in turn.
            var nodes = try axis(context, step.axis, test, offset: step.offset)
            for predicate in step.predicates { nodes = try filteredAmongSiblings(nodes, by: predicate) }
            return nodes
        }
        if step.axis == .descendant || step.axis == .descendantOrSelf, !step.predicates.isEmpty,
           let condition = try compiledConditions(step.predicates) {
            // Checked as the scan meets each node: no set of every candidate made first.
            let program = _ConditionProgram(condition)
            defer { withExtendedLifetime(program) {} }
            return try axis(context, step.axis, test, offset: step.offset, where: program.ref)
        }
        var out = try axis(context, step.axis, test, offset: step.offset)
        for predicate in step.predicates { out = try filtered(out, by: predicate) }
        return out
    }

    /// Predicates that are all conditions, as one; `nil` if any is not.
    mutating func compiledConditions(_ predicates: [_XPathExpr]) throws(QueryError) -> Condition? {
        var all: Condition?
        for p in predicates {
            guard let c = try compileCondition(p) else { return nil }
            all = all.map { .and($0, c) } ?? c
        }
        return all
    }

    /// The nodes of `nodes` (in the order their positions count in) for which `predicate`
    /// holds, each at its position among them.
    mutating func filtered(_ nodes: [_Key], by predicate: _XPathExpr) throws(QueryError) -> [_Key] {
        var kept: [_Key] = []
        kept.reserveCapacity(nodes.count)
        if let compiled = try compileCondition(predicate) {
            // Resolved once for the whole set, checked on each node with no value made (a
            // condition never depends on the position, so a large set splits across threads).
            let program = _ConditionProgram(compiled)
            defer { withExtendedLifetime(program) {} }
            let condition = program.ref
            if threads > 1 && nodes.count >= 2 * Self.splitMinimum {
                return try split(nodes.count) { (e, range) throws(QueryError) -> [_Key] in
                    var kept: [_Key] = []
                    for k in nodes[range] where try e.holds(condition, k) { kept.append(k) }
                    return kept
                }
            }
            for k in nodes where try holds(condition, k) { kept.append(k) }
        } else {
            for (i, k) in nodes.enumerated() where try truth(predicate, _Context(node: k, position: i + 1, size: nodes.count)) {
                kept.append(k)
            }
        }
        return kept
    }

    /// The nodes of `nodes` (in document order, none an attribute) for which `predicate`
    /// holds, each at its position among the nodes of `nodes` that share its parent.
    mutating func filteredAmongSiblings(_ nodes: [_Key], by predicate: _XPathExpr) throws(QueryError) -> [_Key] {
        if try compileCondition(predicate) != nil { return try filtered(nodes, by: predicate) }
        // Each node's position in its group (the nodes of one parent) and its group. In
        // document order a parent's children come between those of its descendants, so the
        // open groups are those of an ancestor chain: a stack, closed as the nodes pass
        // each parent's end. No hashing.
        var positions = [Int32](repeating: 0, count: nodes.count)
        var groupOf = [Int32](repeating: 0, count: nodes.count)
        var sizes: [Int32] = []
        var open: [(parent: Int32, group: Int32)] = []
        for (i, k) in nodes.enumerated() {
            let r = k.rank, p = parent(r)
            while let top = open.last, top.parent != p, top.parent >= 0, end(top.parent) <= r { open.removeLast() }
            if let top = open.last, top.parent == p {
                sizes[Int(top.group)] += 1
            } else {
                open.append((p, Int32(sizes.count)))
                sizes.append(1)
            }
            let g = open[open.count - 1].group
            groupOf[i] = g
            positions[i] = sizes[Int(g)]
        }
        var kept: [_Key] = []
        switch predicate {
        case .number(let n):
            for (i, k) in nodes.enumerated() where Double(positions[i]) == n { kept.append(k) }
        case .function("last", let arguments, _) where arguments.isEmpty:
            for (i, k) in nodes.enumerated() where positions[i] == sizes[Int(groupOf[i])] { kept.append(k) }
        default:
            for (i, k) in nodes.enumerated() {
                let context = _Context(node: k, position: Int(positions[i]), size: Int(sizes[Int(groupOf[i])]))
                if try truth(predicate, context) { kept.append(k) }
            }
        }
        return kept
    }

    /// Whether a predicate's truth may depend on the position or size of its context: a
    /// number (compared with the position), or a call of `position()` or `last()` outside
    /// a step of its own.
    static func isPositional(_ e: _XPathExpr) -> Bool {
        switch e {
        case .number: return true
        case .literal, .path: return false
        case .variable: return true
        case .function(let name, let arguments, _):
            if ["position", "last", "count", "sum", "number", "string-length", "floor", "ceiling", "round"].contains(name) { return true }
            return arguments.contains(where: usesPosition)
        case .binary(let op, let a, let b):
            switch op {
            case .plus, .minus, .times, .div, .mod: return true
            default: return usesPosition(a) || usesPosition(b)
            }
        case .negate: return true
        case .union: return false
        case .filter(let primary, _, _, _): return isPositional(primary)
        }
    }

    /// Whether `position()` or `last()` is called in `e` outside a step's own predicates.
    static func usesPosition(_ e: _XPathExpr) -> Bool {
        switch e {
        case .number, .literal, .path: return false
        case .variable: return false
        case .function(let name, let arguments, _): return name == "position" || name == "last" || arguments.contains(where: usesPosition)
        case .binary(_, let a, let b): return usesPosition(a) || usesPosition(b)
        case .negate(let a): return usesPosition(a)
        case .union(let a, let b, _): return usesPosition(a) || usesPosition(b)
        case .filter(let primary, _, _, _): return usesPosition(primary)
        }
    }

    /// A step with positional predicates: each context node's axis in the axis's order,
    /// the predicates applied in turn with positions in it, the results merged.
    mutating func stepPerContext(_ context: [_Key], _ step: _Step, _ test: Test) throws(QueryError) -> [_Key] {
        var out: [_Key] = []
        var sorted = true
        for c in context {
            var nodes = try axis([c], step.axis, test, offset: step.offset)
            if step.axis.isReverse { nodes.reverse() }
            for predicate in step.predicates { nodes = try filtered(nodes, by: predicate) }
            if step.axis.isReverse { nodes.reverse() }
            if let first = nodes.first, let last = out.last, first <= last { sorted = false }
            out.append(contentsOf: nodes)
        }
        return sorted ? out : Self.sortedUnique(out)
    }

    static func sortedUnique(_ keys: [_Key]) -> [_Key] {
        var keys = keys
        keys.sort()
        var w = 0
        for k in keys where w == 0 || keys[w - 1] != k {
            keys[w] = k
            w += 1
        }
        keys.removeLast(keys.count - w)
        return keys
    }

    /// The nodes on `axis` from any of `context` (sorted) that pass `test`, in document order.
    mutating func axis(_ context: [_Key], _ axis: _Axis, _ test: Test, offset: Int, where condition: _ConditionRef? = nil) throws(QueryError) -> [_Key] {
        if condition != nil { precondition(axis == .descendant || axis == .descendantOrSelf, "a condition is checked in a descendant scan only") }
        if case .none = test { return [] }
        var out: [_Key] = []
        switch axis {
        case .self:
            for k in context where passes(key: k, test, axis: .self) { out.append(k) }
        case .child:
            var sorted = true
            var lastEnd: Int32 = -1
            // Of a name's element type, with several context nodes: its nodes, and where the
            // last search in them ended (a lone context node, as a predicate asks, walks its
            // children: no search, and it reads what the predicate reads next).
            var typePostings: _DocumentIndex._TypeRanks?
            var cursor = 0
            if case .type(let t) = test {
                guard isElementType(t) else { return [] }
                if context.count > 1 {
                    let postings = postings(of: t)
                    typePostings = postings
                    cursor = postings.lower
                }
            }
            for (i, c) in context.enumerated() where !c.isAttached {
                let r = c.rank
                var ch = r + 1
                let stop = r < 0 ? count : end(r)
                if ch < lastEnd { sorted = false }
                lastEnd = max(lastEnd, stop)
                // A name's children through its postings (see `childrenThroughPostings`).
                if let postings = typePostings {
                    // (The end of a context node a few on, asked for now: each is a likely
                    // miss, 92% of this step's time on a cold snapshot without.)
                    if i + 8 < context.count { prefetchEnd(of: context[i + 8].rank) }
                    try childrenThroughPostings(of: r, from: ch, postings: postings, cursor: &cursor, into: &out, offset: offset)
                    continue
                }
                // (Context nodes close together share their lines: only a far one is asked for.)
                if i + 1 < context.count && context[i + 1].rank &- r >= 128 { prefetchChildren(of: context[i + 1].rank) }
                try spend(Int(stop - ch) / 8 + 1, at: offset)
                // Child to child (each a jump over a subtree, a likely cache miss); of a name,
                // past the first 32, through its postings: many children of one name (items
                // of a region, bidders of an auction) are read in a row.
                if case .type(let t) = test {
                    var walked = 0
                    while ch < stop {
                        if walked == 32 {
                            let postings = postings(of: t)
                            var from = postings.lower
                            try childrenThroughPostings(of: r, from: ch, postings: postings, cursor: &from, into: &out, offset: offset)
                            break
                        }
                        if type(ch) == t { out.append(_Key(rank: ch)) }
                        ch = end(ch)
                        walked += 1
                    }
                    continue
                }
                while ch < stop {
                    if passes(ch, test) { out.append(_Key(rank: ch)) }
                    ch = end(ch)
                }
            }
            if !sorted { out.sort() }
        case .descendant, .descendantOrSelf:
            let orSelf = axis == .descendantOrSelf
            var covered: Int32 = -1  // ranks below this are inside a subtree already read
            var attributesToo = false
            // Of a name's element type, with several context nodes: where the last search in
            // its postings ended (see `descendants`).
            var cursor: Int?
            if context.count > 1, case .type(let t) = test, isElementType(t) { cursor = postings(of: t).lower }
            for (i, c) in context.enumerated() {
                // (The end of a context node a few on, asked for now: each is a likely miss
                // where the postings, not the ranks between, are read.)
                if cursor != nil && i + 8 < context.count { prefetchEnd(of: context[i + 8].rank) }
                if c.isAttached {
                    if orSelf && passes(key: c, test, axis: axis) { attributesToo = true }
                    continue
                }
                let r = c.rank
                if r < 0 {
                    if orSelf, case .anyNode = test, try condition.map({ (c) throws(QueryError) in try holds(c, .root) }) ?? true { out.append(.root) }
                    try descendants(from: 0, to: count, test, into: &out, offset: offset, where: condition)
                    covered = count
                    continue
                }
                if r < covered { continue }
                cursor = try descendants(from: orSelf ? r : r + 1, to: end(r), test, into: &out, offset: offset, where: condition, hint: cursor)
                covered = end(r)
            }
            if attributesToo {
                for c in context where c.isAttached && passes(key: c, test, axis: axis) {
                    if let condition, !(try holds(condition, c)) { continue }
                    out.append(c)
                }
                out = Self.sortedUnique(out)
            }
        case .parent:
            for c in context {
                if c.isAttached {
                    let k = _Key(rank: c.rank)
                    if passes(key: k, test, axis: .parent) { out.append(k) }
                } else if c != .root {
                    let p = parent(c.rank)
                    let k = p < 0 ? _Key.root : _Key(rank: p)
                    if passes(key: k, test, axis: .parent) { out.append(k) }
                }
            }
            out = Self.sortedUnique(out)
        case .ancestor, .ancestorOrSelf:
            var seen = Set<Int32>()
            var sawRoot = false
            for c in context {
                if axis == .ancestorOrSelf && passes(key: c, test, axis: axis) { out.append(c) }
                if c == .root { continue }
                // An attribute's ancestors start at its element.
                var r = c.isAttached ? c.rank : parent(c.rank)
                while r >= 0 && !seen.contains(r) {
                    try spend(1, at: offset)
                    seen.insert(r)
                    if passes(r, test) { out.append(_Key(rank: r)) }
                    r = parent(r)
                }
                if r < 0 && !sawRoot {
                    sawRoot = true
                    if case .anyNode = test { out.append(.root) }
                }
            }
            out = Self.sortedUnique(out)
        case .followingSibling, .precedingSibling:
            // Of the context nodes that share a parent, the first has every following
            // sibling any of them has, the last every preceding one.
            var widest: [Int32: Int32] = [:]
            for c in context where c != .root && !c.isAttached {
                let r = c.rank
                let p = parent(r)
                if axis == .followingSibling { if widest[p] == nil { widest[p] = r } } else { widest[p] = r }
            }
            for (p, r) in widest {
                let stop = p < 0 ? count : end(p)
                if axis == .followingSibling {
                    var s = end(r)
                    while s < stop {
                        try spend(1, at: offset)
                        if passes(s, test) { out.append(_Key(rank: s)) }
                        s = end(s)
                    }
                } else {
                    var s = p < 0 ? 0 : p + 1
                    while s < r {
                        try spend(1, at: offset)
                        if passes(s, test) { out.append(_Key(rank: s)) }
                        s = end(s)
                    }
                }
            }
            out = Self.sortedUnique(out)
        case .following:
            // An attribute's following nodes are its element's, as libxml2 has them (not its
            // element's children too, which come after it in document order).
            var from = count
            for c in context where c != .root { from = min(from, end(c.rank)) }
            try descendants(from: from, to: count, test, into: &out, offset: offset)
        case .preceding:
            var last: Int32 = -1
            for c in context where c != .root { last = max(last, c.rank) }
            if last >= 0 {
                try spend(Int(last) / 8 + 1, at: offset)
                var r: Int32 = 0
                while r < last {
                    if end(r) <= last {
                        if passes(r, test) { out.append(_Key(rank: r)) }
                        r += 1
                    } else {
                        r += 1  // an ancestor of the last context node: not preceding it
                    }
                }
            }
        case .attribute:
            for c in context where c != .root && !c.isAttached {
                let r = c.rank
                let run = attributeRun(r)
                for (k, e) in run.enumerated() where attributePasses(view.name(e), test, owner: r) {
                    out.append(_Key(rank: r, attribute: k))
                }
            }
        case .namespace:
            for c in context where c != .root && !c.isAttached && isElement(c.rank) {
                let nodes = namespaceNodes(of: c.rank)
                for j in 0 ..< nodes.count {
                    let k = _Key(rank: c.rank, namespace: j)
                    if passes(key: k, test, axis: .namespace) { out.append(k) }
                }
            }
        }
        return out
    }

    /// Appends the children of `r` from child `first` on (`r + 1`: all of them) of an
    /// element type whose nodes are `postings`, in order: each of the type's nodes in that
    /// part of `r`'s subtree whose parent is `r` is kept; one that
    /// lies deeper is in the subtree of a child after the last kept (or in the last kept's),
    /// found by walking the children from there, and the search goes on past that subtree.
    /// The children before a node of the type are not read (`open_auction > bidder` reads
    /// the bidders' parents, not the initial and reserve prices before them, nor the
    /// bidders' ends: each would be a cache miss), and no child is read twice.
    /// `cursor`: where the last search ended in the postings (see
    /// ``_DocumentIndex/_TypeRanks/seek(_:from:)``).
    ///
    /// - Complexity: O(the type's nodes kept, plus the children walked before a deeper node
    ///   of the type, each with a search that starts where the last ended)
    mutating func childrenThroughPostings(of r: Int32, from first: Int32, postings: _DocumentIndex._TypeRanks, cursor: inout Int,
                                          into out: inout [_Key], offset: Int) throws(QueryError) {
        let stop = r < 0 ? count : end(r)
        // The first child not known to be passed, unless a kept child's subtree comes first.
        var ch = first
        var lastKept: Int32 = -1
        var a = postings.seek(ch, from: cursor)
        var read = 1
        while a < postings.upper {
            let y = postings.ranks[a]
            guard y < stop else { break }
            // (The parents a few nodes on, asked for now: each is a likely miss.)
            if a + 8 < postings.upper { rv_prefetch(parentsByRank + Int(postings.ranks[a + 8])) }
            read += 1
            if parent(y) == r {
                out.append(_Key(rank: y))
                lastKept = y
                a += 1
                continue
            }
            if lastKept >= 0 {
                ch = end(lastKept)
                lastKept = -1
            }
            if y >= ch {
                // The children before the one whose subtree holds y, then that one.
                while end(ch) <= y {
                    ch = end(ch)
                    read += 1
                }
                ch = end(ch)
            }
            a = postings.seek(ch, from: a + 1)
        }
        cursor = a
        try spend(read, at: offset)
    }

    /// Whether some rank in `from ..< to` passes `test`: through the type's postings (the
    /// first of its ranks at or after `from`) for a name, else a scan that stops at the first.
    mutating func hasDescendant(from: Int32, to: Int32, _ test: Test) throws(QueryError) -> Bool {
        guard from < to else { return false }
        if case .type(let t) = test {
            let postings = postings(of: t)
            let a = postings.seek(from, from: postings.lower)
            return a < postings.upper && postings.ranks[a] < to && isElementType(t)
        }
        var r = from
        while r < to {
            if passes(r, test) {
                try spend(Int(r - from) + 1, at: 0)
                return true
            }
            r += 1
        }
        try spend(Int(to - from), at: 0)
        return false
    }

    /// Appends the ranks in `from ..< to` that pass `test`; through the type's postings
    /// when the test is a name and the range is larger than a few of its nodes, or when
    /// `hint` gives where a search in them starts (see
    /// ``_DocumentIndex/_TypeRanks/seek(_:from:)``: the ranges of a set in document order,
    /// each searched for from where the last ended, where a scan would read every rank of
    /// each: `bidder increase` read 860,000 ranks of XMark's 95,624 bidders' subtrees).
    /// Gives where the search ended (`hint` if the ranks were scanned).
    @discardableResult
    mutating func descendants(from: Int32, to: Int32, _ test: Test, into out: inout [_Key], offset: Int,
                              where condition: _ConditionRef? = nil, hint: Int? = nil) throws(QueryError) -> Int? {
        guard from < to else { return hint }
        if case .unqualified(let ts) = test, ts.count == 1, to - from > 64 {
            // The type's nodes, then the namespace check on each.
            var some: [_Key] = []
            try descendants(from: from, to: to, .type(ts[0]), into: &some, offset: offset)
            for k in some where !inNamespace(k.rank) {
                if let condition, !(try holds(condition, k)) { continue }
                out.append(k)
            }
            return hint
        }
        if case .type(let t) = test, to - from > 64 || hint != nil {
            let postings = postings(of: t)
            let a = postings.seek(from, from: hint ?? postings.lower)
            let hi = postings.upper
            var i = a
            while i < hi && postings.ranks[i] < to { i += 1 }
            try spend((i - a) + (hint == nil ? 16 : 1), at: offset)
            guard isElementType(t) else { return i }
            if let condition {
                let ranks = postings.ranks[a ..< i]
                if threads > 1 && i - a >= 2 * Self.splitMinimum {
                    out += try split(i - a) { (e, range) throws(QueryError) -> [_Key] in
                        var some: [_Key] = []
                        try e.kept(ranks[ranks.startIndex + range.lowerBound ..< ranks.startIndex + range.upperBound], where: condition, into: &some)
                        return some
                    }
                    return i
                }
                try kept(ranks, where: condition, into: &out)
                return i
            }
            for j in a ..< i { out.append(_Key(rank: postings.ranks[j])) }
            return i
        }
        try spend(Int(to - from), at: offset)
        if threads > 1 && Int(to - from) >= 2 * Self.splitMinimum {
            out += try split(Int(to - from)) { (e, range) throws(QueryError) -> [_Key] in
                var some: [_Key] = []
                let scanned = e.scansRanks
                e.scansRanks = true
                defer { e.scansRanks = scanned }
                for r in from + Int32(range.lowerBound) ..< from + Int32(range.upperBound) where e.passes(r, test) {
                    if let condition, !(try e.holds(condition, _Key(rank: r))) { continue }
                    some.append(_Key(rank: r))
                }
                return some
            }
            return hint
        }
        let scanned = scansRanks
        scansRanks = true
        defer { scansRanks = scanned }
        var r = from
        while r < to {
            if passes(r, test) {
                if let condition {
                    if try holds(condition, _Key(rank: r)) { out.append(_Key(rank: r)) }
                } else {
                    out.append(_Key(rank: r))
                }
            }
            r += 1
        }
        return hint
    }
}

/// The context of an expression: its node, and the node's position in its context set of
/// `size` nodes.
struct _Context {
    var node: _Key
    var position: Int
    var size: Int
}
