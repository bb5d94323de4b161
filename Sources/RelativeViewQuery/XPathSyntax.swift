/// XPath 1.0's syntax (W3C XPath 1.0, sections 2 and 3): a tokenizer that applies the
/// specification's disambiguation rules (section 3.7) and a recursive-descent parser to
/// ``_XPathExpr``, each part with its offset in the query for errors.

/// The thirteen axes (section 2.2).
enum _Axis: String, Sendable, CaseIterable {
    case ancestor, ancestorOrSelf = "ancestor-or-self", attribute, child, descendant
    case descendantOrSelf = "descendant-or-self", following, followingSibling = "following-sibling"
    case namespace, parent, preceding, precedingSibling = "preceding-sibling", `self`

    /// Whether the axis runs backwards from its context node (proximity positions count
    /// from the nearest node back).
    var isReverse: Bool { self == .ancestor || self == .ancestorOrSelf || self == .preceding || self == .precedingSibling }
}

/// A node test (section 2.3).
enum _NodeTest: Sendable, Equatable {
    /// `*`: any node of the axis's principal type.
    case anyName
    /// `prefix:*`.
    case anyLocalName(prefix: String)
    /// A QName: `local`, or `prefix:local`.
    case name(prefix: String?, local: String)
    /// `node()`, `text()`, `comment()`, `processing-instruction()` (with its literal, if any).
    case node, text, comment
    case processingInstruction(String?)
}

/// A step of a location path: axis, node test, predicates.
struct _Step: Sendable {
    var axis: _Axis
    var test: _NodeTest
    var predicates: [_XPathExpr]
    var offset: Int
    /// A descendant step that stands for `//` and a child step (`a//b[1]`): its predicates
    /// count positions among the nodes that share a parent, as the child step's do.
    var positionsAmongSiblings = false
}

/// An operator between two expressions.
enum _BinaryOperator: String, Sendable {
    case or, and, equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case plus = "+", minus = "-", times = "*", div, mod
}

/// An XPath 1.0 expression.
indirect enum _XPathExpr: Sendable {
    case number(Double)
    case literal(String)
    case variable(String, offset: Int)
    case function(String, [_XPathExpr], offset: Int)
    case binary(_BinaryOperator, _XPathExpr, _XPathExpr)
    case negate(_XPathExpr)
    case union(_XPathExpr, _XPathExpr, offset: Int)
    /// A location path: from the root (absolute) or the context node, then its steps.
    case path(absolute: Bool, [_Step])
    /// A filter expression (a primary expression and its predicates), then steps from it.
    case filter(_XPathExpr, predicates: [_XPathExpr], steps: [_Step], offset: Int)
}

/// A token of the query, with the offset of its first character.
struct _XPathToken: Equatable {
    enum Kind: Equatable {
        case leftParen, rightParen, leftBracket, rightBracket, dot, dotDot, at, comma, colonColon
        case slash, doubleSlash, pipe, plus, minus, equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        /// `*` as the multiplication operator (a name test `*` is a ``nameTest``).
        case multiply
        /// `and`, `or`, `mod`, `div` as operators.
        case operatorName(String)
        case nameTest(_NodeTest)
        case nodeType(String)
        case functionName(String)
        case axisName(String)
        case literal(String)
        case number(Double)
        case variable(String)
        case end
    }
    var kind: Kind
    var offset: Int
}

/// Splits a query into tokens (section 3.7).
struct _XPathTokenizer {
    private let s: [Unicode.Scalar]
    private var k = 0
    private var output: [_XPathToken] = []

    init(_ query: String) { s = Array(query.unicodeScalars) }

    static func error(_ offset: Int, _ message: String) -> QueryError {
        QueryError(language: "XPath", offset: offset, message: message)
    }

