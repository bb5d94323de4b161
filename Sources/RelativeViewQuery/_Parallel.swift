import RelativeViewCore
import RelativeViewEngine

/// What a side thread's evaluator is made from: the index (itself `Sendable`), the tree's
/// columns (`_WriterView`, plain pointers: valid while the caller's `_withWriterView`
/// closure runs, which joins every side thread before it returns, and only read meanwhile,
/// hence `@unchecked`) and the query's prefixes.
struct _EvaluatorParts: @unchecked Sendable {
    let index: _DocumentIndex
    let view: _WriterView
    let namespaces: [String: String]
    let budget: Int
}

extension _XPathEvaluator {
    /// Work below this many items stays on one thread (a thread costs tens of microseconds).
    static let splitMinimum = 1 << 16

    /// `part` over `0 ..< count` in up to ``threads`` contiguous chunks, the first on this
    /// thread and the others on side threads, each with an evaluator of its own (its caches
    /// its own; the budget shared out); the chunks' keys concatenated in order. With one
    /// thread, or too little work, `part` runs once over the whole range.
    mutating func split(_ count: Int, _ part: @escaping @Sendable (inout _XPathEvaluator, Range<Int>) throws(QueryError) -> [_Key]) throws(QueryError) -> [_Key] {
        let parts = min(threads, count / Self.splitMinimum)
        if parts <= 1 { return try part(&self, 0 ..< count) }
        let chunk = (count + parts - 1) / parts
        let shared = _EvaluatorParts(index: index, view: view, namespaces: namespaces, budget: budget / parts)
        var tasks: [_SideTask<Result<[_Key], QueryError>>] = []
        for p in 1 ..< parts {
            let range = p * chunk ..< min(count, (p + 1) * chunk)
            tasks.append(_SideTask {
                var e = _XPathEvaluator(index: shared.index, view: shared.view, budget: shared.budget, namespaces: shared.namespaces)
                return Result { () throws(QueryError) -> [_Key] in try part(&e, range) }
            })
        }
        let first = Result { () throws(QueryError) -> [_Key] in try part(&self, 0 ..< chunk) }
        // Every side thread is joined before this returns or throws.
        let rest = tasks.map { $0.wait() }
        var out = try first.get()
        for r in rest { out += try r.get() }
        return out
    }
}

/// What a side thread's JSONPath evaluator is made from (as ``_EvaluatorParts``).
struct _JSONPathParts: @unchecked Sendable {
    let index: _DocumentIndex
    let view: _WriterView
    let budget: Int
    let root: Int32
    let program: _JPProgram
}

extension _JSONPathEvaluator {
    /// A child segment over fewer input nodes than this stays on one thread.
    static let splitMinimum = 1 << 14
    /// A filter over fewer children than this stays on one thread (a test reads a member
    /// or more of each: a few cache misses, where a thread costs tens of microseconds).
    static let filterSplitMinimum = 1 << 12

    /// `part` over `0 ..< count` in up to ``threads`` contiguous chunks, the first on this
    /// thread and the others on side threads, each with an evaluator of its own (its caches
    /// its own; the budget shared out, what the parts spent taken from this one's); the
    /// chunks' ranks concatenated in order.
    mutating func split(_ count: Int, _ part: @escaping @Sendable (inout _JSONPathEvaluator, Range<Int>) throws(QueryError) -> [Int32]) throws(QueryError) -> [Int32] {
        let parts = min(threads, max(1, count / 1_024))
        if parts <= 1 { return try part(&self, 0 ..< count) }
        let chunk = (count + parts - 1) / parts
        let share = budget / parts
        let shared = _JSONPathParts(index: index, view: view, budget: share, root: root, program: program)
        var tasks: [_SideTask<Result<(ranks: [Int32], spent: Int), QueryError>>] = []
        for p in 1 ..< parts {
            let range = p * chunk ..< min(count, (p + 1) * chunk)
            tasks.append(_SideTask {
                var e = _JSONPathEvaluator(index: shared.index, view: shared.view, budget: shared.budget, root: shared.root, program: shared.program)
                return Result { () throws(QueryError) in
                    let ranks = try part(&e, range)
                    return (ranks, shared.budget - e.budget)
                }
            })
        }
        let before = budget
        budget = share
        let first = Result { () throws(QueryError) -> [Int32] in try part(&self, 0 ..< chunk) }
        let spentHere = share - budget
        // Every side thread is joined before this returns or throws.
        let rest = tasks.map { $0.wait() }
        budget = before - spentHere
        var out = try first.get()
        for r in rest {
            let (ranks, spent) = try r.get()
            budget -= spent
            out += ranks
        }
        // (Each part throws past its share, so the budget left is never negative.)
        return out
    }
}
