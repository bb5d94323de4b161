import RelativeViewCore

/// A compiled CSS selector list (Selectors Level 3, with Level 4's `:is()`, `:where()`,
/// `:not()` of selector lists and `:has()`): parse once, match on any number of trees.
///
/// ```swift
/// let links = try CSSSelector("nav > ul li:not(.hidden) a[href^='https']")
/// let nodes = try tree.select(links)
/// ```
///
/// Matching follows `querySelectorAll` on the document: every element that matches any
/// selector of the list, in document order, each once. Names and attribute values are
/// compared as written, but in an HTML document (`ViewTree.isHTMLDocument`) element and
/// attribute names ignore ASCII case; `[a=v i]` compares a value's ASCII letters
/// case-insensitively. As `querySelectorAll` declares no
/// namespace, a type selector `E` is `*|E`: the elements of local name `E` in any namespace
/// or none (`p:E` as well as `E`); `|E` is those in no namespace, `*|*` any element and
/// `|*` any in no namespace. A declared prefix (`ns|E`), an attribute in any namespace
/// (`[*|a]`), pseudo-elements and the user-interface pseudo-classes (`:hover`, `:checked`,
/// ...) are errors. `:lang(x)` reads the nearest `xml:lang` or `lang` attribute of the
/// element or an ancestor (`xml:lang` first on one element).
public struct CSSSelector: Sendable, CustomStringConvertible {
    /// The selector list as given.
    ///
    /// - Complexity: O(1)
    public let text: String
    let list: [_ComplexSelector]

    /// Compiles `text`.
    ///
    /// - Throws: ``QueryError`` naming the character where the selector is wrong.
    /// - Complexity: O(text's length)
    public init(_ text: String) throws(QueryError) {
        var parser = _CSSParser(text)
        self.text = text
        list = try parser.selectorList()
        guard parser.atEnd else { throw parser.error("unexpected '\(parser.current)'") }
    }

    /// The selector list as given.
    ///
    /// - Complexity: O(1)
    public var description: String { text }
}

/// How two compound selectors are related.
enum _Combinator: Sendable {
    case descendant, child, nextSibling, subsequentSibling
}

/// A compound selector's conditions on one element, besides its type.
indirect enum _Condition: Sendable {
    /// `#id`: the UTF-8 of the id.
    case id([UInt8])
    /// `.name`: the UTF-8 of the class name.
    case className([UInt8])
    /// `[name op value i]`: the value's UTF-8.
    case attribute(name: String, op: _AttributeOperator?, value: [UInt8], ignoreCase: Bool)
    /// `:nth-child(an+b)` and its relatives: the element's place among its element siblings
    /// (of its own type, with `ofType`), from the first or (`fromEnd`) the last, is `a*n+b`
    /// for some n >= 0. `:first-child` is (0, 1), `:only-child` both ends.
    case nth(a: Int, b: Int, fromEnd: Bool, ofType: Bool)
    case empty
    case root
    /// `:lang(x)`: the UTF-8 of `x`.
    case lang([UInt8])
    case not([_ComplexSelector])
    case `is`([_ComplexSelector])
    case has([_RelativeSelector])
}

enum _AttributeOperator: String, Sendable {
    case equal = "=", includes = "~=", dashMatch = "|=", prefix = "^=", suffix = "$=", substring = "*="
}

/// A type (an element's local name, `nil` for any), whether the element must be in no
/// namespace (`|E`, `|*`), and conditions.
struct _CompoundSelector: Sendable {
    var name: String?
    var conditions: [_Condition]
    var inNoNamespace = false

    init(name: String?, conditions: [_Condition], inNoNamespace: Bool = false) {
        (self.name, self.conditions, self.inNoNamespace) = (name, conditions, inNoNamespace)
    }
}

/// Compounds joined by combinators: `combinators[i]` joins `compounds[i]` and `compounds[i + 1]`.
struct _ComplexSelector: Sendable {
    var compounds: [_CompoundSelector]
    var combinators: [_Combinator]
}

