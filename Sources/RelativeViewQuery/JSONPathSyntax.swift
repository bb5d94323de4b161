/// JSONPath's syntax (RFC 9535): a recursive-descent parser over the query's Unicode
/// scalars to ``_JPQuery``, which rejects what the RFC's grammar rejects (whitespace where
/// it has none, leading zeros, integers outside I-JSON's range, lone surrogates) and what
/// its type system does (section 2.4.3: a function's arguments and result where they are
/// used), each error at its scalar offset.

/// A JSONPath query: from the root (`$`) or the current node (`@`), then its segments.
struct _JPQuery: Sendable {
    var relative: Bool
    var segments: [_JPSegment]
    var offset: Int

    /// Whether the query is a singular query (section 2.3.5.1): child segments of one name
    /// or index selector each; it selects at most one node.
    var isSingular: Bool {
        segments.allSatisfy { s in
            guard !s.descendant, s.selectors.count == 1 else { return false }
            switch s.selectors[0] {
            case .name, .index: return true
            default: return false
            }
        }
    }
}

/// A child segment (`[...]`, `.name`, `.*`) or a descendant segment (`..[...]`, `..name`, `..*`).
struct _JPSegment: Sendable {
    var descendant: Bool
    var selectors: [_JPSelector]
}

/// One of the five selectors (section 2.3).
enum _JPSelector: Sendable {
    /// A member name, as its UTF-8.
    case name([UInt8])
    case wildcard
    case index(Int)
    case slice(start: Int?, end: Int?, step: Int?)
    case filter(_JPLogical)
    /// A filter laid out flat: its root in the query's ``_JPProgram``.
    case compiledFilter(Int32)
}

/// A value written in a filter: a number, a string, `true`, `false` or `null`.
enum _JPLiteral: Sendable {
    case number(Double)
    case string([UInt8])
    case bool(Bool)
    case null
}

/// The five function extensions of section 2.4.
enum _JPFunctionName: String, Sendable {
    case length, count, match, search, value

    /// The result's type.
    var result: _JPType { self == .match || self == .search ? .logical : .value }
    /// The parameters' types.
    var parameters: [_JPType] {
        switch self {
        case .length: return [.value]
        case .count, .value: return [.nodes]
        case .match, .search: return [.value, .value]
        }
    }
}

/// The declared types of section 2.4.1.
enum _JPType: Sendable { case value, logical, nodes }

/// A function call with arguments of its parameters' types.
struct _JPFunction: Sendable {
    var name: _JPFunctionName
    var arguments: [_JPArgument]
    var offset: Int
    /// A `match` or `search` pattern that is a literal, compiled once (nil if not a literal,
    /// or not a valid I-Regexp: then the function is false for every node).
    var pattern: _IRegexp?
}

/// A function argument, by its parameter's type.
indirect enum _JPArgument: Sendable {
    /// ValueType: a literal, the value of a singular query, or a function's value.
    case literal(_JPLiteral)
    case singular(_JPQuery)
    case function(_JPFunction)
    /// NodesType: the nodes of any query.
    case nodes(_JPQuery)
    /// LogicalType.
    case logical(_JPLogical)
}

/// A comparable (section 2.3.5.1): a literal, a singular query or a ValueType function.
indirect enum _JPComparable: Sendable {
    case literal(_JPLiteral)
    case query(_JPQuery)
    case function(_JPFunction)
}

enum _JPComparison: String, Sendable { case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=" }

/// A logical expression: what a filter selector tests.
indirect enum _JPLogical: Sendable {
    case or([_JPLogical])
    case and([_JPLogical])
    case not(_JPLogical)
    /// A query's nodelist is not empty.
    case exists(_JPQuery)
    /// A LogicalType function.
    case function(_JPFunction)
    case compare(_JPComparable, _JPComparison, _JPComparable)
}

/// The parser. Each `parse...` starts at `at` and leaves it after what it read.
struct _JPParser {
    let s: [Unicode.Scalar]
    var at = 0
    /// Filters nest; a query nests filters without bound, so the depth is bounded instead.
    var depth = 0
    static let maximumDepth = 200
    /// I-JSON's exact integers: an index or a slice bound past them is an error.
    static let largest = 9_007_199_254_740_991