    /// XML's NameStartChar and NameChar, without the colon (an NCName's characters).
    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x41 ... 0x5A, 0x61 ... 0x7A, 0x5F, 0xC0 ... 0xD6, 0xD8 ... 0xF6, 0xF8 ... 0x2FF, 0x370 ... 0x37D,
             0x37F ... 0x1FFF, 0x200C ... 0x200D, 0x2070 ... 0x218F, 0x2C00 ... 0x2FEF, 0x3001 ... 0xD7FF,
             0xF900 ... 0xFDCF, 0xFDF0 ... 0xFFFD, 0x10000 ... 0xEFFFF: return true
        default: return false
        }
    }

    static func isNameChar(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x2D, 0x2E, 0x30 ... 0x39, 0xB7, 0x300 ... 0x36F, 0x203F ... 0x2040: return true
        default: return isNameStart(c)
        }
    }

    private func peek(_ d: Int = 0) -> Unicode.Scalar? { k + d < s.count ? s[k + d] : nil }

    private static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }

    private mutating func skipSpace() { while let c = peek(), Self.isSpace(c) { k += 1 } }

    /// An NCName at `k`, if one starts there.
    private mutating func ncName() -> String? {
        guard let c = peek(), Self.isNameStart(c) else { return nil }
        var out = String.UnicodeScalarView()
        while let c = peek(), Self.isNameChar(c) {
            out.append(c)
            k += 1
        }
        return String(out)
    }

    /// Whether the token before may be followed by an operator (section 3.7's first rule:
    /// a preceding token that is not `@`, `::`, `(`, `[`, `,` or an operator).
    private var operatorExpected: Bool {
        guard let last = output.last?.kind else { return false }
        switch last {
        case .at, .colonColon, .leftParen, .leftBracket, .comma, .slash, .doubleSlash, .pipe, .plus, .minus, .equal,
             .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .multiply, .operatorName:
            return false
        default:
            return true
        }
    }

    mutating func tokenize() throws(QueryError) -> [_XPathToken] {
        while true {
            skipSpace()
            let start = k
            guard let c = peek() else {
                output.append(_XPathToken(kind: .end, offset: k))
                return output
            }
            func add(_ kind: _XPathToken.Kind, _ length: Int) {
                output.append(_XPathToken(kind: kind, offset: start))
                k += length
            }
            switch c {
            case "(": add(.leftParen, 1)
            case ")": add(.rightParen, 1)
            case "[": add(.leftBracket, 1)
            case "]": add(.rightBracket, 1)
            case "@": add(.at, 1)
            case ",": add(.comma, 1)
            case "|": add(.pipe, 1)
            case "+": add(.plus, 1)
            case "-": add(.minus, 1)
            case "=": add(.equal, 1)
            case "!":
                guard peek(1) == "=" else { throw Self.error(start, "'!' not followed by '='") }
                add(.notEqual, 2)
            case "<": if peek(1) == "=" { add(.lessOrEqual, 2) } else { add(.less, 1) }
            case ">": if peek(1) == "=" { add(.greaterOrEqual, 2) } else { add(.greater, 1) }
            case "/": if peek(1) == "/" { add(.doubleSlash, 2) } else { add(.slash, 1) }
            case ":":
                guard peek(1) == ":" else { throw Self.error(start, "':' outside a name or '::'") }
                add(.colonColon, 2)
            case "*":
                if operatorExpected { add(.multiply, 1) } else { add(.nameTest(.anyName), 1) }
            case "\"", "'":
                k += 1
                var out = String.UnicodeScalarView()
                while let d = peek(), d != c {
                    out.append(d)
                    k += 1
                }
                guard peek() == c else { throw Self.error(start, "a literal not closed by its \(c)") }
                k += 1
                output.append(_XPathToken(kind: .literal(String(out)), offset: start))
            case ".":
                if peek(1) == "." {
                    add(.dotDot, 2)
                } else if let d = peek(1), d.properties.numericType != nil, ("0" ... "9").contains(d) {
                    output.append(_XPathToken(kind: .number(number()), offset: start))
                } else {
                    add(.dot, 1)
                }
            case "0" ... "9":
                output.append(_XPathToken(kind: .number(number()), offset: start))
            case "$":
                k += 1
                guard let name = qName() else { throw Self.error(start, "'$' not followed by a variable name") }
                output.append(_XPathToken(kind: .variable(name), offset: start))
            default:
                guard Self.isNameStart(c) else { throw Self.error(start, "unexpected character '\(c)'") }
                try name(start)
            }
        }
    }

    /// `Digits ('.' Digits?)?` or `'.' Digits`.
    private mutating func number() -> Double {
        var text = ""
        while let c = peek(), ("0" ... "9").contains(c) || c == "." {
            if c == "." && text.contains(".") { break }
            text.unicodeScalars.append(c)
            k += 1
        }
        return Double(text.hasPrefix(".") ? "0" + text : text.hasSuffix(".") ? text + "0" : text) ?? .nan
    }

    /// A QName (`prefix:local` or `local`) at `k`.
    private mutating func qName() -> String? {
        guard let first = ncName() else { return nil }
        if peek() == ":", let c = peek(1), Self.isNameStart(c) {
            k += 1
            return first + ":" + (ncName() ?? "")
        }
        return first
    }

    /// A name: an operator name, an axis name, a node type, a function name or a name test.
    private mutating func name(_ start: Int) throws(QueryError) {
        let first = ncName()!
        if operatorExpected {
            guard ["and", "or", "mod", "div"].contains(first) else {
                throw Self.error(start, "'\(first)' where an operator ('and', 'or', 'mod', 'div', '*', ...) was expected")
            }
            output.append(_XPathToken(kind: .operatorName(first), offset: start))
            return
        }
        // `prefix:*` or `prefix:local`.
        var prefix: String?
        var local = first
        if peek() == ":" && peek(1) != ":" {
            if peek(1) == "*" {
                k += 2
                output.append(_XPathToken(kind: .nameTest(.anyLocalName(prefix: first)), offset: start))
                return
            }
            guard let c = peek(1), Self.isNameStart(c) else { throw Self.error(k, "a name after '\(first):'") }
            k += 1
            prefix = first
            local = ncName()!
        }
        // What follows, spaces skipped: `(` makes a node type or a function, `::` an axis.
        let after = k
        skipSpace()
        if prefix == nil && peek() == ":" && peek(1) == ":" {
            k = after
            output.append(_XPathToken(kind: .axisName(first), offset: start))
            return
        }
        if peek() == "(" {
            k = after
            let name = prefix.map { $0 + ":" + local } ?? local
            if prefix == nil && ["comment", "text", "processing-instruction", "node"].contains(local) {
                output.append(_XPathToken(kind: .nodeType(local), offset: start))
            } else {
                output.append(_XPathToken(kind: .functionName(name), offset: start))
            }
            return
        }
        k = after
        output.append(_XPathToken(kind: .nameTest(.name(prefix: prefix, local: local)), offset: start))
    }
}

