/// A JSONPath query's filters laid out flat, for the evaluator's inner loop: a filter is
/// tested on every child of every node a segment visits (millions, in a `..[?...]`), and
/// walking the syntax tree there (indirect enums, arrays of names) retains and releases a
/// reference at every step. Here each logical expression, comparable and singular query is
/// a plain record in a buffer, names and string literals are ranges of one byte buffer, and
/// the evaluator reads them through pointers with no reference counted.
///
/// What is rarer stays a syntax tree, reached by index: a query that is not singular (an
/// existence test `@..x`, the argument of `count()` or `value()`).
final class _JPProgram: @unchecked Sendable {
    // @unchecked: the buffers are written by `init` only, then read, never changed.

    enum Op: UInt8 {
        /// `kids[a ..< a + b]` are the operands.
        case or, and
        /// Operand `a`.
        case not
        /// Singular query `a` selects a node.
        case existsSingular
        /// Query `queries[a]` selects a node.
        case exists
        /// Function `a` (match or search) is true.
        case function
        /// Comparable `a`, comparison `c`, comparable `b`.
        case compare
    }

    struct Node {
        var op: Op
        var comparison: _JPComparison
        var a: Int32
        var b: Int32
    }

    enum ComparableKind: UInt8 { case number, string, bool, null, singular, function }

    /// A literal (its number, its bytes `bytes[a ..< a + b]`, a bool in `a`), a singular
    /// query (`a`) or a function's value (`a`).
    struct Comparable {
        var kind: ComparableKind
        var a: Int32
        var b: Int32
        var number: Double
    }

    /// A step of a singular query or a path: a member name `bytes[nameStart ..< nameStart +
    /// nameCount]`, an index (`nameStart` -1) or, in a path only, a wildcard (-2).
    struct Step {
        var nameStart: Int32
        var nameCount: Int32
        var index: Int
    }

    struct Singular {
        var relative: Bool
        var first: Int32
        var count: Int32
    }

    enum ArgumentKind: UInt8 { case comparable, nodes, logical }

    /// A function call: its arguments `arguments[first ..< first + count]`.
    struct Function {
        var name: _JPFunctionName
        var first: Int32
        var count: Int32
        /// A literal pattern, compiled: `patterns[pattern]` (-1: none, or not an I-Regexp).
        var pattern: Int32
        var patternIsLiteral: Bool
        var offset: Int
    }

    /// A function argument: comparable `a`, query `queries[a]`, or logical node `a`.
    struct Argument {
        var kind: ArgumentKind
        var a: Int32
    }

    let nodes: UnsafeMutableBufferPointer<Node>
    let kids: UnsafeMutableBufferPointer<Int32>
    let comparables: UnsafeMutableBufferPointer<Comparable>
    let steps: UnsafeMutableBufferPointer<Step>
    let singulars: UnsafeMutableBufferPointer<Singular>
    let functions: UnsafeMutableBufferPointer<Function>
    let arguments: UnsafeMutableBufferPointer<Argument>
    let bytes: UnsafeMutableBufferPointer<UInt8>
    /// The queries that are not singular, as syntax trees (their own filters compiled here).
    let queries: [_JPQuery]
    /// Per query of ``queries``: if it is a path (child segments of one name, wildcard or
    /// index selector each: `@.a[*].b`), its steps as a ``Singular`` here, which the
    /// evaluator follows without making a nodelist; else -1.
    let paths: UnsafeMutableBufferPointer<Int32>
    /// Per logical node: the member the current node must have for it to hold (`@.x` is
    /// compared with a literal, tested, or matched; or an operand of `&&` needs one), as a
    /// range of ``bytes``; (-1, 0) if none. A descendant segment's filter with one is tested
    /// only on the parents of the members of that name.
    let required: UnsafeMutableBufferPointer<(start: Int32, count: Int32)>
    let patterns: [_IRegexp]

    /// `query` with each filter replaced by its root node here, and the program.
    static func compile(_ query: _JPQuery) -> (_JPQuery, _JPProgram) {
        var builder = Builder()
        let rewritten = builder.rewrite(query)
        return (rewritten, _JPProgram(builder))
    }

