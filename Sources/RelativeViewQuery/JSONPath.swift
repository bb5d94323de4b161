import RelativeViewCore

/// A compiled JSONPath query (RFC 9535): parse once, evaluate on any number of trees, from
/// any number of threads (it is `Sendable`).
///
/// ```swift
/// let cheap = try JSONPath("$.store.book[?@.price < 10].title")
/// let titles = try tree.select(cheap)
/// ```
///
/// The whole RFC: name, wildcard, index, slice and filter selectors, child and descendant
/// segments, comparisons, `&&`, `||`, `!`, existence tests, and the functions `length`,
/// `count`, `match`, `search` and `value` (their patterns I-Regexps, RFC 9485). A query
/// the RFC's grammar or its type rules reject is an error at its place.
///
/// Over a tree that a JSON import made (`RelativeViewImport`'s `JSONTreeReader`: node
/// types `object`, `array`, `string`, `number`, `bool`, `null`, member names in the `key`
/// attribute, scalars' text as their value), a query means what the RFC says of the
/// document. Over any other tree, a node with children is an object whose members are named
/// by their `key` attributes, and a node without is a string of its value.
public struct JSONPath: Sendable, CustomStringConvertible {
    /// The query as given.
    ///
    /// - Complexity: O(1)
    public let expression: String
    let query: _JPQuery
    /// Its filters, flat.
    let program: _JPProgram

    /// Compiles `expression`.
    ///
    /// - Throws: ``QueryError`` naming the character (in Unicode scalars) where the query
    ///   is wrong: its syntax, or a function's argument of the wrong type.
    /// - Complexity: O(expression's length)
    public init(_ expression: String) throws(QueryError) {
        var parser = _JPParser(expression)
        (query, program) = _JPProgram.compile(try parser.parseQuery())
        self.expression = expression
    }

    /// The query as given.
    ///
    /// - Complexity: O(1)
    public var description: String { expression }

    /// The work an evaluation may do unless told otherwise: 200 units (about a node
    /// visited or a value compared) per node of the tree, and at least 10^9.
    ///
    /// - Complexity: O(1)
    public static func defaultBudget(nodes: Int) -> Int { max(1_000_000_000, 200 * nodes) }
}

extension ViewTree {
    /// The nodelist of `query` (RFC 9535, section 2.1.2), with `root` as the query argument
    /// `$` (the tree's first root if `nil`): the nodes in the order the RFC gives them
    /// (per input node, per selector; a descendant segment's in document order of the
    /// nodes it visits), a node as often as it is selected.
    ///
    /// - Parameters:
    ///   - query: the compiled query.
    ///   - root: the node `$` stands for.
    ///   - budget: the work allowed (about a node visited or a value compared each);
    ///     ``JSONPath/defaultBudget(nodes:)`` if `nil`.
    ///   - threads: the threads a segment over many nodes, or a filter over many
    ///     children, may share (each part on an evaluator of its own, joined before this
    ///     returns; the answer is the same).
    /// - Throws: ``QueryError`` if the query needs more work than `budget`.
    /// - Complexity: O(nodes visited), after an O(n) index on the first query of a version
    ///   of the tree.
    public func select(_ query: JSONPath, root: NodeID? = nil, budget: Int? = nil, threads: Int = 1) throws(QueryError) -> [NodeID] {
        precondition(threads >= 1, "threads must be at least 1, not \(threads)")
        if let root { _storage.check(root) }
        guard count > 0 else { return [] }
        let index = _DocumentIndex.of(self)
        let ranks = try _jsonPathRanks(query, root: root, index: index, budget: budget, threads: threads)
        return index.nodeIDs(ranks, of: self)
    }

    /// The normalized path (RFC 9535, section 2.7) of each node, from the tree's root:
    /// `$`, then `['name']` for each member on the way down (quotes and control characters
    /// escaped) and `[i]` for each array element. Traps on a stale id.
    ///
    /// - Complexity: O(depth) per node, plus O(length) once per array an index is read in.
    public func normalizedPaths(of nodes: [NodeID]) -> [String] {
        for n in nodes { _storage.check(n) }
        guard !nodes.isEmpty else { return [] }
        let index = _DocumentIndex.of(self)
        return _withWriterView { view in
            var e = _JSONPathEvaluator(index: index, view: view, budget: .max, root: 0, program: Self._noProgram)
            return e.normalizedPaths(nodes.map { index.rank?[Int($0.index)] ?? $0.index })
        }
    }

    /// The normalized path of `node` (see ``normalizedPaths(of:)``).
    ///
    /// - Complexity: O(depth + the length of the arrays on the way).
    public func normalizedPath(of node: NodeID) -> String { normalizedPaths(of: [node])[0] }

    /// The program of a query without filters (for the evaluator's paths alone), made once.
    private static let _noProgram = _JPProgram.compile(_JPQuery(relative: false, segments: [], offset: 0)).1

    /// The nodelist of `query` as ranks, one evaluation.
    func _jsonPathRanks(_ query: JSONPath, root: NodeID?, index: _DocumentIndex, budget: Int?, threads: Int = 1) throws(QueryError) -> [Int32] {
        let result = _withWriterView { view -> Result<[Int32], QueryError> in
            let r = root.map { index.rank?[Int($0.index)] ?? $0.index } ?? 0
            var e = _JSONPathEvaluator(index: index, view: view, budget: budget ?? JSONPath.defaultBudget(nodes: count), root: r,
                                       program: query.program, threads: threads)
            return Result { () throws(QueryError) in try e.select(query.query, current: r) }
        }
        return try result.get()
    }
}