/// The parser: tokens to an ``_XPathExpr``.
struct _XPathParser {
    private let tokens: [_XPathToken]
    private var p = 0
    /// How deep the expression being read nests: one per parenthesis, predicate or argument
    /// list, and one per operator of a chain (`1 + 1 + ...` is a tree as deep as it is
    /// long). Past ``maximumDepth`` the expression is an error, so that neither this parser
    /// nor the evaluator, both recursive, can run out of stack on a hostile query.
    private var depth = 0
    static let maximumDepth = 256

    /// Counts `levels` more of depth, or fails past the maximum.
    private mutating func nest(_ levels: Int = 1) throws(QueryError) {
        depth += levels
        if depth > Self.maximumDepth { throw error("the expression nests more than \(Self.maximumDepth) deep") }
    }

    init(_ query: String) throws(QueryError) {
        var tokenizer = _XPathTokenizer(query)
        tokens = try tokenizer.tokenize()
    }

    private var token: _XPathToken { tokens[p] }
    private var kind: _XPathToken.Kind { tokens[p].kind }

    private func error(_ message: String) -> QueryError { _XPathTokenizer.error(token.offset, message) }

    private mutating func expect(_ kind: _XPathToken.Kind, _ what: String) throws(QueryError) {
        guard self.kind == kind else { throw error("expected \(what)") }
        p += 1
    }

    mutating func parse() throws(QueryError) -> _XPathExpr {
        if kind == .end { throw error("an empty expression") }
        let e = try expr()
        guard kind == .end else { throw error("unexpected \(describe(kind)) after the expression") }
        return e
    }

