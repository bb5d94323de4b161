import RelativeViewCore

/// A compiled XPath 1.0 expression: parse once, evaluate on any number of trees, from any
/// number of threads (it is `Sendable`).
///
/// ```swift
/// let titles = try XPath("//book[@lang = 'en']/title")
/// let nodes = try tree.select(titles)
/// ```
///
/// Evaluation is set at a time over the tree's document order (see `ViewTree.evaluate(_:from:budget:threads:variables:)`).
/// An unprefixed name test matches the elements of that name in no namespace, as XPath 1.0
/// has it (an element under a default namespace declaration is in one); a prefix must be
/// bound (``init(_:namespaces:)``), and a variable's value given to the evaluation.
public struct XPath: Sendable, CustomStringConvertible {
    /// The expression as given.
    ///
    /// - Complexity: O(1)
    public let expression: String
    /// The prefixes the expression may use and the namespace URIs they are bound to (`xml`
    /// is always bound).
    ///
    /// - Complexity: O(1)
    public let namespaces: [String: String]
    let root: _XPathExpr

    /// Compiles `expression`, its prefixes bound by `namespaces` (prefix to URI): `p:item`
    /// matches the elements named `item` whose prefix, whatever it is in the document, is
    /// bound there to the same URI.
    ///
    /// - Throws: ``QueryError`` naming the character where the expression is wrong.
    /// - Complexity: O(expression's length)
    public init(_ expression: String, namespaces: [String: String] = [:]) throws(QueryError) {
        var parser = try _XPathParser(expression)
        self.expression = expression
        self.namespaces = namespaces
        root = Self.optimized(try parser.parse())
    }

    /// The expression as given.
    ///
    /// - Complexity: O(1)
    public var description: String { expression }

    /// `e` with each `//name` (`descendant-or-self::node()/child::name`, its predicates
    /// not positional) as one `descendant::name` step: one scan of each subtree rather than
    /// a child step from every node in it.
    static func optimized(_ e: _XPathExpr) -> _XPathExpr {
        switch e {
        case .number, .literal, .variable: return e
        case .function(let name, let arguments, let offset): return .function(name, arguments.map(optimized), offset: offset)
        case .binary(let op, let a, let b): return .binary(op, optimized(a), optimized(b))
        case .negate(let a): return .negate(optimized(a))
        case .union(let a, let b, let offset): return .union(optimized(a), optimized(b), offset: offset)
        case .path(let absolute, let steps): return .path(absolute: absolute, optimized(steps))
        case .filter(let primary, let predicates, let steps, let offset):
            return .filter(optimized(primary), predicates: predicates.map(optimized), steps: optimized(steps), offset: offset)
        }
    }

    static func optimized(_ steps: [_Step]) -> [_Step] {
        var out: [_Step] = []
        for var s in steps {
            s.predicates = s.predicates.map(optimized)
            if s.axis == .child, let last = out.last, last.axis == .descendantOrSelf, last.test == .node, last.predicates.isEmpty {
                // `//b`: the b children of every descendant-or-self node are the b descendants;
                // a position counts among each parent's b children still.
                out.removeLast()
                s.axis = .descendant
                s.positionsAmongSiblings = s.predicates.contains(where: _XPathEvaluator.isPositional)
            }
            out.append(s)
        }
        return out
    }

    /// A number as XPath's `string()` writes it (and libxml2: `NaN`, `Infinity`, an
    /// integer with no point, 15 significant digits at most, exponent notation past 10^9 and
    /// below 10^-5).
    ///
    /// - Complexity: O(1)
    public static func string(_ number: Double) -> String { _XPathEvaluator.string(number) }

    /// The work an evaluation may do unless told otherwise: 200 units (about a node
    /// visited or a value compared) per node of the tree, and at least 10^9.
    ///
    /// - Complexity: O(1)
    public static func defaultBudget(nodes: Int) -> Int { max(1_000_000_000, 200 * nodes) }
}

