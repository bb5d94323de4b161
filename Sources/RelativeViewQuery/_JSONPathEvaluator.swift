import CColumnMemory
import RelativeViewCore

/// What a node is to JSONPath: JSON's six kinds, by the type names the JSON import gives.
/// A node of any other type (a markup element, text) is an object when it has children
/// (its members named by their `key` attributes) and a string of its value when it has none.
enum _JSONKind: UInt8 {
    case object, array, string, number, bool, null, other
}

/// A value a filter compares (RFC 9535, section 2.3.5.2): JSON's, or Nothing (the value of
/// a singular query that selects no node, of a function that has none).
enum _JPValue {
    case nothing
    case null
    case bool(Bool)
    case number(Double)
    /// A string of the document or of the query, read in place.
    case text(UnsafeBufferPointer<UInt8>)
    /// An object or an array of the document, by rank.
    case node(Int32)
}

/// Evaluates compiled JSONPath over one tree's ranks (its ``_DocumentIndex``): a segment
/// takes the whole nodelist of the one before and gives the next, in the order RFC 9535
/// defines (section 2.5: per input node, per selector); a descendant segment reads each
/// input node's subtree as one interval of ranks.
struct _JSONPathEvaluator: ~Copyable {
    let index: _DocumentIndex
    let view: _WriterView
    let count: Int32
    var budget: Int
    /// The index's ends, or `nil`: each read from its span (``_DocumentIndex/end(_:span:)``).
    private let ends: [Int32]?
    /// Per rank, its type's raw value and its parent's rank (-1 for a root): the index's
    /// columns, or the tree's own where ranks are slots. The index (held) keeps them.
    private let typesByRank: UnsafePointer<Int32>
    private let parentsByRank: UnsafePointer<Int32>
    private let slotsByRank: [Int32]?
    /// The index's runs of slots, where it keeps them (read before `slotsByRank`).
    private let slotRuns: _SlotRuns?
    /// Per type's raw value: its ``_JSONKind``'s raw value, 255 if not known yet.
    private var kinds: [UInt8]
    /// The node `$` stands for.
    let root: Int32
    /// The query's filters, flat.
    let program: _JPProgram
    /// The literal patterns of `match` and `search`, compiled on first use (by the
    /// program's pattern index).
    private var literalPatterns: [_Matcher?] = []
    /// The member names' postings, once asked for (`.some(nil)`: not made yet).
    private var keysKept: _DocumentIndex._KeyPostings??
    /// Patterns that are values of the document, compiled so far, by their text and
    /// whether the match is whole (`.some(nil)`: not an I-Regexp).
    private var patterns: [_PatternKey: _Matcher?] = [:]
    /// A pattern of the document, as `patterns` keeps it.
    private struct _PatternKey: Hashable { let text: [UInt8]; let whole: Bool }
    /// A pattern with its `Regex` (nil if `Regex` rejects it: a range quantifier too large,
    /// say): one reference to retain per call, where the pattern's fields are several.
    private final class _Matcher {
        let pattern: _IRegexp
        let regex: Regex<Substring>?
        init(_ pattern: _IRegexp) { self.pattern = pattern; regex = _JSONPathEvaluator.compile(pattern) }
    }

    /// The threads a segment over many nodes or a filter over many children may share
    /// (see ``split(_:_:)``).
    let threads: Int

    init(index: _DocumentIndex, view: _WriterView, budget: Int, root: Int32, program: _JPProgram, threads: Int = 1) {
        self.threads = threads
        self.program = program
        self.index = index
        self.view = view
        count = Int32(index.count)
        self.budget = budget
        (ends, slotsByRank, slotRuns) = (index.end, index.order, index.slotRuns)
        typesByRank = index.typeByRank.map { UnsafePointer($0.base) } ?? view.typeID
        parentsByRank = index.parentByRank.map { UnsafePointer($0.base) } ?? view.parent
        kinds = [UInt8](repeating: 255, count: TypeRegistry.shared.count)
        self.root = root
    }

    // MARK: The tree by rank

    @inline(__always) func end(_ r: Int32) -> Int32 {
        if let ends { return ends[Int(r)] }
        return _DocumentIndex.end(r, span: view.span[Int(r)])
    }
    @inline(__always) func slot(_ r: Int32) -> Int32 {
        if let slotRuns { return slotRuns.slot(r) }
        return slotsByRank?[Int(r)] ?? r
    }
    @inline(__always) func parent(_ r: Int32) -> Int32 { parentsByRank[Int(r)] }
    @inline(__always) func type(_ r: Int32) -> Int32 { typesByRank[Int(r)] }

    @inline(__always) mutating func kind(_ r: Int32) -> _JSONKind {
        let t = Int(type(r))
        if t < kinds.count, kinds[t] != 255 {
            let k = _JSONKind(rawValue: kinds[t]).unsafelyUnwrapped
            return k == .other ? (end(r) > r + 1 ? .object : .string) : k
        }
        return learnKind(r)
    }

