/// A bit-parallel matcher for the I-Regexps that are one run of single-character atoms, on
/// subjects of ASCII: JSONPath's `match()` and `search()` run it before Swift's `Regex`
/// (about 600 ns a call on e-mail addresses here), and `Regex` only where it declines.
///
/// The pattern is a sequence of atoms, each a set of ASCII bytes (a plain character, `.`, a
/// class, a negated class) with a quantifier; an atom `x{n,m}` is written out as `n` atoms
/// and `m - n` optional ones, `x*` as one optional atom that repeats, `x+` as one that
/// repeats. State `j` (bit `j` of a word) means "the first `j` atoms are matched"; a byte
/// moves state `j` to `j + 1` where atom `j` takes it, keeps state `j + 1` where atom `j`
/// repeats and takes it, and an optional atom joins state `j + 1` to state `j` with no
/// byte (the closure). This is Shift-And extended to classes, optional and repeated
/// characters (Navarro and Raffinot, *Flexible Pattern Matching in Strings*, 2002, 4.3),
/// with the closure taken by a loop rather than their subtraction trick (a loop of at
/// most one turn per optional atom in a row).
///
/// Declined (``init(_:)`` gives nil): groups, `|`, `\p{..}`, characters past ASCII in the
/// pattern, `^` anywhere but first or `$` anywhere but last, and more than 63 atoms once
/// written out. ``matches(_:whole:)`` gives nil for a subject with a byte past ASCII (a `.`
/// or a negated class takes a whole scalar there), and the caller asks `Regex`.
struct _ByteAutomaton: Sendable, Hashable {
    /// Per ASCII byte, the atoms that take it (bit `j`: atom `j`).
    private var takes: [UInt64]
    /// Per ASCII byte, the states kept by a repeating atom that takes it (bit `j + 1`:
    /// atom `j`).
    private var keeps: [UInt64]
    /// The states an optional atom passes on with no byte (bit `j`: atom `j` is optional).
    private var optional: UInt64 = 0
    /// The state of the whole pattern matched (bit `atoms`).
    private let accept: UInt64
    /// The start state with its closure.
    private let start: UInt64
    /// `^` first / `$` last.
    private let anchoredStart: Bool
    private let anchoredEnd: Bool

    /// The automaton of an I-Regexp that the grammar has accepted, or nil if it is not of
    /// the shape described above.
    init?(_ s: [Unicode.Scalar]) {
        var at = 0
        var anchoredStart = false, anchoredEnd = false
        if s.first == "^" { anchoredStart = true; at = 1 }
        var end = s.count
        // A final `$` not escaped (`\$` is a plain character).
        if end > at, s[end - 1] == "$", !(end >= 2 && s[end - 2] == "\\" && !Self.escapedBackslash(s, before: end - 2)) {
            anchoredEnd = true
            end -= 1
        }
        var sets: [(set: [Bool], optional: Bool, repeats: Bool)] = []
        while at < end {
            var set = [Bool](repeating: false, count: 128)
            let c = s[at]
            switch c {
            case ".":
                for b in 0 ..< 128 where b != 0x0A && b != 0x0D { set[b] = true }
                at += 1
            case "[":
                guard let next = Self.classSet(s, from: at, into: &set) else { return nil }
                at = next
            case "\\":
                guard at + 1 < end, let x = _IRegexp.singleCharacter(escaped: s[at + 1]) else { return nil }
                set[Int(x.value)] = true
                at += 2
            case "(", ")", "|", "^", "$", "*", "+", "?", "{", "}", "]":
                return nil
            default:
                guard c.isASCII else { return nil }
                set[Int(c.value)] = true
                at += 1
            }
            // The quantifier.
            var low = 1, high: Int? = 1
            if at < end {
                switch s[at] {
                case "*": low = 0; high = nil; at += 1
                case "+": low = 1; high = nil; at += 1
                case "?": low = 0; high = 1; at += 1
                case "{":
                    at += 1
                    guard let l = Self.number(s, &at) else { return nil }
                    low = l; high = l
                    if at < end, s[at] == "," {
                        at += 1
                        high = at < end && s[at] == "}" ? nil : Self.number(s, &at)
                        if high == nil, at < end, s[at] != "}" { return nil }
                    }
                    guard at < end, s[at] == "}" else { return nil }
                    at += 1
                default: break
                }
            }
            guard low <= 63, (high ?? low) <= 63 else { return nil }
            for _ in 0 ..< low { sets.append((set, false, false)) }
            if let high {
                for _ in low ..< high { sets.append((set, true, false)) }
            } else if low == 0 {
                sets.append((set, true, true))
            } else {
                sets[sets.count - 1].repeats = true
            }
            guard sets.count <= 63 else { return nil }
        }
        var takes = [UInt64](repeating: 0, count: 128), keeps = [UInt64](repeating: 0, count: 128)
        var optional: UInt64 = 0
        for (j, atom) in sets.enumerated() {
            for b in 0 ..< 128 where atom.set[b] {
                takes[b] |= 1 << UInt64(j)
                if atom.repeats { keeps[b] |= 1 << UInt64(j + 1) }
            }
            if atom.optional { optional |= 1 << UInt64(j) }
        }
        self.takes = takes
        self.keeps = keeps
        self.optional = optional
        accept = 1 << UInt64(sets.count)
        self.anchoredStart = anchoredStart
        self.anchoredEnd = anchoredEnd
        var d: UInt64 = 1
        while true { let n = d | ((d & optional) << 1); if n == d { break }; d = n }
        start = d
    }

