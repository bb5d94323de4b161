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
    /// A string of the query (its UTF-8).
    case string([UInt8])
    /// A string of the document, read in place.
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
    private let ends: [Int32]
    private let typesByRank: [Int32]?
    private let parentsByRank: [Int32]?
    private let slotsByRank: [Int32]?
    /// Per type's raw value: its ``_JSONKind``'s raw value, 255 if not known yet.
    private var kinds: [UInt8]
    /// The node `$` stands for.
    let root: Int32
    /// Patterns of `match` and `search` compiled so far, by their translation (nil: not an
    /// I-Regexp, or one Swift's `Regex` rejects).
    private var patterns: [_IRegexp: Regex<Substring>?] = [:]

    init(index: _DocumentIndex, view: _WriterView, budget: Int, root: Int32) {
        self.index = index
        self.view = view
        count = Int32(index.count)
        self.budget = budget
        (ends, typesByRank, parentsByRank, slotsByRank) = (index.end, index.typeByRank, index.parentByRank, index.order)
        kinds = [UInt8](repeating: 255, count: TypeRegistry.shared.count)
        self.root = root
    }

    // MARK: The tree by rank

    @inline(__always) func end(_ r: Int32) -> Int32 { ends[Int(r)] }
    @inline(__always) func slot(_ r: Int32) -> Int32 { slotsByRank?[Int(r)] ?? r }
    @inline(__always) func parent(_ r: Int32) -> Int32 { parentsByRank?[Int(r)] ?? view.parent[Int(r)] }
    @inline(__always) func type(_ r: Int32) -> Int32 { typesByRank?[Int(r)] ?? view.typeID[Int(r)] }

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

    /// The children of `r`, in order.
    @inline(__always) func forEachChild(_ r: Int32, _ body: (Int32) throws(QueryError) -> Void) throws(QueryError) {
        let e = end(r)
        var c = r &+ 1
        while c < e {
            try body(c)
            c = end(c)
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
        var out: [Int32] = []
        if !segment.descendant {
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
        let e = end(n)
        try spend(Int(e - n), at: offset)
        let first = out.count
        var sorted = true
        var lastParent: Int32 = -1
        try name.withUnsafeBufferPointer { (name) throws(QueryError) in
            var c = n &+ 1
            while c < e {
                let k = key(c)
                if k.count == name.count, k.elementsEqual(name) {
                    let p = parent(c)
                    if kind(p) == .object {
                        if p < lastParent { sorted = false }
                        lastParent = p
                        out.append(c)
                    }
                }
                c &+= 1
            }
        }
        if !sorted {
            // Stable by parent: a member nested in an earlier sibling's subtree comes after
            // its own parent's turn.
            var part = Array(out[first...])
            let parents = part.map { parent($0) }
            var order = Array(part.indices)
            order.sort { parents[$0] != parents[$1] ? parents[$0] < parents[$1] : $0 < $1 }
            part = order.map { part[$0] }
            out.replaceSubrange(first..., with: part)
        }
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
                        if key.count == name.count, key.elementsEqual(name) { out.append(c) }
                    }
                }
                try spend(Int(end(n) - n), at: offset)
            case .wildcard:
                try spend(Int(end(n) - n), at: offset)
                try forEachChild(n) { (c) throws(QueryError) in out.append(c) }
            case .index(let i):
                guard k == .array else { continue }
                if elements == nil { elements = try children(n, at: offset) }
                let all = elements.unsafelyUnwrapped
                let j = i >= 0 ? i : all.count + i
                if j >= 0, j < all.count { out.append(all[j]) }
            case .slice(let start, let stop, let step):
                guard k == .array else { continue }
                if elements == nil { elements = try children(n, at: offset) }
                let all = elements.unsafelyUnwrapped
                for j in Self.slice(count: all.count, start: start, end: stop, step: step) { out.append(all[j]) }
            case .filter(let test):
                // The children in turn, not gathered: most nodes a descendant segment visits
                // have few.
                let e = end(n)
                var c = n &+ 1
                try spend(Int(e - n), at: offset)
                while c < e {
                    if try self.test(test, current: c) { out.append(c) }
                    c = end(c)
                }
            }
        }
    }

    /// The children of `n`: of a node with more than ``keptChildren``, the list the index
    /// keeps for this version of the tree (made once), so that `[-1]` or a slice of a large
    /// array costs what it selects, not the array's length, from the second query on.
    mutating func children(_ n: Int32, at offset: Int) throws(QueryError) -> [Int32] {
        var all: [Int32] = []
        let e = end(n)
        var c = n &+ 1
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

    // MARK: Filters

    mutating func test(_ e: _JPLogical, current: Int32) throws(QueryError) -> Bool {
        switch e {
        case .or(let parts):
            for p in parts where try test(p, current: current) { return true }
            return false
        case .and(let parts):
            for p in parts where try !test(p, current: current) { return false }
            return true
        case .not(let inner): return try !test(inner, current: current)
        case .exists(let q):
            if q.isSingular { return try singular(q, current: current) != nil }
            return try !select(q, current: current).isEmpty
        case .function(let f): return try logical(f, current: current)
        case .compare(let a, let op, let b):
            let x = try value(a, current: current), y = try value(b, current: current)
            switch op {
            case .equal: return equal(x, y)
            case .notEqual: return !equal(x, y)
            case .less: return less(x, y)
            case .lessOrEqual: return less(x, y) || equal(x, y)
            case .greater: return less(y, x)
            case .greaterOrEqual: return less(y, x) || equal(x, y)
            }
        }
    }

    /// The node a singular query selects, if any: one child lookup per segment.
    mutating func singular(_ q: _JPQuery, current: Int32) throws(QueryError) -> Int32? {
        var n = q.relative ? current : root
        for s in q.segments {
            let k = kind(n)
            var next: Int32?
            switch s.selectors[0] {
            case .name(let name):
                guard k == .object else { return nil }
                name.withUnsafeBufferPointer { name in
                    let e = end(n)
                    var c = n &+ 1
                    while c < e {
                        let key = key(c)
                        if key.count == name.count, key.elementsEqual(name) { next = c; break }
                        c = end(c)
                    }
                }
            case .index(let i):
                guard k == .array else { return nil }
                if i >= 0 {
                    var j = 0
                    let e = end(n)
                    var c = n &+ 1
                    while c < e {
                        if j == i { next = c; break }
                        j += 1
                        c = end(c)
                    }
                } else {
                    let all = try children(n, at: q.offset)
                    if all.count + i >= 0 { next = all[all.count + i] }
                }
            default: return nil
            }
            guard let found = next else { return nil }
            n = found
        }
        return n
    }

    mutating func value(_ c: _JPComparable, current: Int32) throws(QueryError) -> _JPValue {
        switch c {
        case .literal(let l): return Self.value(l)
        case .query(let q): return try singular(q, current: current).map { value(ofNode: $0) } ?? .nothing
        case .function(let f): return try value(f, current: current)
        }
    }

    static func value(_ l: _JPLiteral) -> _JPValue {
        switch l {
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .null: return .null
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

    static func withBytes<R>(_ v: _JPValue, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        switch v {
        case .string(let s): return s.withUnsafeBufferPointer(body)
        case .text(let t): return body(t)
        default: return nil
        }
    }

    /// `==` of section 2.3.5.2.2: Nothing equals Nothing; numbers by value; strings by code
    /// points; arrays and objects deeply.
    mutating func equal(_ a: _JPValue, _ b: _JPValue) -> Bool {
        switch (a, b) {
        case (.nothing, .nothing), (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string, .string), (.string, .text), (.text, .string), (.text, .text):
            return Self.withBytes(a) { x in Self.withBytes(b) { y in x.count == y.count && x.elementsEqual(y) } ?? false } ?? false
        case (.node(let x), .node(let y)): return deepEqual(x, y)
        default: return false
        }
    }

    /// `<`: numbers by value, strings by code points (UTF-8's byte order is theirs).
    func less(_ a: _JPValue, _ b: _JPValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x < y
        case (.string, .string), (.string, .text), (.text, .string), (.text, .text):
            return Self.withBytes(a) { x in Self.withBytes(b) { y in x.lexicographicallyPrecedes(y) } ?? false } ?? false
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
            guard let b = ys.first(where: { key($0).elementsEqual(name) }), equal(value(ofNode: a), value(ofNode: b)) else { return false }
        }
        return true
    }

    // MARK: Functions

    mutating func value(_ f: _JPFunction, current: Int32) throws(QueryError) -> _JPValue {
        switch f.name {
        case .length:
            let v = try argumentValue(f.arguments[0], current: current)
            switch v {
            case .string(let s): return .number(Double(String(decoding: s, as: UTF8.self).unicodeScalars.count))
            case .text(let t): return .number(Double(Self.scalarCount(t)))
            case .node(let r):
                var n = 0
                var c = r &+ 1
                while c < end(r) { n += 1; c = end(c) }
                return .number(Double(n))
            default: return .nothing
            }
        case .count:
            guard case .nodes(let q) = f.arguments[0] else { return .nothing }
            return .number(Double(try select(q, current: current).count))
        case .value:
            guard case .nodes(let q) = f.arguments[0] else { return .nothing }
            let nodes = try select(q, current: current)
            return nodes.count == 1 ? value(ofNode: nodes[0]) : .nothing
        case .match, .search:
            return .bool(try logical(f, current: current))
        }
    }

    static func scalarCount(_ t: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        for b in t where b & 0xC0 != 0x80 { n += 1 }
        return n
    }

    mutating func argumentValue(_ a: _JPArgument, current: Int32) throws(QueryError) -> _JPValue {
        switch a {
        case .literal(let l): return Self.value(l)
        case .singular(let q): return try singular(q, current: current).map { value(ofNode: $0) } ?? .nothing
        case .function(let f): return try value(f, current: current)
        case .nodes(let q):
            let nodes = try select(q, current: current)
            return nodes.count == 1 ? value(ofNode: nodes[0]) : .nothing
        case .logical(let l): return .bool(try test(l, current: current))
        }
    }

    /// `match()` and `search()`: false unless both arguments are strings and the pattern is
    /// an I-Regexp.
    mutating func logical(_ f: _JPFunction, current: Int32) throws(QueryError) -> Bool {
        guard f.name == .match || f.name == .search else { return false }
        let subject = try argumentValue(f.arguments[0], current: current)
        guard let string = Self.withBytes(subject, { String(decoding: $0, as: UTF8.self) }) else { return false }
        let pattern: _IRegexp
        if let compiled = f.pattern {
            pattern = compiled
        } else {
            guard case .literal(.string) = f.arguments[1] else {
                let p = try argumentValue(f.arguments[1], current: current)
                guard let text = Self.withBytes(p, { String(decoding: $0, as: UTF8.self) }),
                      let made = _IRegexp(text, whole: f.name == .match) else { return false }
                return try run(made, on: string, at: f.offset)
            }
            return false  // a literal that is not an I-Regexp
        }
        return try run(pattern, on: string, at: f.offset)
    }

    mutating func run(_ pattern: _IRegexp, on string: String, at offset: Int) throws(QueryError) -> Bool {
        try spend(string.utf8.count + 1, at: offset)
        let regex: Regex<Substring>?
        if let known = patterns[pattern] {
            regex = known
        } else {
            regex = (try? Regex(pattern.translated, as: Substring.self))?.matchingSemantics(.unicodeScalar)
            patterns[pattern] = regex
        }
        guard let regex else { return false }
        return pattern.whole ? string.wholeMatch(of: regex) != nil : string.contains(regex)
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