/// A node an XPath expression selects: a node of the tree, one of its attributes, one of
/// its namespace nodes, or the document (the root node, parent of the tree's roots).
public struct XPathNode: Sendable, Hashable {
    /// The tree's node; for an attribute or a namespace node, its element; `nil` for the
    /// document.
    ///
    /// - Complexity: O(1)
    public let node: NodeID?
    /// What an attribute or a namespace node holds besides its element; `nil` for any other
    /// node. One reference, not four strings: a node-set of elements is then built and let
    /// go without a release per string (four per node, 43% of `//person`'s time on XMark,
    /// perf).
    private let more: _More?

    private indirect enum _More: Sendable, Hashable {
        case attribute(name: String, value: String)
        case namespace(prefix: String, uri: String)
    }

    /// An attribute's name (`nil` for any other node).
    ///
    /// - Complexity: O(1)
    public var attributeName: String? {
        if case .attribute(let name, _) = more { return name }
        return nil
    }
    /// An attribute's value (`nil` for any other node).
    ///
    /// - Complexity: O(1)
    public var attributeValue: String? {
        if case .attribute(_, let value) = more { return value }
        return nil
    }
    /// A namespace node's prefix, "" for the default namespace (`nil` for any other node).
    ///
    /// - Complexity: O(1)
    public var namespacePrefix: String? {
        if case .namespace(let prefix, _) = more { return prefix }
        return nil
    }
    /// A namespace node's URI (`nil` for any other node).
    ///
    /// - Complexity: O(1)
    public var namespaceURI: String? {
        if case .namespace(_, let uri) = more { return uri }
        return nil
    }

    /// Whether this is the document (the root node).
    ///
    /// - Complexity: O(1)
    public var isDocument: Bool { node == nil }

    /// The tree's node `node` (not an attribute).
    ///
    /// - Complexity: O(1)
    public init(node: NodeID) {
        (self.node, more) = (node, nil)
    }

    /// A node of the tree (the document for `nil`), or with an `attribute`, that attribute
    /// of `node`.
    init(node: NodeID?, attribute: (name: String, value: String)? = nil) {
        self.node = node
        more = attribute.map { .attribute(name: $0.name, value: $0.value) }
    }

    /// The namespace node of `element` for `prefix`, bound to `uri`.
    ///
    /// - Complexity: O(1)
    public init(namespaceOf element: NodeID, prefix: String, uri: String) {
        (node, more) = (element, .namespace(prefix: prefix, uri: uri))
    }
}

/// The value of an XPath expression: one of XPath 1.0's four types.
public enum XPathValue: Sendable, Equatable {
    /// A node-set, in document order, each node once.
    case nodes([XPathNode])
    /// A boolean.
    case boolean(Bool)
    /// A number (IEEE 754 double).
    case number(Double)
    /// A string.
    case string(String)
}