    /// Whether the pattern matches `subject` whole (`match()`) or some substring of it
    /// (`search()`); nil if `subject` has a byte past ASCII.
    func matches(_ subject: UnsafeBufferPointer<UInt8>, whole: Bool) -> Bool? {
        let fromStart = whole || anchoredStart, toEnd = whole || anchoredEnd
        var d = start
        if !toEnd, d & accept != 0 { return true }
        // The tables' storage, read with no bounds checks (every index is below 128).
        return takes.withUnsafeBufferPointer { takes in
            keeps.withUnsafeBufferPointer { keeps in
                for c in subject {
                    if c >= 0x80 { return nil }
                    d = ((d & takes[Int(c)]) << 1) | (d & keeps[Int(c)])
                    while true { let n = d | ((d & optional) << 1); if n == d { break }; d = n }
                    if !fromStart { d |= start }
                    if !toEnd, d & accept != 0 { return true }
                    if d == 0 { return false }
                }
                return d & accept != 0
            }
        }
    }

    /// Whether the backslash at `i` is itself escaped (an odd run of backslashes before it).
    private static func escapedBackslash(_ s: [Unicode.Scalar], before i: Int) -> Bool {
        var n = 0, k = i - 1
        while k >= 0, s[k] == "\\" { n += 1; k -= 1 }
        return n % 2 == 1
    }

    /// The decimal number at `at` (nil if none, or past 1,000), `at` moved past it.
    private static func number(_ s: [Unicode.Scalar], _ at: inout Int) -> Int? {
        var n = 0, digits = 0
        while at < s.count, s[at].value >= 0x30, s[at].value <= 0x39 {
            n = n * 10 + Int(s[at].value - 0x30)
            digits += 1
            at += 1
            if n > 1_000 { return nil }
        }
        return digits > 0 ? n : nil
    }

    /// A class `[...]` from `from` into `set` (ASCII members only; nil if it has `\p`, or a
    /// member past ASCII, which a negated class would take too): the index after its `]`.
    private static func classSet(_ s: [Unicode.Scalar], from: Int, into set: inout [Bool]) -> Int? {
        var at = from + 1
        var negated = false
        if at < s.count, s[at] == "^" { negated = true; at += 1 }
        var members = [Bool](repeating: false, count: 128)
        var first = true
        func member(_ at: inout Int) -> Unicode.Scalar? {
            guard at < s.count else { return nil }
            if s[at] == "\\" {
                guard at + 1 < s.count, let x = _IRegexp.singleCharacter(escaped: s[at + 1]) else { return nil }
                at += 2
                return x
            }
            defer { at += 1 }
            return s[at]
        }
        while at < s.count {
            if s[at] == "]", !first { break }
            if s[at] == "-", first || (at + 1 < s.count && s[at + 1] == "]") {
                members[0x2D] = true
                at += 1
                first = false
                continue
            }
            guard let low = member(&at), low.isASCII else { return nil }
            if at + 1 < s.count, s[at] == "-", s[at + 1] != "]" {
                at += 1
                guard let high = member(&at), high.isASCII, low.value <= high.value else { return nil }
                for b in Int(low.value) ... Int(high.value) { members[b] = true }
            } else {
                members[Int(low.value)] = true
            }
            first = false
        }
        guard at < s.count, s[at] == "]" else { return nil }
        for b in 0 ..< 128 { set[b] = negated ? !members[b] : members[b] }
        return at + 1
    }
}
