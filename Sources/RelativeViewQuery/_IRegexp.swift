/// An I-Regexp (RFC 9485), checked against its grammar and translated to the syntax of
/// Swift's `Regex`, which runs it (matching Unicode scalars, not grapheme clusters: an
/// I-Regexp's characters are code points).
///
/// The translation writes every literal character as `\u{...}`, `^` and `$` as the start and
/// the end of the string, `.` as `[^\n\r]` (RFC 9485's dot), groups as
/// non-capturing, and `\p{..}`/`\P{..}` as they are (general categories only, as the grammar
/// allows). A pattern the grammar rejects has no translation: JSONPath's `match()` and
/// `search()` are then false (RFC 9535, section 2.4.6).
struct _IRegexp: Sendable, Hashable {
    /// The pattern in Swift's regex syntax.
    let translated: String
    /// Whether the whole string must match (`match`), or some substring (`search`).
    let whole: Bool
    /// The longest run of plain characters every match holds (UTF-8; empty if none): the
    /// pattern has one branch, and in it these characters stand one after the other, each
    /// once. A string without it cannot match, and is rejected before `Regex` runs.
    let required: [UInt8]
    /// Of `match`: the plain characters the pattern starts with, which every string it
    /// matches starts with (UTF-8; empty if none).
    let prefix: [UInt8]
    /// The pattern as a bit-parallel automaton over ASCII bytes, if it is of that shape
    /// (nil for groups, alternatives, `\p{..}` and characters past ASCII): it answers for
    /// every subject of ASCII, `Regex` for the others.
    let automaton: _ByteAutomaton?

    /// The translation of `pattern`, or `nil` if it is not an I-Regexp.
    init?(_ pattern: String, whole: Bool) {
        var t = _Translator(Array(pattern.unicodeScalars))
        guard let out = t.regexp(), t.at == t.s.count else { return nil }
        translated = out
        self.whole = whole
        let oneBranch = !t.topLevelAlternation
        required = oneBranch ? Array(String(String.UnicodeScalarView(t.longestRun)).utf8) : []
        prefix = oneBranch && whole ? Array(String(String.UnicodeScalarView(t.firstRun)).utf8) : []
        automaton = _ByteAutomaton(t.s)
    }

    /// Whether `subject` may match: it holds ``required`` (and starts with ``prefix``).
    func mayMatch(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        if !prefix.isEmpty, !subject.starts(with: prefix) { return false }
        guard let first = required.first else { return true }
        let n = required.count
        guard subject.count >= n else { return false }
        var i = 0
        while i <= subject.count - n {
            if subject[i] == first, subject[i ..< i + n].elementsEqual(required) { return true }
            i += 1
        }
        return false
    }