    private func describe(_ kind: _XPathToken.Kind) -> String {
        switch kind {
        case .end: "the end"
        case .rightParen: "')'"
        case .rightBracket: "']'"
        case .literal(let s): "the literal '\(s)'"
        case .number(let n): "the number \(n)"
        case .nameTest: "a name"
        default: "token"
        }
    }

    private mutating func expr() throws(QueryError) -> _XPathExpr {
        try nest()
        defer { depth -= 1 }
        return try orExpr()
    }

    /// Operands read by `operand`, joined from left to right by the operators `op` tells
    /// from the tokens between them: one level of XPath's operator precedence.
    private mutating func leftAssociative(
        _ op: (_XPathToken.Kind) -> _BinaryOperator?, _ operand: (inout _XPathParser) throws(QueryError) -> _XPathExpr
    ) throws(QueryError) -> _XPathExpr {
        var e = try operand(&self)
        var chain = 0
        defer { depth -= chain }
        while let o = op(kind) {
            p += 1
            try nest()
            chain += 1
            e = .binary(o, e, try operand(&self))
        }
        return e
    }

    private mutating func orExpr() throws(QueryError) -> _XPathExpr {
        try leftAssociative({ $0 == .operatorName("or") ? .or : nil }) { (q) throws(QueryError) in try q.andExpr() }
    }

    private mutating func andExpr() throws(QueryError) -> _XPathExpr {
        try leftAssociative({ $0 == .operatorName("and") ? .and : nil }) { (q) throws(QueryError) in try q.equalityExpr() }
    }

    private mutating func equalityExpr() throws(QueryError) -> _XPathExpr {
        try leftAssociative({ $0 == .equal ? .equal : $0 == .notEqual ? .notEqual : nil }) { (q) throws(QueryError) in try q.relationalExpr() }
    }

    private mutating func relationalExpr() throws(QueryError) -> _XPathExpr {
        try leftAssociative({ k in
            switch k {
            case .less: .less
            case .lessOrEqual: .lessOrEqual
            case .greater: .greater
            case .greaterOrEqual: .greaterOrEqual
            default: nil
            }
        }) { (q) throws(QueryError) in try q.additiveExpr() }
    }

    private mutating func additiveExpr() throws(QueryError) -> _XPathExpr {
        try leftAssociative({ $0 == .plus ? .plus : $0 == .minus ? .minus : nil }) { (q) throws(QueryError) in try q.multiplicativeExpr() }
    }

    private mutating func multiplicativeExpr() throws(QueryError) -> _XPathExpr {
        try leftAssociative({ k in
            switch k {
            case .multiply: .times
            case .operatorName("div"): .div
            case .operatorName("mod"): .mod
            default: nil
            }
        }) { (q) throws(QueryError) in try q.unaryExpr() }
    }

    private mutating func unaryExpr() throws(QueryError) -> _XPathExpr {
        var negations = 0
        while kind == .minus {
            negations += 1
            p += 1
        }
        try nest(negations)
        defer { depth -= negations }
        var e = try unionExpr()
        for _ in 0 ..< negations { e = .negate(e) }
        return e
    }

    private mutating func unionExpr() throws(QueryError) -> _XPathExpr {
        var e = try pathExpr()
        var chain = 0
        defer { depth -= chain }
        while kind == .pipe {
            let offset = token.offset
            p += 1
            try nest()
            chain += 1
            e = .union(e, try pathExpr(), offset: offset)
        }
        return e
    }