    init(_ text: String) { s = Array(text.unicodeScalars) }

    func error(_ message: String, at offset: Int? = nil) -> QueryError {
        QueryError(language: "JSONPath", offset: offset ?? at, message: message)
    }

    var current: Unicode.Scalar? { at < s.count ? s[at] : nil }
    func peek(_ k: Int = 0) -> Unicode.Scalar? { at + k < s.count ? s[at + k] : nil }

    static func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
    static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { $0 >= "0" && $0 <= "9" } ?? false }
    static func isNameFirst(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return false }
        return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" || c.value >= 0x80
    }

    mutating func skipBlanks() { while let c = current, Self.isBlank(c) { at += 1 } }

    mutating func expect(_ c: Unicode.Scalar, _ what: String) throws(QueryError) {
        guard current == c else { throw error(current == nil ? "the query ends where \(what) was expected" : "expected \(what)") }
        at += 1
    }

    /// The whole query: `$` and its segments, nothing after (not even a blank).
    mutating func parseQuery() throws(QueryError) -> _JPQuery {
        guard current == "$" else { throw error(current == nil ? "the query is empty: it must start with '$'" : "a query starts with '$'") }
        at += 1
        let query = _JPQuery(relative: false, segments: try parseSegments(), offset: 0)
        if at < s.count { throw error("unexpected '\(s[at])' after the query") }
        return query
    }

    /// `*(S segment)`: a blank before a segment belongs to it; one before anything else is
    /// given back.
    mutating func parseSegments() throws(QueryError) -> [_JPSegment] {
        var segments: [_JPSegment] = []
        while true {
            let before = at
            skipBlanks()
            guard let c = current, c == "." || c == "[" else { at = before; return segments }
            segments.append(try parseSegment())
        }
    }

    mutating func parseSegment() throws(QueryError) -> _JPSegment {
        if current == "[" { return _JPSegment(descendant: false, selectors: try parseBracketed()) }
        at += 1  // "."
        if current == "." {
            at += 1
            if current == "[" { return _JPSegment(descendant: true, selectors: try parseBracketed()) }
            if current == "*" { at += 1; return _JPSegment(descendant: true, selectors: [.wildcard]) }
            guard Self.isNameFirst(current) else { throw error("expected a member name, '*' or '[' after '..'") }
            return _JPSegment(descendant: true, selectors: [.name(parseShorthand())])
        }
        if current == "*" { at += 1; return _JPSegment(descendant: false, selectors: [.wildcard]) }
        guard Self.isNameFirst(current) else { throw error("expected a member name or '*' after '.'") }
        return _JPSegment(descendant: false, selectors: [.name(parseShorthand())])
    }

    /// A member name written without quotes (`.name`).
    mutating func parseShorthand() -> [UInt8] {
        var name = String.UnicodeScalarView()
        while Self.isNameFirst(current) || Self.isDigit(current) { name.append(s[at]); at += 1 }
        return Array(String(name).utf8)
    }

    /// `[ S selector *(S "," S selector) S ]`.
    mutating func parseBracketed() throws(QueryError) -> [_JPSelector] {
        at += 1  // "["
        var selectors: [_JPSelector] = []
        while true {
            skipBlanks()
            selectors.append(try parseSelector())
            skipBlanks()
            if current == "," { at += 1; continue }
            try expect("]", "',' or ']'")
            return selectors
        }
    }

    mutating func parseSelector() throws(QueryError) -> _JPSelector {
        guard let c = current else { throw error("the query ends where a selector was expected") }
        switch c {
        case "'", "\"": return .name(try parseString())
        case "*": at += 1; return .wildcard
        case "?":
            at += 1
            skipBlanks()
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw error("filters nest more than \(Self.maximumDepth) deep") }
            return .filter(try parseLogical())
        case ":", "-", "0" ... "9":
            let first = c == ":" ? nil : try parseInteger()
            skipBlanksIfSlice()
            guard current == ":" else {
                guard let first else { throw error("expected a selector") }
                return .index(first)
            }
            at += 1
            skipBlanks()
            let end = current == "-" || Self.isDigit(current) ? try parseInteger() : nil
            skipBlanks()
            var step: Int?
            if current == ":" {
                at += 1
                skipBlanks()
                step = current == "-" || Self.isDigit(current) ? try parseInteger() : nil
            }
            return .slice(start: first, end: end, step: step)
        default:
            throw error("expected a selector: a quoted name, '*', an index, a slice or a filter")
        }
    }

    /// Blanks between a slice's start and its ':' (`[1 :2]`); before anything else, they
    /// are the bracket's (and `parseBracketed` skips them).
    mutating func skipBlanksIfSlice() {
        var k = at
        while k < s.count, Self.isBlank(s[k]) { k += 1 }
        if k < s.count, s[k] == ":" { at = k }
    }

    /// An integer as an index or slice bound: `0`, or an optional `-` and digits without a
    /// leading zero, within ±(2^53 - 1); not `-0`.
    mutating func parseInteger() throws(QueryError) -> Int {
        let start = at
        var negative = false
        if current == "-" { negative = true; at += 1 }
        guard let d = current, Self.isDigit(d) else { throw error("expected a digit") }
        if d == "0" {
            at += 1
            if Self.isDigit(current) { throw error("an integer has no leading zero", at: start) }
            if negative { throw error("'-0' is not an index", at: start) }
            return 0
        }
        var value = 0
        while let c = current, Self.isDigit(c) {
            value = value * 10 + Int(c.value - 48)
            if value > Self.largest { throw error("the integer is outside ±(2^53 - 1)", at: start) }
            at += 1
        }
        return negative ? -value : value
    }

    /// A string literal, quoted with `'` or `"`, its escapes decoded, as UTF-8.
    mutating func parseString() throws(QueryError) -> [UInt8] {
        let quote = s[at]
        let start = at
        at += 1
        var out = String.UnicodeScalarView()
        while true {
            guard let c = current else { throw error("the string is not closed", at: start) }
            if c == quote { at += 1; break }
            if c.value < 0x20 { throw error("a control character must be escaped in a string") }
            if c != "\\" { out.append(c); at += 1; continue }
            at += 1
            guard let e = current else { throw error("the string is not closed", at: start) }
            at += 1
            switch e {
            case "b": out.append("\u{8}")
            case "f": out.append("\u{C}")
            case "n": out.append("\n")
            case "r": out.append("\r")
            case "t": out.append("\t")
            case "/": out.append("/")
            case "\\": out.append("\\")
            case "'" where quote == "'", "\"" where quote == "\"": out.append(e)
            case "u":
                let high = try parseHex4()
                if (0xDC00 ... 0xDFFF).contains(high) { throw error("a low surrogate without a high one", at: at - 6) }
                if (0xD800 ... 0xDBFF).contains(high) {
                    guard current == "\\", peek(1) == "u" else { throw error("a high surrogate must be followed by a low one", at: at - 6) }
                    at += 2
                    let low = try parseHex4()
                    guard (0xDC00 ... 0xDFFF).contains(low) else { throw error("a high surrogate must be followed by a low one", at: at - 6) }
                    out.append(Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00))!)
                } else {
                    out.append(Unicode.Scalar(high)!)
                }
            default:
                throw error("'\\\(e)' is not an escape in a \(quote == "'" ? "single" : "double")-quoted string", at: at - 2)
            }
        }
        return Array(String(out).utf8)
    }

    mutating func parseHex4() throws(QueryError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0 ..< 4 {
            guard let c = current, let d = Self.hexValue(c) else {
                throw error("'\\u' needs four hexadecimal digits")
            }
            v = v << 4 | d
            at += 1
        }
        return v
    }

    static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0" ... "9": return c.value - 48
        case "a" ... "f": return c.value - 87
        case "A" ... "F": return c.value - 55
        default: return nil
        }
    }

    // MARK: Filters

    /// What the expression grammar reads before types are checked.
    indirect enum Expr {
        case literal(_JPLiteral, offset: Int)
        case query(_JPQuery)
        case function(_JPFunction)
        case not(Expr, offset: Int)
        case paren(Expr, offset: Int)
        case and([Expr])
        case or([Expr])
        case compare(Expr, _JPComparison, Expr, offset: Int)
    }

    mutating func parseLogical() throws(QueryError) -> _JPLogical {
        let start = at
        return try logical(try parseOr(), at: start)
    }

    mutating func parseOr() throws(QueryError) -> Expr {
        let parts = try parseJoined("|") { (p) throws(QueryError) in try p.parseAnd() }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    mutating func parseAnd() throws(QueryError) -> Expr {
        let parts = try parseJoined("&") { (p) throws(QueryError) in try p.parseComparison() }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Operands read by `operand`, joined by the doubled `op` (`||`, `&&`), blanks around it.
    mutating func parseJoined(_ op: Unicode.Scalar, _ operand: (inout _JPParser) throws(QueryError) -> Expr) throws(QueryError) -> [Expr] {
        var parts = [try operand(&self)]
        while true {
            let before = at
            skipBlanks()
            guard current == op, peek(1) == op else { at = before; break }
            at += 2
            skipBlanks()
            parts.append(try operand(&self))
        }
        return parts
    }

    mutating func parseComparison() throws(QueryError) -> Expr {
        let left = try parseUnary()
        let before = at
        skipBlanks()
        let op: _JPComparison?
        switch (current, peek(1)) {
        case ("=", "="): op = .equal
        case ("!", "="): op = .notEqual
        case ("<", "="): op = .lessOrEqual
        case (">", "="): op = .greaterOrEqual
        case ("<", _): op = .less
        case (">", _): op = .greater
        default: op = nil
        }
        guard let op else { at = before; return left }
        let offset = at
        at += op.rawValue.unicodeScalars.count
        skipBlanks()
        let right = try parseUnary()
        return .compare(left, op, right, offset: offset)
    }

    mutating func parseUnary() throws(QueryError) -> Expr {
        guard let c = current else { throw error("the query ends where an expression was expected") }
        let start = at
        switch c {
        case "!":
            at += 1
            skipBlanks()
            // One '!' before a test or a parenthesized expression (RFC 9535's `test-expr` and
            // `paren-expr`): `!!@.a` is not a query.
            guard current != "!" else { throw error("'!' twice: one '!' negates a test or a parenthesized expression") }
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw error("'!' nests more than \(Self.maximumDepth) deep") }
            return .not(try parseUnary(), offset: start)
        case "(":
            at += 1
            skipBlanks()
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw error("parentheses nest more than \(Self.maximumDepth) deep") }
            let inner = try parseOr()
            skipBlanks()
            try expect(")", "')'")
            return .paren(inner, offset: start)
        case "@", "$":
            at += 1
            return .query(_JPQuery(relative: c == "@", segments: try parseSegments(), offset: start))
        case "'", "\"":
            return .literal(.string(try parseString()), offset: start)
        case "-", "0" ... "9":
            return .literal(.number(try parseNumber()), offset: start)
        case "a" ... "z":
            var name = ""
            while let d = current, (d >= "a" && d <= "z") || d == "_" || Self.isDigit(d) { name.unicodeScalars.append(d); at += 1 }
            if current == "(" {
                guard let f = _JPFunctionName(rawValue: name) else { throw error("unknown function '\(name)'", at: start) }
                return .function(try parseCall(f, at: start))
            }
            switch name {
            case "true": return .literal(.bool(true), offset: start)
            case "false": return .literal(.bool(false), offset: start)
            case "null": return .literal(.null, offset: start)
            default: throw error("'\(name)' is neither a literal nor a function call", at: start)
            }
        default:
            throw error("expected an expression: a query, a literal, a function call, '!' or '('")
        }
    }

    /// A number literal: `-0` and fractions and exponents allowed, no leading zero.
    mutating func parseNumber() throws(QueryError) -> Double {
        let start = at
        if current == "-" { at += 1 }
        guard let d = current, Self.isDigit(d) else { throw error("expected a digit") }
        at += 1
        if d == "0" {
            if Self.isDigit(current) { throw error("a number has no leading zero", at: start) }
        } else {
            while Self.isDigit(current) { at += 1 }
        }
        if current == "." {
            at += 1
            guard Self.isDigit(current) else { throw error("expected a digit after the decimal point") }
            while Self.isDigit(current) { at += 1 }
        }
        if current == "e" || current == "E" {
            at += 1
            if current == "+" || current == "-" { at += 1 }
            guard Self.isDigit(current) else { throw error("expected a digit in the exponent") }
            while Self.isDigit(current) { at += 1 }
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: s[start ..< at])
        return Double(text) ?? .nan
    }

    /// `name( S [argument *(S "," S argument)] S )`, each argument checked against its
    /// parameter's type.
    mutating func parseCall(_ name: _JPFunctionName, at start: Int) throws(QueryError) -> _JPFunction {
        at += 1  // "("
        skipBlanks()
        var arguments: [(Expr, Int)] = []
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("calls nest more than \(Self.maximumDepth) deep") }
        if current != ")" {
            while true {
                let offset = at
                arguments.append((try parseOr(), offset))
                skipBlanks()
                if current == "," { at += 1; skipBlanks(); continue }
                break
            }
        }
        try expect(")", "',' or ')'")
        let parameters = name.parameters
        guard arguments.count == parameters.count else {
            throw error("\(name.rawValue)() takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s"), not \(arguments.count)", at: start)
        }
        var typed: [_JPArgument] = []
        for ((e, offset), type) in zip(arguments, parameters) { typed.append(try argument(e, type, at: offset)) }
        var call = _JPFunction(name: name, arguments: typed, offset: start)
        if name == .match || name == .search, case .literal(.string(let p)) = typed[1] {
            call.pattern = _IRegexp(String(decoding: p, as: UTF8.self), whole: name == .match)
        }
        return call
    }

    // MARK: Types (section 2.4.3)

    func argument(_ e: Expr, _ type: _JPType, at offset: Int) throws(QueryError) -> _JPArgument {
        switch type {
        case .value:
            switch e {
            case .literal(let l, _): return .literal(l)
            case .query(let q):
                guard q.isSingular else { throw error("a ValueType argument must be a singular query (names and indices only)", at: offset) }
                return .singular(q)
            case .function(let f):
                guard f.name.result == .value else { throw error("\(f.name.rawValue)() is not of ValueType", at: offset) }
                return .function(f)
            default: throw error("a ValueType argument must be a literal, a singular query or a ValueType function", at: offset)
            }
        case .nodes:
            switch e {
            case .query(let q): return .nodes(q)
            default: throw error("a NodesType argument must be a query", at: offset)
            }
        case .logical:
            return .logical(try logical(e, at: offset))
        }
    }

    func comparable(_ e: Expr, at offset: Int) throws(QueryError) -> _JPComparable {
        switch e {
        case .literal(let l, _): return .literal(l)
        case .query(let q):
            guard q.isSingular else { throw error("a comparison needs a singular query (names and indices only)", at: q.offset) }
            return .query(q)
        case .function(let f):
            guard f.name.result == .value else { throw error("\(f.name.rawValue)() is not of ValueType: it cannot be compared", at: f.offset) }
            return .function(f)
        default: throw error("only a literal, a singular query or a ValueType function can be compared", at: offset)
        }
    }

    func logical(_ e: Expr, at offset: Int) throws(QueryError) -> _JPLogical {
        switch e {
        case .or(let parts):
            var out: [_JPLogical] = []
            for p in parts { out.append(try logical(p, at: offset)) }
            return .or(out)
        case .and(let parts):
            var out: [_JPLogical] = []
            for p in parts { out.append(try logical(p, at: offset)) }
            return .and(out)
        case .not(let inner, let at):
            switch inner {
            case .query, .function, .paren, .not: return .not(try logical(inner, at: at))
            default: throw error("'!' applies to a query, a function call or a parenthesized expression", at: at)
            }
        case .paren(let inner, let at): return try logical(inner, at: at)
        case .query(let q): return .exists(q)
        case .function(let f):
            guard f.name.result != .value else { throw error("\(f.name.rawValue)() is of ValueType: compare it to something", at: f.offset) }
            return .function(f)
        case .literal(_, let at): throw error("a literal alone is not a test: compare it to something", at: at)
        case .compare(let a, let op, let b, let at):
            return .compare(try comparable(a, at: at), op, try comparable(b, at: at))
        }
    }
}