    @inline(never) mutating func learnKind(_ r: Int32) -> _JSONKind {
        let t = Int(type(r))
        let k: _JSONKind
        switch TypeRegistry.shared.name(of: TypeID(rawValue: Int32(t))) {
        case "object": k = .object
        case "array": k = .array
        case "string": k = .string
        case "number": k = .number
        case "bool": k = .bool
        case "null": k = .null
        default: k = .other
        }
        if t >= kinds.count { kinds += [UInt8](repeating: 255, count: t + 1 - kinds.count) }
        kinds[t] = k.rawValue
        return k == .other ? (end(r) > r + 1 ? .object : .string) : k
    }

    /// A member's name: its `key` attribute (empty if it has none).
    @inline(__always) func key(_ r: Int32) -> UnsafeBufferPointer<UInt8> {
        view.column(.key, slot(r)) ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    /// A scalar's text (a string decoded, a number as written, `true`, `false`).
    @inline(__always) func text(_ r: Int32) -> UnsafeBufferPointer<UInt8> {
        view.value(slot(r)) ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    /// The children of `r`, in order: from one to the next by its end, and for a node
    /// whose first 16 children had subtrees of 16 nodes or more on average, the rest by a
    /// scan of the parents by rank (``childrenByParents(of:from:to:into:)``).
    @inline(__always) func forEachChild(_ r: Int32, _ body: (Int32) throws(QueryError) -> Void) throws(QueryError) {
        let e = end(r)
        var c = r &+ 1
        var hops = 0
        while c < e {
            try body(c)
            c = end(c)
            hops &+= 1
            if Self.scansTheRest(of: r, at: c, end: e, hops: hops) {
                var rest: [Int32] = []
                childrenByParents(of: r, from: c, to: e, into: &rest)
                for x in rest { try body(x) }
                return
            }
        }
    }

    /// Ranks left in a node's subtree from which ``forEachChild(_:_:)`` may scan them.
    static let scanRanks: Int32 = 8_192

    /// Whether a walk of `r`'s children, at child `c` after `hops` of them and `e` its end,
    /// finds the rest by ``childrenByParents(of:from:to:into:)``: after 16 children whose
    /// subtrees averaged 16 nodes or more, with ``scanRanks`` or more left.
    @inline(__always) static func scansTheRest(of r: Int32, at c: Int32, end e: Int32, hops: Int) -> Bool {
        hops == 16 && e &- c >= scanRanks && c &- r >= 16 &* 16
    }

    /// The ranks in `from ..< to` whose parent is `r`, appended to `out` in order: a scan of
    /// the parents by rank, 4 bytes a rank read in a row, eight at a time. To go from each
    /// child to the next by its end is one dependent read per child, a cache miss each when
    /// the subtrees between are large (`$.site.open_auctions[*]`: 60,150 children over 1.9
    /// million ranks took 7.9 ms that way, about 130 ns a child).
    func childrenByParents(of r: Int32, from: Int32, to: Int32, into out: inout [Int32]) {
        Self.scan(parentsByRank, for: r, from: from, to: to, into: &out)
    }

    static func scan(_ parents: UnsafePointer<Int32>, for r: Int32, from: Int32, to: Int32, into out: inout [Int32]) {
        var x = Int(from)
        let end = Int(to)
        let wanted = SIMD8<Int32>(repeating: r)
        while x &+ 8 <= end {
            let eight = UnsafeRawPointer(parents + x).loadUnaligned(as: SIMD8<Int32>.self)
            if any(eight .== wanted) {
                for k in 0 ..< 8 where eight[k] == r { out.append(Int32(truncatingIfNeeded: x &+ k)) }
            }
            x &+= 8
        }
        while x < end {
            if parents[x] == r { out.append(Int32(truncatingIfNeeded: x)) }
            x &+= 1
        }
    }

    // MARK: Reading ahead

    /// How far ahead in a list of nodes ``readAhead(_:_:texts:)`` asks for a node's first
    /// lines (`far`), and for the texts they point to (`near`).
    static let aheadFar = 16, aheadNear = 8

    /// Before node `k` of `nodes` is walked or tested: asks for the lines node `k + 16` reads
    /// first (its type and end, its first children's ends, key starts and value starts), and
    /// with `texts` for the key and value texts node `k + 8`'s first child points to (its
    /// starts asked for 8 nodes before). To test or walk one object is a few cache misses,
    /// each waiting on the one before; asked for ahead, those of 16 nodes overlap
    /// (`$.site.regions.*[?@.featured == true]` spent half its time waiting for the text of
    /// each item's `featured`, a miss a node).
    @inline(__always) func readAhead(_ nodes: UnsafeBufferPointer<Int32>, _ k: Int, texts: Bool = true) {
        if k &+ Self.aheadFar < nodes.count { askFirstLines(nodes[k &+ Self.aheadFar]) }
        if texts, k &+ Self.aheadNear < nodes.count { askTexts(nodes[k &+ Self.aheadNear]) }
    }

    /// Asks for the lines of `r`'s type and end, and of its first children's ends, key
    /// starts and value starts.
    @inline(__always) func askFirstLines(_ r: Int32) {
        let i = Int(r)
        rv_prefetch(typesByRank + i)
        if let ends {
            ends.withUnsafeBufferPointer { rv_prefetch($0.baseAddress.unsafelyUnwrapped + i) }
        } else {
            rv_prefetch(view.span + i)
            rv_prefetch(view.span + i + 8)
        }
        guard r &+ 1 < count else { return }
        let x = Int(slot(r &+ 1))
        if let at = view.columns[NodeAttribute.key.rawValue].starts.address(x) { rv_prefetch(at) }
        if let at = view.valueStarts.address(x) { rv_prefetch(at) }
    }

    /// Asks for the lines of the key and the value texts of `r`'s first child (and the
    /// line after each: an object's first members' texts follow each other).
    @inline(__always) func askTexts(_ r: Int32) {
        guard r &+ 1 < count else { return }
        let x = Int(slot(r &+ 1))
        let (keys, keyBytes) = view.columns[NodeAttribute.key.rawValue]
        if x < keys.count, let keyBytes {
            let at = keys[x]
            if at >= 0 { rv_prefetch(keyBytes + at); rv_prefetch(keyBytes + at + 64) }
        }
        if x < view.valueStarts.count, let valueBytes = view.valueBytes {
            let at = view.valueStarts[x]
            if at >= 0 { rv_prefetch(valueBytes + at); rv_prefetch(valueBytes + at + 64) }
        }
    }

    /// Whether `nodes` (in document order) lie far enough apart that reading ahead pays:
    /// 16 ranks or more apart on average. Nodes closer together share lines, which the
    /// processor streams in order on its own, and there the reads ahead only cost
    /// (`bidders[*].increase`, 240,044 bidders 8 ranks apart: 7.3 ms without, 10 ms with).
    @inline(__always) static func sparse(_ nodes: UnsafeBufferPointer<Int32>) -> Bool {
        guard nodes.count > aheadFar, let first = nodes.first, let last = nodes.last else { return false }
        return Int(last) &- Int(first) >= 16 &* nodes.count
    }

    /// Appends to `out` those of `nodes` that filter `test` keeps, in order, each tested
    /// with the lines of those after it asked for ahead (``readAhead(_:_:texts:)``) where
    /// they lie apart.
    mutating func keep(_ nodes: UnsafeBufferPointer<Int32>, by test: Int32, into out: inout [Int32]) throws(QueryError) {
        let ahead = Self.sparse(nodes)
        for k in nodes.indices {
            if ahead { readAhead(nodes, k) }
            if try self.test(test, current: nodes[k]) { out.append(nodes[k]) }
        }
    }

    mutating func spend(_ units: Int, at offset: Int) throws(QueryError) {
        budget -= units
        if budget < 0 {
            throw QueryError(language: "JSONPath", offset: offset, message: "the query needs more work than its budget allows (see JSONPath.defaultBudget)")
        }
    }

    // MARK: Queries

    /// The nodelist of `query` with `current` as `@` (`$` is ``root``).
    mutating func select(_ query: _JPQuery, current: Int32) throws(QueryError) -> [Int32] {
        var nodes: [Int32] = [query.relative ? current : root]
        for segment in query.segments {
            nodes = try apply(segment, to: nodes, at: query.offset)
            if nodes.isEmpty { break }
        }
        return nodes
    }

    mutating func apply(_ segment: _JPSegment, to input: [Int32], at offset: Int) throws(QueryError) -> [Int32] {
        if !segment.descendant, threads > 1, input.count >= Self.splitMinimum {
            return try split(input.count) { (e, range) throws(QueryError) -> [Int32] in
                try e.apply(segment, to: Array(input[range]), at: offset)
            }
        }
        var out: [Int32] = []
        if !segment.descendant {
            // One name or `*` (most child segments): the selector read once for the whole
            // input, not once a node (each read retained the selectors and the name).
            if segment.selectors.count == 1 {
                switch segment.selectors[0] {
                case .name(let name):
                    try name.withUnsafeBufferPointer { (name) throws(QueryError) in
                        try input.withUnsafeBufferPointer { (nodes) throws(QueryError) in
                            let ahead = Self.sparse(nodes)
                            for j in nodes.indices {
                                if ahead { readAhead(nodes, j) }
                                let n = nodes[j]
                                guard kind(n) == .object else { continue }
                                try forEachChild(n) { (c) throws(QueryError) in
                                    let key = key(c)
                                    if _sameBytes(key, name) { out.append(c) }
                                }
                                try spend(Int(end(n) - n), at: offset)
                            }
                        }
                    }
                    return out
                case .wildcard:
                    try input.withUnsafeBufferPointer { (nodes) throws(QueryError) in
                        let ahead = Self.sparse(nodes)
                        for j in nodes.indices {
                            if ahead { readAhead(nodes, j, texts: false) }
                            let n = nodes[j]
                            let k = kind(n)
                            guard k == .object || k == .array else { continue }
                            try spend(Int(end(n) - n), at: offset)
                            try forEachChild(n) { (c) throws(QueryError) in out.append(c) }
                        }
                    }
                    return out
                default: break
                }
            }
            for n in input { try select(segment.selectors, of: n, into: &out, at: offset) }
            return out
        }
        for n in input {
            // `..name`: the members of that name in the subtree, ordered by their parents'
            // place in it (each parent's in turn, as the RFC visits them).
            if segment.selectors.count == 1, case .name(let name) = segment.selectors[0] {
                try descendantMembers(named: name, of: n, into: &out, at: offset)
                continue
            }
            // `..[?test]` where the test needs a member: its parents only.
            if segment.selectors.count == 1, case .compiledFilter(let test) = segment.selectors[0] {
                let required = program.required[Int(test)]
                if required.start >= 0 {
                    try descendantFilter(test, requiring: required, of: n, into: &out, at: offset)
                    continue
                }
            }
            // The input node and its descendants in document order (arrays in order,
            // each node before its descendants), the selectors applied to each.
            let e = end(n)
            try spend(Int(e - n), at: offset)
            var d = n
            while d < e {
                try select(segment.selectors, of: d, into: &out, at: offset)
                d += 1
            }
        }
        return out
    }

    mutating func descendantMembers(named name: [UInt8], of n: Int32, into out: inout [Int32], at offset: Int) throws(QueryError) {
        var found: [Int32] = []
        try name.withUnsafeBufferPointer { (name) throws(QueryError) in try members(named: name, in: n, into: &found, at: offset) }
        var kept: [Int32] = []
        kept.reserveCapacity(found.count)
        for c in found where kind(parent(c)) == .object { kept.append(c) }
        out += orderedByParent(kept)
    }

    /// `nodes` (in document order) ordered as a descendant segment gives them: by their
    /// parents' ranks (each parent's turn, in document order), in document order among one
    /// parent's. A member nested in an earlier sibling's subtree comes after its own parent's
    /// turn.
    func orderedByParent(_ nodes: [Int32]) -> [Int32] {
        var last: Int32 = -1
        var sorted = true
        for c in nodes {
            let p = parent(c)
            if p < last { sorted = false; break }
            last = p
        }
        if sorted { return nodes }
        let parents = nodes.map { parent($0) }
        var order = Array(nodes.indices)
        order.sort { parents[$0] != parents[$1] ? parents[$0] < parents[$1] : $0 < $1 }
        return order.map { nodes[$0] }
    }

    /// The member names' postings, if this version of the tree has them (from its second
    /// asking on: see ``_DocumentIndex/keyPostings(_:)``).
    mutating func keyPostings() -> _DocumentIndex._KeyPostings? {
        if let kept = keysKept { return kept }
        let made = index.keyPostings { [view, slotsByRank] in
            _DocumentIndex._KeyPostings(count: Int(count)) { r in view.column(.key, slotsByRank?[Int(r)] ?? r) }
        }
        keysKept = .some(made)
        return made
    }

    /// The nodes in the subtree of `n` (not `n`) whose member name is `name`, in document
    /// order: from the names' postings, or a scan of the subtree.
    mutating func members(named name: UnsafeBufferPointer<UInt8>, in n: Int32, into out: inout [Int32], at offset: Int) throws(QueryError) {
        let e = end(n)
        if let postings = keyPostings() {
            let range = postings.ranks(named: name)
            var lo = range.lowerBound, hi = range.upperBound
            while lo < hi {
                let m = (lo + hi) / 2
                if postings.ranks[m] <= n { lo = m + 1 } else { hi = m }
            }
            var i = lo
            while i < range.upperBound, postings.ranks[i] < e {
                out.append(postings.ranks[i])
                i += 1
            }
            try spend(i - lo + 1, at: offset)
            return
        }
        try spend(Int(e - n), at: offset)
        var c = n &+ 1
        while c < e {
            if let k = view.column(.key, slot(c)), _sameBytes(k, name) { out.append(c) }
            c &+= 1
        }
    }

    /// `..[?test]` from `n`, where the test needs its node to have member `required`: the
    /// parents of the members of that name are the only candidates.
    mutating func descendantFilter(_ test: Int32, requiring required: (start: Int32, count: Int32), of n: Int32,
                                   into out: inout [Int32], at offset: Int) throws(QueryError) {
        var found: [Int32] = []
        try members(named: bytes(required.start, required.count), in: n, into: &found, at: offset)
        var candidates: [Int32] = []
        candidates.reserveCapacity(found.count)
        var last: Int32 = -1
        var increasing = true
        for m in found {
            let c = parent(m)
            if c == n || c == last { continue }
            if c < last { increasing = false }
            candidates.append(c)
            last = c
        }
        if !increasing {
            candidates.sort()
            var unique: [Int32] = []
            for c in candidates where c != unique.last { unique.append(c) }
            candidates = unique
        }
        var kept: [Int32] = []
        try candidates.withUnsafeBufferPointer { (candidates) throws(QueryError) in
            let ahead = Self.sparse(candidates)
            for j in candidates.indices {
                if ahead { readAhead(candidates, j) }
                let c = candidates[j]
                let p = parent(c)
                let k = kind(p)
                guard k == .object || k == .array else { continue }
                if try self.test(test, current: c) { kept.append(c) }
            }
        }
        out += orderedByParent(kept)
    }

    /// The children of `n` each selector selects, selector after selector.
    mutating func select(_ selectors: [_JPSelector], of n: Int32, into out: inout [Int32], at offset: Int) throws(QueryError) {
        let k = kind(n)
        guard k == .object || k == .array else { return }
        var elements: [Int32]?
        for selector in selectors {
            switch selector {
            case .name(let name):
                guard k == .object else { continue }
                try name.withUnsafeBufferPointer { (name) throws(QueryError) in
                    try forEachChild(n) { (c) throws(QueryError) in
                        let key = key(c)
                        if _sameBytes(key, name) { out.append(c) }
                    }
                }
                try spend(Int(end(n) - n), at: offset)
            case .wildcard:
                try spend(Int(end(n) - n), at: offset)
                try forEachChild(n) { (c) throws(QueryError) in out.append(c) }
            case .index(let i):
                guard k == .array else { continue }
                if elements == nil { elements = try children(n, first: Self.elementsNeeded(selectors), at: offset) }
                let all = elements.unsafelyUnwrapped
                let j = i >= 0 ? i : all.count + i
                if j >= 0, j < all.count { out.append(all[j]) }
            case .slice(let start, let stop, let step):
                guard k == .array else { continue }
                if elements == nil { elements = try children(n, first: Self.elementsNeeded(selectors), at: offset) }
                let all = elements.unsafelyUnwrapped
                for j in Self.slice(count: all.count, start: start, end: stop, step: step) { out.append(all[j]) }
            case .filter:
                preconditionFailure("a filter is compiled into the query's program")
            case .compiledFilter(let test):
                // The children in turn, not gathered: most nodes a descendant segment visits
                // have few. They are walked as forEachChild(_:_:) walks them, here, since the
                // test changes the evaluator.
                let e = end(n)
                try spend(Int(e - n), at: offset)
                if threads > 1, Int(e - n) >= Self.filterSplitMinimum {
                    // Many children, maybe: listed first, then tested in parts if many.
                    var all: [Int32] = []
                    try forEachChild(n) { (c) throws(QueryError) in all.append(c) }
                    if all.count >= Self.filterSplitMinimum {
                        let children = all
                        out += try split(children.count) { (e, range) throws(QueryError) -> [Int32] in
                            var kept: [Int32] = []
                            try children[range].withUnsafeBufferPointer { (part) throws(QueryError) in try e.keep(part, by: test, into: &kept) }
                            return kept
                        }
                    } else {
                        try all.withUnsafeBufferPointer { (all) throws(QueryError) in try keep(all, by: test, into: &out) }
                    }
                    continue
                }
                var c = n &+ 1
                var hops = 0
                while c < e {
                    if try self.test(test, current: c) { out.append(c) }
                    c = end(c)
                    hops &+= 1
                    if Self.scansTheRest(of: n, at: c, end: e, hops: hops) {
                        var rest: [Int32] = []
                        childrenByParents(of: n, from: c, to: e, into: &rest)
                        try rest.withUnsafeBufferPointer { (rest) throws(QueryError) in try keep(rest, by: test, into: &out) }
                        break
                    }
                }
            }
        }
    }

    /// How many of an array's first elements the index and slice selectors among
    /// `selectors` can select, whatever the array's length (`[3]`: 4; `[100:110]`: 110;
    /// `[5::-1]`: 6), or nil if one counts from the end (`[-1]`, `[:-2]`, `[2:]`) and so
    /// needs them all.
    static func elementsNeeded(_ selectors: [_JPSelector]) -> Int? {
        var needed = 0
        for selector in selectors {
            switch selector {
            case .index(let i):
                guard i >= 0, i < Int(Int32.max) else { return nil }
                needed = max(needed, i + 1)
            case .slice(let start, let stop, let step):
                if (step ?? 1) > 0 {
                    guard let stop, stop >= 0, (start ?? 0) >= 0 else { return nil }
                    needed = max(needed, min(stop, Int(Int32.max)))
                } else {
                    guard let start, start >= 0, start < Int(Int32.max), (stop ?? 0) >= 0 else { return nil }
                    needed = max(needed, start + 1)
                }
            default: continue
            }
        }
        return needed
    }

    /// The children of `n`, or its first `first` of them: of a node with more than
    /// ``keptChildren``, all of them come from the list the index keeps for this version of
    /// the tree (made once), so that `[-1]` or a slice of a large array costs what it
    /// selects, not the array's length, from the second query on; the first few of a large
    /// array are walked to, with no list made (`[100:110]` of a cold tree reads 110).
    mutating func children(_ n: Int32, first: Int? = nil, at offset: Int) throws(QueryError) -> [Int32] {
        var all: [Int32] = []
        let e = end(n)
        var c = n &+ 1
        if let first {
            while c < e, all.count < first {
                all.append(c)
                c = end(c)
            }
            try spend(all.count + 1, at: offset)
            return all
        }
        while c < e, all.count <= Self.keptChildren {
            all.append(c)
            c = end(c)
        }
        try spend(all.count, at: offset)
        guard c < e else { return all }
        let kept = index.children(of: n) {
            var c = n &+ 1
            var made: [Int32] = []
            while c < e {
                made.append(c)
                c = end(c)
            }
            return made
        }
        try spend(kept.count / 64, at: offset)
        return kept
    }

    static let keptChildren = 64

    /// The indices a slice selects of an array of `count` elements (RFC 9535, 2.3.4.2.2).
    static func slice(count n: Int, start: Int?, end: Int?, step: Int?) -> [Int] {
        let step = step ?? 1
        guard step != 0, n > 0 else { return [] }
        func normalized(_ i: Int) -> Int { i >= 0 ? i : n + i }
        var out: [Int] = []
        if step > 0 {
            let lower = min(max(normalized(start ?? 0), 0), n)
            let upper = min(max(normalized(end ?? n), 0), n)
            var i = lower
            while i < upper { out.append(i); i += step }
        } else {
            let upper = min(max(normalized(start ?? n - 1), -1), n - 1)
            let lower = min(max(end.map(normalized) ?? -1, -1), n - 1)
            var i = upper
            while lower < i { out.append(i); i += step }
        }
        return out
    }

    // MARK: Filters (over the flat program)

    @inline(__always) func bytes(_ start: Int32, _ count: Int32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: program.bytes[Int(start) ..< Int(start) + Int(count)])
    }

    /// Whether logical expression `i` of the program holds for `current`.
    mutating func test(_ i: Int32, current: Int32) throws(QueryError) -> Bool {
        let n = program.nodes[Int(i)]
        switch n.op {
        case .or:
            for k in 0 ..< n.b where try test(program.kids[Int(n.a + k)], current: current) { return true }
            return false
        case .and:
            for k in 0 ..< n.b where try !test(program.kids[Int(n.a + k)], current: current) { return false }
            return true
        case .not: return try !test(n.a, current: current)
        case .existsSingular: return try singular(n.a, current: current) != nil
        case .exists: return try count(query: n.a, current: current, limit: 1).count > 0
        case .function: return try logical(n.a, current: current)
        case .compare:
            let x = try value(n.a, current: current), y = try value(n.b, current: current)
            switch n.comparison {
            case .equal: return equal(x, y)
            case .notEqual: return !equal(x, y)
            case .less: return less(x, y)
            case .lessOrEqual: return less(x, y) || equal(x, y)
            case .greater: return less(y, x)
            case .greaterOrEqual: return less(y, x) || equal(x, y)
            }
        }
    }

    /// The node singular query `i` selects, if any: one child lookup per step.
    mutating func singular(_ i: Int32, current: Int32) throws(QueryError) -> Int32? {
        let q = program.singulars[Int(i)]
        var n = q.relative ? current : root
        for k in q.first ..< q.first + q.count {
            let step = program.steps[Int(k)]
            let kind = kind(n)
            if step.nameStart >= 0 {
                guard kind == .object else { return nil }
                let name = bytes(step.nameStart, step.nameCount)
                let e = end(n)
                var c = n &+ 1
                var found: Int32 = -1
                while c < e {
                    let key = key(c)
                    if _sameBytes(key, name) { found = c; break }
                    c = end(c)
                }
                guard found >= 0 else { return nil }
                n = found
            } else {
                guard kind == .array else { return nil }
                let i = step.index
                var found: Int32 = -1
                if i >= 0 {
                    var j = 0
                    let e = end(n)
                    var c = n &+ 1
                    while c < e {
                        if j == i { found = c; break }
                        j += 1
                        c = end(c)
                    }
                } else {
                    let all = try children(n, at: 0)
                    if all.count + i >= 0 { found = all[all.count + i] }
                }
                guard found >= 0 else { return nil }
                n = found
            }
        }
        return n
    }

    /// How many nodes query `i` of the program selects (up to `limit`: past it the count
    /// stops), and the first: a path is followed without a nodelist made.
    mutating func count(query i: Int32, current: Int32, limit: Int) throws(QueryError) -> (count: Int, first: Int32) {
        let p = program.paths[Int(i)]
        guard p >= 0 else {
            let nodes = try select(program.queries[Int(i)], current: current)
            return (nodes.count, nodes.first ?? -1)
        }
        let path = program.singulars[Int(p)]
        var (n, first): (Int, Int32) = (0, -1)
        try follow(path, step: path.first, from: path.relative ? current : root, limit: limit, count: &n, first: &first)
        return (n, first)
    }

    /// The nodes of `path` from its step `k` on, from node `n`, counted.
    mutating func follow(_ path: _JPProgram.Singular, step k: Int32, from n: Int32, limit: Int,
                         count: inout Int, first: inout Int32) throws(QueryError) {
        if k == path.first + path.count {
            if count == 0 { first = n }
            count += 1
            return
        }
        let step = program.steps[Int(k)]
        let kind = kind(n)
        guard kind == .object || kind == .array else { return }
        let e = end(n)
        if step.nameStart == -1 {
            guard kind == .array else { return }
            var found: Int32 = -1
            if step.index >= 0 {
                var j = 0
                var c = n &+ 1
                while c < e {
                    if j == step.index { found = c; break }
                    j += 1
                    c = end(c)
                }
            } else {
                let all = try children(n, at: 0)
                if all.count + step.index >= 0 { found = all[all.count + step.index] }
            }
            if found >= 0 { try follow(path, step: k + 1, from: found, limit: limit, count: &count, first: &first) }
            return
        }
        if step.nameStart >= 0, kind != .object { return }
        try spend(Int(e - n), at: 0)
        let name = step.nameStart >= 0 ? bytes(step.nameStart, step.nameCount) : UnsafeBufferPointer(start: nil, count: 0)
        var c = n &+ 1
        while c < e, count < limit {
            if step.nameStart == -2 {
                try follow(path, step: k + 1, from: c, limit: limit, count: &count, first: &first)
            } else {
                let key = key(c)
                if _sameBytes(key, name) {
                    try follow(path, step: k + 1, from: c, limit: limit, count: &count, first: &first)
                }
            }
            c = end(c)
        }
    }

    /// The value of comparable `i` for `current`.
    mutating func value(_ i: Int32, current: Int32) throws(QueryError) -> _JPValue {
        let c = program.comparables[Int(i)]
        switch c.kind {
        case .number: return .number(c.number)
        case .string: return .text(bytes(c.a, c.b))
        case .bool: return .bool(c.a != 0)
        case .null: return .null
        case .singular: return try singular(c.a, current: current).map { value(ofNode: $0) } ?? .nothing
        case .function: return try value(function: c.a, current: current)
        }
    }

    mutating func value(ofNode r: Int32) -> _JPValue {
        switch kind(r) {
        case .object, .array: return .node(r)
        case .string, .other: return .text(text(r))
        case .number: return .number(Self.number(text(r)))
        case .bool: return .bool(text(r).first == UInt8(ascii: "t"))
        case .null: return .null
        }
    }

    /// A number as written in the document.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
        // Integers of up to 15 digits exactly, without a string.
        var i = 0, negative = false
        if bytes.first == UInt8(ascii: "-") { negative = true; i = 1 }
        if bytes.count - i > 0, bytes.count - i <= 15 {
            var v = 0
            var plain = true
            for b in bytes[i...] {
                guard b >= 48, b <= 57 else { plain = false; break }
                v = v * 10 + Int(b - 48)
            }
            if plain { return negative ? -Double(v) : Double(v) }
        }
        return Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }

    /// `==` of section 2.3.5.2.2: Nothing equals Nothing; numbers by value; strings by code
    /// points; arrays and objects deeply.
    mutating func equal(_ a: _JPValue, _ b: _JPValue) -> Bool {
        switch (a, b) {
        case (.nothing, .nothing), (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.text(let x), .text(let y)): return _sameBytes(x, y)
        case (.node(let x), .node(let y)): return deepEqual(x, y)
        default: return false
        }
    }

    /// `<`: numbers by value, strings by code points (UTF-8's byte order is theirs).
    func less(_ a: _JPValue, _ b: _JPValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x < y
        case (.text(let x), .text(let y)): return x.lexicographicallyPrecedes(y)
        default: return false
        }
    }

    /// Two arrays with equal elements in order, or two objects with the same member names
    /// and equal values.
    mutating func deepEqual(_ x: Int32, _ y: Int32) -> Bool {
        let (kx, ky) = (kind(x), kind(y))
        guard kx == ky else { return false }
        var xs: [Int32] = [], ys: [Int32] = []
        var c = x &+ 1
        while c < end(x) { xs.append(c); c = end(c) }
        c = y &+ 1
        while c < end(y) { ys.append(c); c = end(c) }
        guard xs.count == ys.count else { return false }
        if kx == .array {
            for (a, b) in zip(xs, ys) where !equal(value(ofNode: a), value(ofNode: b)) { return false }
            return true
        }
        for a in xs {
            let name = key(a)
            guard let b = ys.first(where: { _sameBytes(key($0), name) }), equal(value(ofNode: a), value(ofNode: b)) else { return false }
        }
        return true
    }

    // MARK: Functions

    mutating func value(function i: Int32, current: Int32) throws(QueryError) -> _JPValue {
        let f = program.functions[Int(i)]
        switch f.name {
        case .length:
            switch try argument(f.first, current: current) {
            case .text(let t): return .number(Double(Self.scalarCount(t)))
            case .node(let r):
                var n = 0
                var c = r &+ 1
                while c < end(r) { n += 1; c = end(c) }
                return .number(Double(n))
            default: return .nothing
            }
        case .count:
            let a = program.arguments[Int(f.first)]
            return .number(Double(try count(query: a.a, current: current, limit: .max).count))
        case .value:
            let a = program.arguments[Int(f.first)]
            let (n, first) = try count(query: a.a, current: current, limit: 2)
            return n == 1 ? value(ofNode: first) : .nothing
        case .match, .search:
            return .bool(try logical(i, current: current))
        }
    }

    static func scalarCount(_ t: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        for b in t where b & 0xC0 != 0x80 { n += 1 }
        return n
    }

    /// Argument `i`'s value: a comparable's; a nodelist's single node's value (Nothing
    /// otherwise); a logical expression's truth.
    mutating func argument(_ i: Int32, current: Int32) throws(QueryError) -> _JPValue {
        let a = program.arguments[Int(i)]
        switch a.kind {
        case .comparable: return try value(a.a, current: current)
        case .nodes:
            let (n, first) = try count(query: a.a, current: current, limit: 2)
            return n == 1 ? value(ofNode: first) : .nothing
        case .logical: return .bool(try test(a.a, current: current))
        }
    }

    /// `match()` and `search()` (function `i`): false unless both arguments are strings and
    /// the pattern is an I-Regexp.
    mutating func logical(_ i: Int32, current: Int32) throws(QueryError) -> Bool {
        let f = program.functions[Int(i)]
        guard f.name == .match || f.name == .search else { return false }
        guard case .text(let subject) = try argument(f.first, current: current) else { return false }
        let matcher: _Matcher
        if f.patternIsLiteral {
            guard f.pattern >= 0 else { return false }
            if literalPatterns.isEmpty { literalPatterns = Array(repeating: nil, count: program.patterns.count) }
            if let known = literalPatterns[Int(f.pattern)] {
                matcher = known
            } else {
                matcher = _Matcher(program.patterns[Int(f.pattern)])
                literalPatterns[Int(f.pattern)] = matcher
            }
        } else {
            guard case .text(let p) = try argument(f.first + 1, current: current) else { return false }
            let key = _PatternKey(text: Array(p), whole: f.name == .match)
            let known: _Matcher?
            if let k = patterns[key] {
                known = k
            } else {
                known = _IRegexp(String(decoding: p, as: UTF8.self), whole: key.whole).map(_Matcher.init)
                patterns[key] = .some(known)
            }
            guard let known else { return false }
            matcher = known
        }
        guard let regex = matcher.regex else { return false }
        try spend(subject.count + 1, at: f.offset)
        // What every match holds, looked for first: most strings fail there, without `Regex`;
        // then the byte automaton, which answers for every subject of ASCII.
        if !matcher.pattern.mayMatch(subject) { return false }
        if let answer = matcher.pattern.automaton?.matches(subject, whole: f.name == .match) { return answer }
        let string = String(decoding: subject, as: UTF8.self)
        return f.name == .match ? string.wholeMatch(of: regex) != nil : string.contains(regex)
    }

    /// An I-Regexp's translation as Swift's `Regex`, matching Unicode scalars (nil if `Regex`
    /// rejects it: a range quantifier too large, say).
    static func compile(_ pattern: _IRegexp) -> Regex<Substring>? {
        (try? Regex(pattern.translated, as: Substring.self))?.matchingSemantics(.unicodeScalar)
    }

    // MARK: Normalized paths

    /// The normalized path (RFC 9535, section 2.7) of each rank, from ``root``'s tree root:
    /// `$`, then `['name']` per member and `[i]` per element.
    mutating func normalizedPaths(_ ranks: [Int32]) -> [String] {
        // The elements of each array met, kept: a path's index is a binary search.
        var elements: [Int32: [Int32]] = [:]
        return ranks.map { r in
            var parts: [String] = []
            var x = r
            while true {
                let p = parent(x)
                if p < 0 { break }
                if kind(p) == .array {
                    if elements[p] == nil {
                        var all: [Int32] = []
                        var c = p &+ 1
                        while c < end(p) { all.append(c); c = end(c) }
                        elements[p] = all
                    }
                    let all = elements[p].unsafelyUnwrapped
                    var lo = 0, hi = all.count
                    while lo < hi { let m = (lo + hi) / 2; if all[m] < x { lo = m + 1 } else { hi = m } }
                    parts.append("[\(lo)]")
                } else {
                    parts.append("['" + Self.escaped(key(x)) + "']")
                }
                x = p
            }
            return "$" + parts.reversed().joined()
        }
    }

    /// A member name as a normalized path writes it (section 2.7).
    static func escaped(_ name: UnsafeBufferPointer<UInt8>) -> String {
        var out = ""
        for c in String(decoding: name, as: UTF8.self).unicodeScalars {
            switch c {
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            default:
                if c.value < 0x20 {
                    let hex = String(c.value, radix: 16)
                    out += "\\u00" + (hex.count == 1 ? "0" : "") + hex
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }
}