    private init(_ b: Builder) {
        func copy<T>(_ a: [T]) -> UnsafeMutableBufferPointer<T> {
            let p = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, a.count))
            _ = p.initialize(from: a)
            return UnsafeMutableBufferPointer(rebasing: p[0 ..< a.count])
        }
        nodes = copy(b.nodes)
        kids = copy(b.kids)
        comparables = copy(b.comparables)
        steps = copy(b.steps)
        singulars = copy(b.singulars)
        functions = copy(b.functions)
        arguments = copy(b.arguments)
        bytes = copy(b.bytes)
        paths = copy(b.paths)
        required = copy(b.required)
        queries = b.queries
        patterns = b.patterns
    }

    deinit {
        for p in [UnsafeMutableRawPointer(nodes.baseAddress), UnsafeMutableRawPointer(kids.baseAddress),
                  UnsafeMutableRawPointer(comparables.baseAddress), UnsafeMutableRawPointer(steps.baseAddress),
                  UnsafeMutableRawPointer(singulars.baseAddress), UnsafeMutableRawPointer(functions.baseAddress),
                  UnsafeMutableRawPointer(arguments.baseAddress), UnsafeMutableRawPointer(bytes.baseAddress),
                  UnsafeMutableRawPointer(paths.baseAddress), UnsafeMutableRawPointer(required.baseAddress)] {
            p?.deallocate()
        }
    }

    private struct Builder {
        var nodes: [Node] = []
        var kids: [Int32] = []
        var comparables: [Comparable] = []
        var steps: [Step] = []
        var singulars: [Singular] = []
        var functions: [Function] = []
        var arguments: [Argument] = []
        var bytes: [UInt8] = []
        var queries: [_JPQuery] = []
        var paths: [Int32] = []
        var required: [(start: Int32, count: Int32)] = []
        var patterns: [_IRegexp] = []

        /// The first member name of a relative singular query (`@.x...`), if it starts so.
        func firstMember(ofSingular i: Int32) -> (start: Int32, count: Int32)? {
            let q = singulars[Int(i)]
            guard q.relative, q.count > 0 else { return nil }
            let step = steps[Int(q.first)]
            return step.nameStart >= 0 ? (step.nameStart, step.nameCount) : nil
        }

        func firstMember(ofComparable i: Int32) -> (start: Int32, count: Int32)? {
            guard let (member, zero) = missing(i), !zero else { return nil }
            return member
        }

        /// The member comparable `i` reads first (`@.x...`, or a function of it), and what it
        /// is when that member is missing: Nothing (a singular query, `length()`, `value()`)
        /// or 0 (`count()`, `zero`).
        func missing(_ i: Int32) -> (member: (start: Int32, count: Int32), zero: Bool)? {
            let c = comparables[Int(i)]
            switch c.kind {
            case .singular: return firstMember(ofSingular: c.a).map { ($0, false) }
            case .function:
                let f = functions[Int(c.a)]
                let a = arguments[Int(f.first)]
                switch f.name {
                case .length where a.kind == .comparable:
                    return firstMember(ofComparable: a.a).map { ($0, false) }
                case .count, .value:
                    guard a.kind == .nodes else { return nil }
                    let p = paths[Int(a.a)]
                    guard p >= 0, let m = firstMember(ofSingular: p) else { return nil }
                    return (m, f.name == .count)
                default: return nil
                }
            default: return nil
            }
        }

        /// Whether `0 op literal` (or `literal op 0`, with `zeroOnLeft` false) holds.
        func holdsForZero(_ op: _JPComparison, literal: Int32, zeroOnLeft: Bool) -> Bool {
            let l = comparables[Int(literal)]
            guard l.kind == .number else { return op == .notEqual }
            let (x, y) = zeroOnLeft ? (0.0, l.number) : (l.number, 0.0)
            switch op {
            case .equal: return x == y
            case .notEqual: return x != y
            case .less: return x < y
            case .lessOrEqual: return x <= y
            case .greater: return x > y
            case .greaterOrEqual: return x >= y
            }
        }

        func isLiteral(_ i: Int32) -> Bool {
            let k = comparables[Int(i)].kind
            return k == .number || k == .string || k == .bool || k == .null
        }

        /// The member `made` (just built) needs, if any (see ``_JPProgram/required``).
        func requirement(_ made: Node) -> (start: Int32, count: Int32)? {
            switch made.op {
            case .and:
                for k in 0 ..< made.b {
                    let r = required[Int(kids[Int(made.a + k)])]
                    if r.start >= 0 { return r }
                }
                return nil
            case .or, .not: return nil
            case .existsSingular: return firstMember(ofSingular: made.a)
            case .exists:
                let p = paths[Int(made.a)]
                return p >= 0 ? firstMember(ofSingular: p) : nil
            case .function:
                let f = functions[Int(made.a)]
                guard f.name == .match || f.name == .search else { return nil }
                let a = arguments[Int(f.first)]
                return a.kind == .comparable ? firstMember(ofComparable: a.a) : nil
            case .compare:
                // count() of a missing member is 0: needed when 0 fails the comparison.
                if let (m, zero) = missing(made.a), zero, isLiteral(made.b) {
                    return holdsForZero(made.comparison, literal: made.b, zeroOnLeft: true) ? nil : m
                }
                if let (m, zero) = missing(made.b), zero, isLiteral(made.a) {
                    return holdsForZero(made.comparison, literal: made.a, zeroOnLeft: false) ? nil : m
                }
                // Nothing is less than nothing, equal only to Nothing (which no literal is).
                switch made.comparison {
                case .notEqual: return nil
                case .less, .greater:
                    return firstMember(ofComparable: made.a) ?? firstMember(ofComparable: made.b)
                case .equal, .lessOrEqual, .greaterOrEqual:
                    if isLiteral(made.b), let m = firstMember(ofComparable: made.a) { return m }
                    if isLiteral(made.a), let m = firstMember(ofComparable: made.b) { return m }
                    return nil
                }
            }
        }

        /// `q` among the queries, with its path if it is one; its index.
        mutating func query(_ q: _JPQuery) -> Int32 {
            queries.append(rewrite(q))
            let isPath = q.segments.allSatisfy { s in
                guard !s.descendant, s.selectors.count == 1 else { return false }
                switch s.selectors[0] {
                case .name, .index, .wildcard: return true
                default: return false
                }
            }
            paths.append(isPath ? singular(q) : -1)
            return Int32(queries.count - 1)
        }

        mutating func rewrite(_ q: _JPQuery) -> _JPQuery {
            var out = q
            for i in out.segments.indices {
                for j in out.segments[i].selectors.indices {
                    if case .filter(let logical) = out.segments[i].selectors[j] {
                        out.segments[i].selectors[j] = .compiledFilter(node(logical))
                    }
                }
            }
            return out
        }

        mutating func text(_ s: [UInt8]) -> (Int32, Int32) {
            let start = Int32(bytes.count)
            bytes += s
            return (start, Int32(s.count))
        }

        mutating func node(_ e: _JPLogical) -> Int32 {
            let made: Node
            switch e {
            case .or(let parts), .and(let parts):
                let compiled = parts.map { node($0) }
                let first = Int32(kids.count)
                kids += compiled
                if case .or = e {
                    made = Node(op: .or, comparison: .equal, a: first, b: Int32(compiled.count))
                } else {
                    made = Node(op: .and, comparison: .equal, a: first, b: Int32(compiled.count))
                }
            case .not(let inner):
                made = Node(op: .not, comparison: .equal, a: node(inner), b: 0)
            case .exists(let q):
                if q.isSingular {
                    made = Node(op: .existsSingular, comparison: .equal, a: singular(q), b: 0)
                } else {
                    made = Node(op: .exists, comparison: .equal, a: query(q), b: 0)
                }
            case .function(let f):
                made = Node(op: .function, comparison: .equal, a: function(f), b: 0)
            case .compare(let l, let op, let r):
                made = Node(op: .compare, comparison: op, a: comparable(l), b: comparable(r))
            }
            nodes.append(made)
            required.append(requirement(made) ?? (-1, 0))
            return Int32(nodes.count - 1)
        }

        mutating func singular(_ q: _JPQuery) -> Int32 {
            let first = Int32(steps.count)
            for s in q.segments {
                switch s.selectors[0] {
                case .name(let name):
                    let (start, count) = text(name)
                    steps.append(Step(nameStart: start, nameCount: count, index: 0))
                case .index(let i):
                    steps.append(Step(nameStart: -1, nameCount: 0, index: i))
                case .wildcard:
                    steps.append(Step(nameStart: -2, nameCount: 0, index: 0))
                default:
                    preconditionFailure("a path has names, wildcards and indices only")
                }
            }
            singulars.append(Singular(relative: q.relative, first: first, count: Int32(q.segments.count)))
            return Int32(singulars.count - 1)
        }

        mutating func literal(_ l: _JPLiteral) -> Comparable {
            switch l {
            case .number(let d): return Comparable(kind: .number, a: 0, b: 0, number: d)
            case .string(let s):
                let (start, count) = text(s)
                return Comparable(kind: .string, a: start, b: count, number: 0)
            case .bool(let v): return Comparable(kind: .bool, a: v ? 1 : 0, b: 0, number: 0)
            case .null: return Comparable(kind: .null, a: 0, b: 0, number: 0)
            }
        }

        mutating func comparable(_ c: _JPComparable) -> Int32 {
            let made: Comparable
            switch c {
            case .literal(let l): made = literal(l)
            case .query(let q): made = Comparable(kind: .singular, a: singular(q), b: 0, number: 0)
            case .function(let f): made = Comparable(kind: .function, a: function(f), b: 0, number: 0)
            }
            comparables.append(made)
            return Int32(comparables.count - 1)
        }

        mutating func function(_ f: _JPFunction) -> Int32 {
            var made: [Argument] = []
            for a in f.arguments {
                switch a {
                case .literal(let l):
                    comparables.append(literal(l))
                    made.append(Argument(kind: .comparable, a: Int32(comparables.count - 1)))
                case .singular(let q):
                    made.append(Argument(kind: .comparable, a: comparable(.query(q))))
                case .function(let g):
                    made.append(Argument(kind: .comparable, a: comparable(.function(g))))
                case .nodes(let q):
                    made.append(Argument(kind: .nodes, a: query(q)))
                case .logical(let l):
                    made.append(Argument(kind: .logical, a: node(l)))
                }
            }
            let first = Int32(arguments.count)
            arguments += made
            var pattern: Int32 = -1
            var literal = false
            if f.name == .match || f.name == .search, case .literal(.string) = f.arguments[1] {
                literal = true
                if let p = f.pattern {
                    patterns.append(p)
                    pattern = Int32(patterns.count - 1)
                }
            }
            functions.append(Function(name: f.name, first: first, count: Int32(made.count), pattern: pattern,
                                      patternIsLiteral: literal, offset: f.offset))
            return Int32(functions.count - 1)
        }
    }
}