/// `:has()`'s argument: a complex selector whose first compound is related to the subject
/// by `combinator` (a descendant if none is written).
struct _RelativeSelector: Sendable {
    var combinator: _Combinator
    var complex: _ComplexSelector
}

/// The parser (CSS Syntax Level 3's tokens, as far as selectors use them).
struct _CSSParser {
    private let s: [Unicode.Scalar]
    private var k = 0
    /// How deep selector lists nest (`:not(:is(...))`): past ``maximumDepth`` an error, so
    /// that neither this parser nor the matcher, both recursive, can run out of stack.
    private var depth = 0
    static let maximumDepth = 64

    init(_ text: String) { s = Array(text.unicodeScalars) }

    var atEnd: Bool { k >= s.count }
    var current: String { atEnd ? "the end" : String(s[k]) }

    func error(_ message: String, at offset: Int? = nil) -> QueryError {
        QueryError(language: "CSS", offset: offset ?? k, message: message)
    }

    private func peek(_ d: Int = 0) -> Unicode.Scalar? { k + d < s.count ? s[k + d] : nil }

    private static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = k
        while let c = peek(), Self.isSpace(c) { k += 1 }
        return k > start
    }

    private static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || ("a" ... "z").contains(c) || ("A" ... "Z").contains(c) || c.value >= 0x80
    }

    private static func isName(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || c == "-" || ("0" ... "9").contains(c) }

    /// Whether an identifier starts at `k + d`.
    private func identifierStarts(_ d: Int = 0) -> Bool {
        guard let c = peek(d) else { return false }
        if Self.isNameStart(c) || c == "\\" { return true }
        if c == "-", let n = peek(d + 1) { return Self.isNameStart(n) || n == "-" || n == "\\" }
        return false
    }

    /// An escape after a backslash at `k`.
    private mutating func escape() throws(QueryError) -> Unicode.Scalar {
        k += 1
        guard let c = peek() else { throw error("a backslash at the end") }
        var hex = 0, digits = 0
        while digits < 6, let d = peek(), let v = Int(String(d), radix: 16) {
            hex = hex * 16 + v
            digits += 1
            k += 1
        }
        if digits > 0 {
            if let d = peek(), Self.isSpace(d) { k += 1 }
            return Unicode.Scalar(UInt32(hex)).flatMap { hex == 0 ? nil : $0 } ?? "\u{FFFD}"
        }
        k += 1
        return c
    }

    mutating func identifier() throws(QueryError) -> String {
        guard identifierStarts() else { throw error("expected a name") }
        var out = String.UnicodeScalarView()
        while let c = peek() {
            if c == "\\" {
                out.append(try escape())
            } else if Self.isName(c) {
                out.append(c)
                k += 1
            } else {
                break
            }
        }
        return String(out)
    }

    private mutating func string() throws(QueryError) -> String {
        let quote = s[k]
        let start = k
        k += 1
        var out = String.UnicodeScalarView()
        while let c = peek(), c != quote {
            if c == "\\" {
                if let n = peek(1), n == "\n" { k += 2; continue }
                out.append(try escape())
            } else if c == "\n" {
                throw error("a line break inside a string")
            } else {
                out.append(c)
                k += 1
            }
        }
        guard peek() == quote else { throw error("a string not closed by its \(quote)", at: start) }
        k += 1
        return String(out)
    }

    mutating func selectorList() throws(QueryError) -> [_ComplexSelector] {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("selector lists nest more than \(Self.maximumDepth) deep") }
        var list: [_ComplexSelector] = []
        skipSpace()
        list.append(try complex())
        while peek() == "," {
            k += 1
            skipSpace()
            list.append(try complex())
        }
        return list
    }

    /// A complex selector, up to a `,`, a `)` or the end.
    private mutating func complex() throws(QueryError) -> _ComplexSelector {
        var result = _ComplexSelector(compounds: [try compound()], combinators: [])
        while true {
            let spaced = skipSpace()
            guard let c = peek(), c != ",", c != ")" else { return result }
            var combinator = _Combinator.descendant
            switch c {
            case ">": combinator = .child; k += 1; skipSpace()
            case "+": combinator = .nextSibling; k += 1; skipSpace()
            case "~": combinator = .subsequentSibling; k += 1; skipSpace()
            default:
                guard spaced else { throw error("unexpected '\(c)'") }
            }
            result.combinators.append(combinator)
            result.compounds.append(try compound())
        }
    }

    private mutating func relative() throws(QueryError) -> _RelativeSelector {
        skipSpace()
        var combinator = _Combinator.descendant
        switch peek() {
        case ">": combinator = .child; k += 1
        case "+": combinator = .nextSibling; k += 1
        case "~": combinator = .subsequentSibling; k += 1
        default: break
        }
        skipSpace()
        return _RelativeSelector(combinator: combinator, complex: try complex())
    }

    private mutating func compound() throws(QueryError) -> _CompoundSelector {
        var compound = _CompoundSelector(name: nil, conditions: [])
        let start = k
        // A namespace component: `*|` any namespace (as none written), `|` none.
        if peek() == "*" && peek(1) == "|" && peek(2) != "=" {
            k += 2
            try typeAfterNamespace(&compound)
        } else if peek() == "|" && peek(1) != "=" {
            k += 1
            compound.inNoNamespace = true
            try typeAfterNamespace(&compound)
        } else if peek() == "*" {
            k += 1
        } else if identifierStarts() {
            compound.name = try identifier()
            if peek() == "|" && peek(1) != "=" {
                throw error("namespace prefix '\(compound.name!)' is not declared (querySelectorAll declares none: '*|' is any namespace, '|' none)", at: start)
            }
        }
        while let c = peek() {
            switch c {
            case "#":
                k += 1
                guard let n = peek(), Self.isName(n) || n == "\\" else { throw error("expected a name after '#'") }
                var out = String.UnicodeScalarView()
                while let d = peek(), Self.isName(d) || d == "\\" {
                    if d == "\\" { out.append(try escape()) } else { out.append(d); k += 1 }
                }
                compound.conditions.append(.id(Array(String(out).utf8)))
            case ".":
                k += 1
                compound.conditions.append(.className(Array(try identifier().utf8)))
            case "[":
                compound.conditions.append(try attribute())
            case ":":
                if peek(1) == ":" { throw error("pseudo-elements select no element") }
                compound.conditions.append(try pseudoClass())
            default:
                if k == start { throw error(atEnd ? "expected a selector" : "unexpected '\(c)'") }
                return compound
            }
        }
        if k == start { throw error("expected a selector") }
        return compound
    }

    /// The type after a namespace component: `*` or a name.
    private mutating func typeAfterNamespace(_ compound: inout _CompoundSelector) throws(QueryError) {
        if peek() == "*" {
            k += 1
        } else if identifierStarts() {
            compound.name = try identifier()
        } else {
            throw error("expected a name or '*' after '|'")
        }
    }

    private mutating func attribute() throws(QueryError) -> _Condition {
        k += 1
        skipSpace()
        // `[|a]` is `[a]` (an attribute in no namespace, which `[a]` means already).
        if peek() == "|" && peek(1) != "=" { k += 1 }
        if peek() == "*" { throw error("an attribute in any namespace ('[*|a]') is not supported") }
        let nameStart = k
        let name = try identifier()
        if peek() == "|" && peek(1) != "=" {
            throw error("namespace prefix '\(name)' is not declared (querySelectorAll declares none: '|' is no namespace)", at: nameStart)
        }
        skipSpace()
        if peek() == "]" {
            k += 1
            return .attribute(name: name, op: nil, value: [], ignoreCase: false)
        }
        var opText = ""
        if let c = peek(), "~|^$*".unicodeScalars.contains(c) { opText.unicodeScalars.append(c); k += 1 }
        guard peek() == "=" else { throw error("expected '=', '~=', '|=', '^=', '$=', '*=' or ']'") }
        k += 1
        opText += "="
        let op = _AttributeOperator(rawValue: opText)!
        skipSpace()
        let value: String
        if peek() == "\"" || peek() == "'" {
            value = try string()
        } else {
            value = try identifier()
        }
        skipSpace()
        var ignoreCase = false
        if let c = peek(), c == "i" || c == "I" || c == "s" || c == "S" {
            ignoreCase = c == "i" || c == "I"
            k += 1
            skipSpace()
        }
        guard peek() == "]" else { throw error("expected ']'") }
        k += 1
        return .attribute(name: name, op: op, value: Array(value.utf8), ignoreCase: ignoreCase)
    }

    private mutating func pseudoClass() throws(QueryError) -> _Condition {
        let start = k
        k += 1
        let name = try identifier().lowercased()
        if peek() == "(" {
            k += 1
            skipSpace()
            let condition: _Condition
            switch name {
            case "not", "is", "matches", "where":
                let list = try selectorList()
                condition = name == "not" ? .not(list) : .is(list)
            case "has":
                var list = [try relative()]
                while peek() == "," {
                    k += 1
                    list.append(try relative())
                }
                condition = .has(list)
            case "lang":
                let tag: String
                if peek() == "\"" || peek() == "'" { tag = try string() } else { tag = try identifier() }
                condition = .lang(Array(tag.utf8))
            case "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type":
                let (a, b) = try anPlusB()
                condition = .nth(a: a, b: b, fromEnd: name.contains("last"), ofType: name.hasSuffix("of-type"))
            default:
                throw error("unknown or unsupported pseudo-class ':\(name)()'", at: start)
            }
            skipSpace()
            guard peek() == ")" else { throw error("expected ')'") }
            k += 1
            return condition
        }
        switch name {
        case "first-child": return .nth(a: 0, b: 1, fromEnd: false, ofType: false)
        case "last-child": return .nth(a: 0, b: 1, fromEnd: true, ofType: false)
        case "first-of-type": return .nth(a: 0, b: 1, fromEnd: false, ofType: true)
        case "last-of-type": return .nth(a: 0, b: 1, fromEnd: true, ofType: true)
        case "only-child": return .is([_ComplexSelector(compounds: [_CompoundSelector(name: nil, conditions: [
            .nth(a: 0, b: 1, fromEnd: false, ofType: false), .nth(a: 0, b: 1, fromEnd: true, ofType: false)])], combinators: [])])
        case "only-of-type": return .is([_ComplexSelector(compounds: [_CompoundSelector(name: nil, conditions: [
            .nth(a: 0, b: 1, fromEnd: false, ofType: true), .nth(a: 0, b: 1, fromEnd: true, ofType: true)])], combinators: [])])
        case "empty": return .empty
        case "root": return .root
        default: throw error("unknown or unsupported pseudo-class ':\(name)'", at: start)
        }
    }

    /// `an+b`, `odd`, `even`, with the spaces CSS allows (around the sign of b).
    private mutating func anPlusB() throws(QueryError) -> (Int, Int) {
        let start = k
        var text = ""
        while let c = peek(), c != ")" {
            if !Self.isSpace(c) { text.unicodeScalars.append(c) }
            k += 1
        }
        let t = text.lowercased()
        if t == "odd" { return (2, 1) }
        if t == "even" { return (2, 0) }
        func integer(_ s: Substring) -> Int? {
            guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "+" || $0 == "-") }) else { return nil }
            return Int(s.hasPrefix("+") ? s.dropFirst() : s)
        }
        guard let n = t.firstIndex(of: "n") else {
            guard let b = integer(Substring(t)) else { throw error("expected an+b, odd or even", at: start) }
            return (0, b)
        }
        let aText = t[..<n], bText = t[t.index(after: n)...]
        let a: Int
        switch aText {
        case "", "+": a = 1
        case "-": a = -1
        default:
            guard let v = integer(aText) else { throw error("expected an+b, odd or even", at: start) }
            a = v
        }
        if bText.isEmpty { return (a, 0) }
        guard bText.first == "+" || bText.first == "-", let b = integer(bText) else { throw error("expected an+b, odd or even", at: start) }
        return (a, b)
    }
}