    /// The character a single-character escape (`\n`, `\.`, ...) stands for; nil for
    /// `\p`, `\P` and the letters that are no escape.
    static func singleCharacter(escaped e: Unicode.Scalar) -> Unicode.Scalar? {
        switch e {
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}": return e
        default: return nil
        }
    }

    private struct _Translator {
        let s: [Unicode.Scalar]
        var at = 0
        var depth = 0
        /// The plain character the last atom was (nil for any other atom).
        var lastLiteral: Unicode.Scalar?
        /// Of the top level: whether it has a `|`, its longest run of plain characters
        /// standing once each, and the run it starts with.
        var topLevelAlternation = false
        var longestRun: [Unicode.Scalar] = []
        var firstRun: [Unicode.Scalar] = []
        init(_ s: [Unicode.Scalar]) { self.s = s }
        var current: Unicode.Scalar? { at < s.count ? s[at] : nil }

        static func literal(_ c: Unicode.Scalar) -> String { "\\u{" + String(c.value, radix: 16) + "}" }

        /// `branch *( "|" branch )`.
        mutating func regexp() -> String? {
            depth += 1
            defer { depth -= 1 }
            guard depth < 100 else { return nil }
            var out = ""
            guard let first = branch() else { return nil }
            out += first
            while current == "|" {
                at += 1
                if depth == 1 { topLevelAlternation = true }
                guard let next = branch() else { return nil }
                out += "|" + next
            }
            return out
        }

        mutating func branch() -> String? {
            var out = ""
            let top = depth == 1
            var run: [Unicode.Scalar] = []
            var atStart = true
            func endRun() {
                if top, run.count > longestRun.count { longestRun = run }
                if top, atStart, firstRun.isEmpty { firstRun = run }
                atStart = false
                run = []
            }
            while let c = current, c != "|", c != ")" {
                lastLiteral = nil
                guard let atom = atom() else { return nil }
                let literal = lastLiteral
                out += atom
                let q = quantifier()
                if let q {
                    guard !q.isEmpty else { return nil }
                    out += q
                }
                if let literal, q == nil {
                    run.append(literal)
                } else {
                    endRun()
                }
            }
            endRun()
            return out
        }

        /// `nil` when there is none; "" when one is malformed.
        mutating func quantifier() -> String? {
            guard let c = current else { return nil }
            switch c {
            case "*", "+", "?": at += 1; return String(c)
            case "{":
                at += 1
                guard let low = digits() else { return "" }
                var out = "{" + low
                if current == "," {
                    at += 1
                    out += ","
                    if let high = digits() {
                        guard let l = Int(low), let h = Int(high), l <= h else { return "" }
                        out += high
                    }
                }
                guard current == "}" else { return "" }
                at += 1
                return out + "}"
            default: return nil
            }
        }

        mutating func digits() -> String? {
            var out = ""
            while let c = current, c >= "0", c <= "9" { out.unicodeScalars.append(c); at += 1 }
            guard !out.isEmpty, out.count <= 9 else { return nil }
            return out
        }

        mutating func atom() -> String? {
            guard let c = current else { return nil }
            switch c {
            case "(":
                at += 1
                guard let inner = regexp(), current == ")" else { return nil }
                at += 1
                lastLiteral = nil  // a group is no plain character, whatever ends it
                return "(?:" + inner + ")"
            case ".": at += 1; return "[^\\n\\r]"
            // Anchors, as the compliance suite reads them (its "explicit caret" and
            // "explicit dollar" cases) and as RFC 9485's mappings to other flavors leave them.
            case "^": at += 1; return "\\A"
            case "$": at += 1; return "\\z"
            case "[": return classExpression()
            case "\\":
                let start = at
                let e = escape(inClass: false)
                // A single-character escape (`\.`, `\n`) is a plain character.
                if e != nil, at == start + 2, s[start + 1] != "p", s[start + 1] != "P" {
                    let x = s[start + 1]
                    lastLiteral = x == "n" ? "\n" : x == "r" ? "\r" : x == "t" ? "\t" : x
                }
                return e
            case ")", "*", "+", "?", "]", "{", "|", "}": return nil
            default:
                at += 1
                lastLiteral = c
                return Self.literal(c)
            }
        }

        /// `\p{..}`, `\P{..}` or a single-character escape.
        mutating func escape(inClass: Bool) -> String? {
            at += 1
            guard let e = current else { return nil }
            at += 1
            switch e {
            case "p", "P":
                guard current == "{" else { return nil }
                at += 1
                var name = ""
                while let c = current, c != "}" { name.unicodeScalars.append(c); at += 1 }
                guard current == "}", Self.categories.contains(name) else { return nil }
                at += 1
                return "\\" + String(e) + "{" + name + "}"
            case "n": return Self.literal("\n")
            case "r": return Self.literal("\r")
            case "t": return Self.literal("\t")
            case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}": return Self.literal(e)
            default: return nil
            }
        }

        static let categories: Set<String> = [
            "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
            "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Z", "Zl", "Zp", "Zs",
            "S", "Sc", "Sk", "Sm", "So", "C", "Cc", "Cf", "Cn", "Co",
        ]

        /// `"[" [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]"`.
        mutating func classExpression() -> String? {
            at += 1
            var out = "["
            if current == "^" { at += 1; out += "^" }
            var first = true
            while true {
                guard let c = current else { return nil }
                if c == "]", !first { at += 1; return out + "]" }
                if c == "-" {
                    // A '-' only first or last.
                    let last = at + 1 < s.count && s[at + 1] == "]"
                    guard first || last else { return nil }
                    at += 1
                    out += Self.literal("-")
                    first = false
                    continue
                }
                if c == "\\", at + 1 < s.count, s[at + 1] == "p" || s[at + 1] == "P" {
                    guard let e = escape(inClass: true) else { return nil }
                    out += e
                    first = false
                    continue
                }
                guard let low = classChar() else { return nil }
                if current == "-", at + 1 < s.count, s[at + 1] != "]" {
                    at += 1
                    guard let high = classChar(), low.value <= high.value else { return nil }
                    out += Self.literal(low) + "-" + Self.literal(high)
                } else {
                    out += Self.literal(low)
                }
                first = false
            }
        }

        /// A `CCchar`: a character other than `[`, `\`, `]` and `-`, or a single-character escape.
        mutating func classChar() -> Unicode.Scalar? {
            guard let c = current else { return nil }
            switch c {
            case "[", "]", "-": return nil
            case "\\":
                guard at + 1 < s.count else { return nil }
                let e = s[at + 1]
                at += 2
                return _IRegexp.singleCharacter(escaped: e)
            default:
                at += 1
                return c
            }
        }
    }
}