extension ViewTree {
    /// The value of `query` with `context` as its context node (the document if `nil`).
    ///
    /// Steps are evaluated set at a time over the tree's nodes in document order: a step
    /// from a set of context nodes reads each subtree once however many of them lie in it,
    /// and a name test reads only the nodes of that name (from a list per name built on
    /// the first query of this version of the tree). Results come in document order.
    ///
    /// - Parameters:
    ///   - query: the compiled expression.
    ///   - context: the context node; `nil` for the document.
    ///   - budget: the work allowed (about a node visited or a value compared each);
    ///     ``XPath/defaultBudget(nodes:)`` if `nil`.
    ///   - threads: the threads a scan of a large range or set may share (each part on a
    ///     thread of its own, joined before this returns); 1, the default, uses only the
    ///     caller's. The answer is the same whatever the number.
    ///   - variables: the values of the expression's variables, by name without the `$`
    ///     (`["id": .string("x")]` for `//*[@id = $id]`); a node-set's nodes must be this
    ///     tree's (an attribute by its element and name).
    /// - Throws: ``QueryError`` if the expression calls an unknown function, uses an
    ///   unbound prefix or variable, or needs more work than `budget`.
    /// - Complexity: O(nodes visited), after an O(n) index on the first query of a version.
    public func evaluate(_ query: XPath, from context: NodeID? = nil, budget: Int? = nil, threads: Int = 1,
                         variables: [String: XPathValue] = [:]) throws(QueryError) -> XPathValue {
        if let context { _storage.check(context) }
        for case .nodes(let nodes) in variables.values {
            for n in nodes { if let node = n.node { _storage.check(node) } }
        }
        let index = _DocumentIndex.of(self)
        let result = _withWriterView { view -> Result<(_Value, [_Key: (String, String)]), QueryError> in
            var evaluator = _XPathEvaluator(index: index, view: view, budget: budget ?? XPath.defaultBudget(nodes: count),
                                            namespaces: query.namespaces, threads: threads)
            evaluator.bind(variables)
            let start = context.map { _Key(rank: evaluator.rank(ofSlot: $0.index)) } ?? .root
            return Result { () throws(QueryError) -> (_Value, [_Key: (String, String)]) in
                let value = try evaluator.evaluate(query.root, _Context(node: start, position: 1, size: 1))
                // Namespace nodes' prefixes and URIs, read while the columns are at hand.
                var namespaceNodes: [_Key: (String, String)] = [:]
                if case .nodes(let keys) = value {
                    for k in keys where k.isNamespace {
                        let n = evaluator.namespaceNodes(of: k.rank)[k.namespaceIndex]
                        namespaceNodes[k] = (n.prefix, n.uri)
                    }
                }
                return (value, namespaceNodes)
            }
        }
        let (value, namespaceNodes) = try result.get()
        switch value {
        case .boolean(let b): return .boolean(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .nodes(let keys): return .nodes(xpathNodes(keys, index, namespaceNodes))
        }
    }

    /// The tree nodes `query` selects from `context` (the document if `nil`), in document
    /// order.
    ///
    /// - Throws: ``QueryError`` as ``evaluate(_:from:budget:threads:variables:)`` does, and if the value is
    ///   not a node-set or holds attributes or the document (ask ``evaluate(_:from:budget:threads:variables:)``).
    /// - Complexity: as ``evaluate(_:from:budget:threads:variables:)``.
    public func select(_ query: XPath, from context: NodeID? = nil, budget: Int? = nil, threads: Int = 1,
                       variables: [String: XPathValue] = [:]) throws(QueryError) -> [NodeID] {
        guard case .nodes(let nodes) = try evaluate(query, from: context, budget: budget, threads: threads, variables: variables) else {
            throw QueryError(language: "XPath", offset: 0, message: "the expression's value is not a node-set")
        }
        var out: [NodeID] = []
        out.reserveCapacity(nodes.count)
        for n in nodes {
            guard let node = n.node, n.attributeName == nil, n.namespacePrefix == nil else {
                let what = n.isDocument ? "the document" : n.namespacePrefix != nil ? "namespace nodes" : "attributes"
                throw QueryError(language: "XPath", offset: 0, message: "the expression selects \(what), not only nodes of the tree: use evaluate(_:) for them")
            }
            out.append(node)
        }
        return out
    }

    private func xpathNodes(_ keys: [_Key], _ index: _DocumentIndex, _ namespaceNodes: [_Key: (String, String)]) -> [XPathNode] {
        let s = _storage
        // Every key's node id in one loop over the columns (a key of the root: rank 0's
        // id, unused).
        let ids = index.nodeIDs(keys.map { max(0, $0.rank) }, of: self)
        return keys.enumerated().map { i, k in
            if k == .root { return XPathNode(node: nil) }
            let id = ids[i]
            let x = id.index
            if !namespaceNodes.isEmpty, let (prefix, uri) = namespaceNodes[k] { return XPathNode(namespaceOf: id, prefix: prefix, uri: uri) }
            guard k.isAttached else { return XPathNode(node: id) }
            let e = s.content.attributes.run(of: Int(x)).lowerBound + k.attributeIndex
            return XPathNode(node: id, attribute: (TypeRegistry.shared.name(of: s.content.attributes.name(at: e)),
                                                 s.content.attributes.value(at: e)))
        }
    }
}