    private mutating func pathExpr() throws(QueryError) -> _XPathExpr {
        switch kind {
        case .variable, .leftParen, .literal, .number, .functionName:
            let offset = token.offset
            let primary = try primaryExpr()
            var predicates: [_XPathExpr] = []
            while kind == .leftBracket { predicates.append(try predicate()) }
            var steps: [_Step] = []
            if kind == .slash || kind == .doubleSlash { steps = try relativePath(afterSlash: true) }
            if predicates.isEmpty && steps.isEmpty { return primary }
            return .filter(primary, predicates: predicates, steps: steps, offset: offset)
        case .slash:
            p += 1
            if startsStep { return .path(absolute: true, try relativePath(afterSlash: false)) }
            return .path(absolute: true, [])
        case .doubleSlash:
            let offset = token.offset
            p += 1
            guard startsStep else { throw error("a step after '//'") }
            return .path(absolute: true, [_Step(axis: .descendantOrSelf, test: .node, predicates: [], offset: offset)] + (try relativePath(afterSlash: false)))
        default:
            guard startsStep else { throw error("expected an expression, found \(describe(kind))") }
            return .path(absolute: false, try relativePath(afterSlash: false))
        }
    }

    private var startsStep: Bool {
        switch kind {
        case .dot, .dotDot, .at, .axisName, .nameTest, .nodeType: true
        default: false
        }
    }

    /// Steps separated by `/` and `//` (`//` becomes `/descendant-or-self::node()/`);
    /// `afterSlash`: the tokens start with a separator.
    private mutating func relativePath(afterSlash: Bool) throws(QueryError) -> [_Step] {
        var steps: [_Step] = []
        if !afterSlash { steps.append(try step()) }
        while kind == .slash || kind == .doubleSlash {
            if kind == .doubleSlash { steps.append(_Step(axis: .descendantOrSelf, test: .node, predicates: [], offset: token.offset)) }
            p += 1
            guard startsStep else { throw error("expected a step after '/'") }
            steps.append(try step())
        }
        return steps
    }

    private mutating func step() throws(QueryError) -> _Step {
        let offset = token.offset
        switch kind {
        case .dot:
            p += 1
            return _Step(axis: .self, test: .node, predicates: [], offset: offset)
        case .dotDot:
            p += 1
            return _Step(axis: .parent, test: .node, predicates: [], offset: offset)
        default: break
        }
        var axis = _Axis.child
        if kind == .at {
            axis = .attribute
            p += 1
        } else if case .axisName(let name) = kind {
            guard let a = _Axis(rawValue: name) else { throw error("unknown axis '\(name)'") }
            axis = a
            p += 1
            try expect(.colonColon, "'::' after the axis name")
        }
        let test: _NodeTest
        switch kind {
        case .nameTest(let t):
            test = t
            p += 1
        case .nodeType(let type):
            p += 1
            try expect(.leftParen, "'(' after \(type)")
            switch type {
            case "node": test = .node
            case "text": test = .text
            case "comment": test = .comment
            default:
                if case .literal(let target) = kind {
                    p += 1
                    test = .processingInstruction(target)
                } else {
                    test = .processingInstruction(nil)
                }
            }
            try expect(.rightParen, "')' to close the node type test")
        default:
            throw error("expected a node test (a name, '*', node(), text(), comment() or processing-instruction())")
        }
        var predicates: [_XPathExpr] = []
        while kind == .leftBracket { predicates.append(try predicate()) }
        return _Step(axis: axis, test: test, predicates: predicates, offset: offset)
    }

    private mutating func predicate() throws(QueryError) -> _XPathExpr {
        p += 1
        if kind == .rightBracket { throw error("an empty predicate") }
        let e = try expr()
        try expect(.rightBracket, "']' to close the predicate")
        return e
    }

    private mutating func primaryExpr() throws(QueryError) -> _XPathExpr {
        let t = token
        switch t.kind {
        case .variable(let name):
            p += 1
            return .variable(name, offset: t.offset)
        case .leftParen:
            p += 1
            let e = try expr()
            try expect(.rightParen, "')'")
            return e
        case .literal(let s):
            p += 1
            return .literal(s)
        case .number(let n):
            p += 1
            return .number(n)
        case .functionName(let name):
            p += 1
            try expect(.leftParen, "'(' after the function name")
            var arguments: [_XPathExpr] = []
            if kind != .rightParen {
                arguments.append(try expr())
                while kind == .comma {
                    p += 1
                    arguments.append(try expr())
                }
            }
            try expect(.rightParen, "')' or ',' in the arguments of \(name)()")
            return .function(name, arguments, offset: t.offset)
        default:
            throw error("expected an expression")
        }
    }
}
