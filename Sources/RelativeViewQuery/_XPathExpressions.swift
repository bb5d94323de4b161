#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import RelativeViewCore

/// Expressions, comparisons, conversions and the core function library (XPath 1.0 sections
/// 3 and 4), with libxml2's choices where the specification leaves room (numbers written
/// in exponent notation past 10^9 and below 10^-5; `number()` reading an exponent).
extension _XPathEvaluator {
    func error(_ offset: Int, _ message: String) -> QueryError {
        QueryError(language: "XPath", offset: offset, message: message)
    }

    /// The value of `e` in `context`.
    mutating func evaluate(_ e: _XPathExpr, _ context: _Context) throws(QueryError) -> _Value {
        switch e {
        case .number(let n): return .number(n)
        case .literal(let s): return .string(s)
        case .variable(let name, let offset):
            guard let value = variables[name] else { throw error(offset, "undefined variable '$\(name)' (give its value to evaluate(_:variables:))") }
            return value
        case .negate(let a): return .number(-(try number(evaluate(a, context))))
        case .binary(let op, let a, let b): return try binary(op, a, b, context)
        case .union(let a, let b, let offset):
            guard case .nodes(let x) = try evaluate(a, context), case .nodes(let y) = try evaluate(b, context) else {
                throw error(offset, "'|' joins node-sets only")
            }
            return .nodes(Self.merged(x, y))
        case .path(let absolute, let steps):
            var set: [_Key] = [absolute ? .root : context.node]
            for s in steps {
                set = try step(set, s)
                if set.isEmpty { break }
            }
            return .nodes(set)
        case .filter(let primary, let predicates, let steps, let offset):
            let value = try evaluate(primary, context)
            guard case .nodes(var set) = value else {
                throw error(offset, "a predicate or a step applied to a \(Self.typeName(value)), not a node-set")
            }
            for predicate in predicates { set = try filtered(set, by: predicate) }
            for s in steps {
                set = try step(set, s)
                if set.isEmpty { break }
            }
            return .nodes(set)
        case .function(let name, let arguments, let offset):
            return try function(name, arguments, context, offset: offset)
        }
    }

    static func typeName(_ v: _Value) -> String {
        switch v {
        case .nodes: "node-set"
        case .boolean: "boolean"
        case .number: "number"
        case .string: "string"
        }
    }

    /// Two sorted key lists merged, each key once.
    static func merged(_ x: [_Key], _ y: [_Key]) -> [_Key] {
        var out: [_Key] = []
        out.reserveCapacity(x.count + y.count)
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if x[i] < y[j] {
                out.append(x[i]); i += 1
            } else if y[j] < x[i] {
                out.append(y[j]); j += 1
            } else {
                out.append(x[i]); i += 1; j += 1
            }
        }
        out.append(contentsOf: x[i...])
        out.append(contentsOf: y[j...])
        return out
    }

    /// A predicate's truth: a number is compared with the context position.
    mutating func truth(_ e: _XPathExpr, _ context: _Context) throws(QueryError) -> Bool {
        if let fast = try condition(e, context) { return fast }
        let v = try evaluate(e, context)
        if case .number(let n) = v { return n == Double(context.position) }
        return try boolean(v)
    }

    /// The truth of the commonest predicates, with no value made: a single step that
    /// exists (`[@id]`, `[b]`, `[text()]`), an attribute compared with a literal (`[@id =
    /// 'x']`, `[@n > 3]`), and `and`, `or`, `not()` of them; `nil` for any other expression.
    mutating func condition(_ e: _XPathExpr, _ context: _Context) throws(QueryError) -> Bool? {
        guard let compiled = try compileCondition(e) else { return nil }
        return try holds(compiled, context.node)
    }

    /// A predicate that ``condition(_:_:)`` reads without making a value, its tests resolved.
    indirect enum Condition: Sendable {
        case exists(_Axis, Test)
        case attribute(Test, _BinaryOperator, literal: [UInt8]?, number: Double, attributeFirst: Bool)
        /// A child's string-value compared so (`[price >= 500]`, `[name = 'x']`).
        case child(Test, _BinaryOperator, literal: [UInt8]?, number: Double, childFirst: Bool)
        case and(Condition, Condition)
        case or(Condition, Condition)
        case not(Condition)
    }

    /// `e` as a ``Condition``, or `nil` if it is not one of their forms.
    mutating func compileCondition(_ e: _XPathExpr) throws(QueryError) -> Condition? {
        switch e {
        case .path(false, let steps) where steps.count == 1 && steps[0].predicates.isEmpty
            && [.attribute, .child, .self, .descendant, .descendantOrSelf, .parent, .ancestor, .ancestorOrSelf,
                .followingSibling, .precedingSibling].contains(steps[0].axis):
            return .exists(steps[0].axis, try resolve(steps[0].test, axis: steps[0].axis, offset: steps[0].offset))
        case .binary(let op, .path(false, let steps), let other) where Self.isAttributeStep(steps):
            return try attributeCondition(steps[0], op, other, attributeFirst: true)
        case .binary(let op, let other, .path(false, let steps)) where Self.isAttributeStep(steps):
            return try attributeCondition(steps[0], op, other, attributeFirst: false)
        case .binary(let op, .path(false, let steps), let other) where Self.isChildStep(steps):
            return try childCondition(steps[0], op, other, childFirst: true)
        case .binary(let op, let other, .path(false, let steps)) where Self.isChildStep(steps):
            return try childCondition(steps[0], op, other, childFirst: false)
        case .binary(.and, let a, let b):
            guard let x = try compileCondition(a), let y = try compileCondition(b) else { return nil }
            return .and(x, y)
        case .binary(.or, let a, let b):
            guard let x = try compileCondition(a), let y = try compileCondition(b) else { return nil }
            return .or(x, y)
        case .function("not", let arguments, _) where arguments.count == 1:
            return try compileCondition(arguments[0]).map { .not($0) }
        default:
            return nil
        }
    }

    private mutating func attributeCondition(_ step: _Step, _ op: _BinaryOperator, _ other: _XPathExpr, attributeFirst: Bool) throws(QueryError) -> Condition? {
        let test = try resolve(step.test, axis: .attribute, offset: step.offset)
        guard let (literal, number) = Self.comparand(op, other) else { return nil }
        return .attribute(test, op, literal: literal, number: number, attributeFirst: attributeFirst)
    }

    /// What a compiled comparison compares with: a literal for `=` and `!=`, or a number
    /// for any of the six; `nil` for anything else (the general evaluation takes it).
    private static func comparand(_ op: _BinaryOperator, _ other: _XPathExpr) -> (literal: [UInt8]?, number: Double)? {
        switch (op, other) {
        case (.equal, .literal(let s)), (.notEqual, .literal(let s)):
            return (Array(s.utf8), 0)
        case (.equal, .number(let n)), (.notEqual, .number(let n)), (.less, .number(let n)), (.lessOrEqual, .number(let n)),
             (.greater, .number(let n)), (.greaterOrEqual, .number(let n)):
            return (nil, n)
        default:
            return nil
        }
    }

    /// `attribute::name` (or `@*`) with no predicates.
    static func isAttributeStep(_ steps: [_Step]) -> Bool {
        steps.count == 1 && steps[0].axis == .attribute && steps[0].predicates.isEmpty
    }

    /// `child::name` (or `*`, `text()`...) with no predicates.
    static func isChildStep(_ steps: [_Step]) -> Bool {
        steps.count == 1 && steps[0].axis == .child && steps[0].predicates.isEmpty
    }

    private mutating func childCondition(_ step: _Step, _ op: _BinaryOperator, _ other: _XPathExpr, childFirst: Bool) throws(QueryError) -> Condition? {
        let test = try resolve(step.test, axis: .child, offset: step.offset)
        guard let (literal, number) = Self.comparand(op, other) else { return nil }
        return .child(test, op, literal: literal, number: number, childFirst: childFirst)
    }

    /// Whether some child of `node` passing `test` has a string-value that compares so with
    /// `literal` (or, with no literal, whose number does with `n`): as the comparison of the
    /// node-set of those children with the value, with no node-set made. A child whose
    /// string-value is one text node's (most: `<price>12</price>`) is read in place.
    mutating func childHolds(_ test: Test, _ op: _BinaryOperator, literal: UnsafeBufferPointer<UInt8>?, number n: Double,
                             childFirst: Bool, _ node: _Key) throws(QueryError) -> Bool {
        guard !node.isAttached else { return false }
        let r = node.rank
        var c = r + 1
        let stop = r < 0 ? count : end(r)
        while c < stop {
            if passes(c, test) {
                let e = end(c), t = type(c)
                let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                let holds: Bool
                if t == textType || t == cdataType {
                    holds = Self.compares(view.value(slot(c)) ?? none, op, literal: literal, number: n, valueFirst: childFirst)
                } else if isElement(c) && (e == c + 1 || (e == c + 2 && (type(c + 1) == textType || type(c + 1) == cdataType))) {
                    // An element with no descendant, or one text child: that text, or none.
                    let value = e == c + 1 ? none : view.value(slot(c + 1)) ?? none
                    holds = Self.compares(value, op, literal: literal, number: n, valueFirst: childFirst)
                } else {
                    let bytes = try stringBytes(_Key(rank: c))
                    holds = bytes.withUnsafeBufferPointer { Self.compares($0, op, literal: literal, number: n, valueFirst: childFirst) }
                }
                if holds { return true }
            }
            c = end(c)
        }
        return false
    }

    /// Whether `value` compares so with `literal` (`=`, `!=`) or, with none, as a number
    /// with `n` (`value` on the left with `valueFirst`).
    @inline(__always)
    static func compares(_ value: UnsafeBufferPointer<UInt8>, _ op: _BinaryOperator, literal: UnsafeBufferPointer<UInt8>?, number n: Double,
                         valueFirst: Bool) -> Bool {
        if let literal { return _sameBytes(value, literal) == (op == .equal) }
        let m = number(String(decoding: value, as: UTF8.self))
        return valueFirst ? relation(op, m, n) : relation(op, n, m)
    }

    /// Whether an attribute named `name` of rank `owner` passes an attribute test.
    @inline(__always)
    mutating func attributePasses(_ name: Int32, _ test: Test, owner: Int32) -> Bool {
        switch test {
        case .type(let t): return name == t
        case .principal, .anyNode: return !info(name).isNamespaceDeclaration
        case .qualifiedAttribute(let local, let uri):
            let i = info(name)
            guard !i.isNamespaceDeclaration, let colon = i.name.firstIndex(of: ":") else { return false }
            let prefix = i.name[..<colon]
            if let local, i.name[i.name.index(after: colon)...] != local { return false }
            return namespaceURI(owner, prefix: prefix) == uri
        default: return false
        }
    }

    /// Whether `condition` holds at `node`.
    mutating func holds(_ condition: Condition, _ node: _Key) throws(QueryError) -> Bool {
        switch condition {
        case .exists(let axis, let test):
            return try exists(axis, test, node)
        case .attribute(let test, let op, let literal, let n, let attributeFirst):
            guard let literal else { return attributeHolds(test, op, literal: nil, number: n, attributeFirst: attributeFirst, node) }
            return literal.withUnsafeBufferPointer { attributeHolds(test, op, literal: $0, number: n, attributeFirst: attributeFirst, node) }
        case .child(let test, let op, let literal, let n, let childFirst):
            guard let literal else { return try childHolds(test, op, literal: nil, number: n, childFirst: childFirst, node) }
            return try literal.withUnsafeBufferPointer { (l) throws(QueryError) in try childHolds(test, op, literal: l, number: n, childFirst: childFirst, node) }
        case .and(let a, let b):
            if !(try holds(a, node)) { return false }
            return try holds(b, node)
        case .or(let a, let b):
            if try holds(a, node) { return true }
            return try holds(b, node)
        case .not(let a): return !(try holds(a, node))
        }
    }

    /// Whether the condition holds at `node`: its flat form (nothing retained or released
    /// on the way) if it has one.
    mutating func holds(_ c: _ConditionRef, _ node: _Key) throws(QueryError) -> Bool {
        guard let ops = c.ops else { return try holds(c.program.takeUnretainedValue().tree, node) }
        return try holds(ops, c.bytes, ops.count - 1, node)
    }

    private mutating func holds(_ ops: UnsafeMutableBufferPointer<_FlatCondition>, _ bytes: UnsafeBufferPointer<UInt8>, _ i: Int,
                                _ node: _Key) throws(QueryError) -> Bool {
        let op = ops[i]
        switch op.kind {
        case .exists: return try exists(op.axis, op.test.test, node)
        case .attribute:
            let literal = op.literalCount < 0 ? nil : UnsafeBufferPointer(rebasing: bytes[Int(op.literalStart) ..< Int(op.literalStart + op.literalCount)])
            return attributeHolds(op.test.test, op.op, literal: literal, number: op.number, attributeFirst: op.attributeFirst, node)
        case .child:
            let literal = op.literalCount < 0 ? nil : UnsafeBufferPointer(rebasing: bytes[Int(op.literalStart) ..< Int(op.literalStart + op.literalCount)])
            return try childHolds(op.test.test, op.op, literal: literal, number: op.number, childFirst: op.attributeFirst, node)
        case .and:
            if !(try holds(ops, bytes, Int(op.left), node)) { return false }
            return try holds(ops, bytes, Int(op.right), node)
        case .or:
            if try holds(ops, bytes, Int(op.left), node) { return true }
            return try holds(ops, bytes, Int(op.right), node)
        case .not: return !(try holds(ops, bytes, Int(op.left), node))
        }
    }

    /// Whether some node on `axis` from `node` passes `test`.
    mutating func exists(_ axis: _Axis, _ test: Test, _ node: _Key) throws(QueryError) -> Bool {
        if case .none = test { return false }
        switch axis {
        case .attribute:
            guard node != .root && !node.isAttached else { return false }
            for e in attributeRun(node.rank) where attributePasses(view.name(e), test, owner: node.rank) { return true }
            return false
        case .child:
            guard !node.isAttached else { return false }
            let r = node.rank
            var c = r + 1
            let stop = r < 0 ? count : end(r)
            while c < stop {
                if passes(c, test) { return true }
                c = end(c)
            }
            return false
        case .descendant, .descendantOrSelf:
            if axis == .descendantOrSelf && passes(key: node, test, axis: .self) { return true }
            guard !node.isAttached else { return false }
            let r = node.rank
            return try hasDescendant(from: r + 1, to: r < 0 ? count : end(r), test)
        case .parent:
            if node == .root { return false }
            let p = node.isAttached ? node.rank : parent(node.rank)
            return passes(key: p < 0 ? .root : _Key(rank: p), test, axis: .parent)
        case .ancestor, .ancestorOrSelf:
            if axis == .ancestorOrSelf && passes(key: node, test, axis: .self) { return true }
            if node == .root { return false }
            var r = node.isAttached ? node.rank : parent(node.rank)
            while r >= 0 {
                if passes(r, test) { return true }
                r = parent(r)
            }
            if case .anyNode = test { return true }  // the root node
            return false
        case .followingSibling, .precedingSibling:
            guard node != .root && !node.isAttached else { return false }
            let r = node.rank, p = parent(r)
            var s = axis == .followingSibling ? end(r) : (p < 0 ? 0 : p + 1)
            let stop = axis == .followingSibling ? (p < 0 ? count : end(p)) : r
            while s < stop {
                if passes(s, test) { return true }
                s = end(s)
            }
            return false
        default:
            return passes(key: node, test, axis: .self)
        }
    }

    /// Whether some attribute of `node` passing `test` compares so with `literal` (or, with
    /// no literal, with the number `n`).
    mutating func attributeHolds(_ test: Test, _ op: _BinaryOperator, literal: UnsafeBufferPointer<UInt8>?, number n: Double,
                                 attributeFirst: Bool, _ node: _Key) -> Bool {
        guard node != .root && !node.isAttached else { return false }
        for e in attributeRun(node.rank) where attributePasses(view.name(e), test, owner: node.rank) {
            if Self.compares(view.attributeValue(e), op, literal: literal, number: n, valueFirst: attributeFirst) { return true }
        }
        return false
    }

    mutating func binary(_ op: _BinaryOperator, _ a: _XPathExpr, _ b: _XPathExpr, _ context: _Context) throws(QueryError) -> _Value {
        switch op {
        case .or:
            if try boolean(evaluate(a, context)) { return .boolean(true) }
            return .boolean(try boolean(evaluate(b, context)))
        case .and:
            if !(try boolean(evaluate(a, context))) { return .boolean(false) }
            return .boolean(try boolean(evaluate(b, context)))
        case .plus, .minus, .times, .div, .mod:
            let x = try number(evaluate(a, context)), y = try number(evaluate(b, context))
            switch op {
            case .plus: return .number(x + y)
            case .minus: return .number(x - y)
            case .times: return .number(x * y)
            case .div: return .number(x / y)
            default: return .number(fmod(x, y))
            }
        default:
            return .boolean(try compare(op, evaluate(a, context), evaluate(b, context)))
        }
    }

    // MARK: Comparisons (section 3.4)

    mutating func compare(_ op: _BinaryOperator, _ a: _Value, _ b: _Value) throws(QueryError) -> Bool {
        switch (a, b) {
        case (.nodes(let x), .nodes(let y)):
            if op == .equal || op == .notEqual {
                let right = Set(try y.map { (k) throws(QueryError) in try stringValue(k) })
                for k in x {
                    let s = try stringValue(k)
                    if op == .equal ? right.contains(s) : (right.count > 1 || (right.count == 1 && !right.contains(s))) { return true }
                }
                return false
            }
            let right = try y.map { (k) throws(QueryError) in Self.number(try stringValue(k)) }
            for k in x {
                let n = Self.number(try stringValue(k))
                if right.contains(where: { Self.relation(op, n, $0) }) { return true }
            }
            return false
        case (.nodes(let x), _):
            return try compareNodes(x, op, b, nodesFirst: true)
        case (_, .nodes(let y)):
            return try compareNodes(y, op, a, nodesFirst: false)
        default:
            if op == .equal || op == .notEqual {
                let same: Bool
                if case .boolean = a {
                    same = try boolean(a) == boolean(b)
                } else if case .boolean = b {
                    same = try boolean(a) == boolean(b)
                } else if case .number = a {
                    same = try number(a) == number(b)
                } else if case .number = b {
                    same = try number(a) == number(b)
                } else {
                    same = try string(a) == string(b)
                }
                return op == .equal ? same : !same
            }
            return Self.relation(op, try number(a), try number(b))
        }
    }

    /// A node-set compared with a value that is not one: true if some node's string value
    /// (or number) compares so; against a boolean, the set's own truth.
    mutating func compareNodes(_ nodes: [_Key], _ op: _BinaryOperator, _ v: _Value, nodesFirst: Bool) throws(QueryError) -> Bool {
        switch v {
        case .boolean(let b):
            let x = !nodes.isEmpty
            return nodesFirst ? Self.relation(op, x ? 1 : 0, b ? 1 : 0, booleans: true) : Self.relation(op, b ? 1 : 0, x ? 1 : 0, booleans: true)
        case .number(let n):
            for k in nodes {
                let m = Self.number(try stringValue(k))
                if nodesFirst ? Self.relation(op, m, n) : Self.relation(op, n, m) { return true }
            }
            return false
        case .string(let s):
            if op == .equal || op == .notEqual {
                for k in nodes where (try stringValue(k) == s) == (op == .equal) { return true }
                return false
            }
            let n = Self.number(s)
            for k in nodes {
                let m = Self.number(try stringValue(k))
                if nodesFirst ? Self.relation(op, m, n) : Self.relation(op, n, m) { return true }
            }
            return false
        case .nodes: preconditionFailure("two node-sets are compared by compare(_:_:_:)")
        }
    }

    static func relation(_ op: _BinaryOperator, _ x: Double, _ y: Double, booleans: Bool = false) -> Bool {
        switch op {
        case .equal: return x == y
        case .notEqual: return x != y
        case .less: return x < y
        case .lessOrEqual: return x <= y
        case .greater: return x > y
        case .greaterOrEqual: return x >= y
        default: return false
        }
    }

    // MARK: Conversions (section 4)

    mutating func boolean(_ v: _Value) throws(QueryError) -> Bool {
        switch v {
        case .boolean(let b): return b
        case .number(let n): return n != 0 && !n.isNaN
        case .string(let s): return !s.isEmpty
        case .nodes(let k): return !k.isEmpty
        }
    }

    mutating func number(_ v: _Value) throws(QueryError) -> Double {
        switch v {
        case .boolean(let b): return b ? 1 : 0
        case .number(let n): return n
        case .string(let s): return Self.number(s)
        case .nodes(let k): return k.isEmpty ? .nan : Self.number(try stringValue(k[0]))
        }
    }

    mutating func string(_ v: _Value) throws(QueryError) -> String {
        switch v {
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n): return Self.string(n)
        case .string(let s): return s
        case .nodes(let k): return k.isEmpty ? "" : try stringValue(k[0])
        }
    }

    /// XPath's whitespace: space, tab, carriage return, line feed.
    static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }

    /// A string's number: optional whitespace, an optional minus, digits with an optional
    /// fraction (libxml2 also reads an exponent), optional whitespace; else NaN.
    static func number(_ s: String) -> Double {
        let u = Array(s.utf8)
        var i = 0
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while i < u.count && isBlank(u[i]) { i += 1 }
        let start = i
        if i < u.count && u[i] == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        while i < u.count && u[i] >= 0x30 && u[i] <= 0x39 { i += 1; digits += 1 }
        if i < u.count && u[i] == UInt8(ascii: ".") {
            i += 1
            while i < u.count && u[i] >= 0x30 && u[i] <= 0x39 { i += 1; digits += 1 }
        }
        guard digits > 0 else { return .nan }
        if i < u.count && (u[i] == UInt8(ascii: "e") || u[i] == UInt8(ascii: "E")) {
            var j = i + 1
            if j < u.count && (u[j] == UInt8(ascii: "-") || u[j] == UInt8(ascii: "+")) { j += 1 }
            while j < u.count && u[j] >= 0x30 && u[j] <= 0x39 { j += 1 }
            i = j
        }
        let end = i
        while i < u.count && isBlank(u[i]) { i += 1 }
        guard i == u.count else { return .nan }
        var text = String(decoding: u[start ..< end], as: UTF8.self)
        if text.hasSuffix("e") || text.hasSuffix("E") || text.hasSuffix("-") || text.hasSuffix("+") { text += "0" }
        if text.hasPrefix(".") { text = "0" + text } else if text.hasPrefix("-.") { text = "-0" + text.dropFirst() }
        return Double(text) ?? .nan
    }

    /// A number as XPath writes it, as libxml2 does: NaN, Infinity, -Infinity, an integer
    /// with no point, else the decimal form with up to 15 significant digits and no
    /// trailing zeros, in exponent notation past 10^9 or below 10^-5.
    static func string(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n > 0 ? "Infinity" : "-Infinity" }
        if n == 0 { return "0" }
        if n > Double(Int32.min) && n < Double(Int32.max) && n == n.rounded(.towardZero) { return String(Int(n)) }
        let magnitude = abs(n)
        var buffer = [CChar](repeating: 0, count: 128)
        let written: Int32
        if magnitude > 1e9 || magnitude < 1e-5 {
            written = withVaList([Int32(15 + 5 + 1), Int32(15 - 1), n]) { vsnprintf(&buffer, buffer.count, "%*.*e", $0) }
        } else {
            let integerPlace = Int32(log10(magnitude))
            let fraction = integerPlace > 0 ? 15 - integerPlace - 1 : 15 - integerPlace
            written = withVaList([fraction, n]) { vsnprintf(&buffer, buffer.count, "%0.*f", $0) }
        }
        var text = String(decoding: buffer.prefix(Int(max(0, written))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        text = String(text.drop(while: { $0 == " " }))
        // Trailing zeros of the fraction go (before an exponent, if any).
        let mantissaEnd = text.firstIndex(where: { $0 == "e" }) ?? text.endIndex
        var mantissa = text[..<mantissaEnd]
        let exponent = text[mantissaEnd...]
        if mantissa.contains(".") {
            while mantissa.hasSuffix("0") { mantissa = mantissa.dropLast() }
            if mantissa.hasSuffix(".") { mantissa = mantissa.dropLast() }
        }
        return String(mantissa) + exponent
    }

    // MARK: String values (section 5)

    /// The string value of a node: an element's (or the root's) text descendants joined,
    /// a text's, comment's, instruction's or attribute's own text.
    mutating func stringValue(_ k: _Key) throws(QueryError) -> String {
        String(decoding: try stringBytes(k), as: UTF8.self)
    }

    mutating func stringBytes(_ k: _Key) throws(QueryError) -> [UInt8] {
        if k.isNamespace { return Array(namespaceNodes(of: k.rank)[k.namespaceIndex].uri.utf8) }
        if k.isAttached {
            return Array(view.attributeValue(attributeRun(k.rank).lowerBound + k.attributeIndex))
        }
        let r = k.rank
        let from = r < 0 ? 0 : r, to = r < 0 ? count : end(r)
        if r >= 0 {
            let t = type(r)
            if t == textType || t == cdataType || t == commentType || info(t).kind == .processingInstruction {
                return view.value(slot(r)).map(Array.init) ?? []
            }
        }
        try spend(Int(to - from) / 4 + 1, at: 0)
        var out: [UInt8] = []
        var x = from
        while x < to {
            let t = type(x)
            if t == textType || t == cdataType, let v = view.value(slot(x)) { out.append(contentsOf: v) }
            x += 1
        }
        return out
    }

    // MARK: Functions (section 4)

    mutating func function(_ name: String, _ arguments: [_XPathExpr], _ context: _Context, offset: Int) throws(QueryError) -> _Value {
        func arity(_ range: ClosedRange<Int>) throws(QueryError) {
            guard range.contains(arguments.count) else {
                let wanted = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                throw error(offset, "\(name)() takes \(wanted) argument(s), not \(arguments.count)")
            }
        }
        func argument(_ i: Int) throws(QueryError) -> _Value { try evaluate(arguments[i], context) }
        func stringArgument(_ i: Int) throws(QueryError) -> String { try string(argument(i)) }
        func numberArgument(_ i: Int) throws(QueryError) -> Double { try number(argument(i)) }
        func nodesArgument(_ i: Int) throws(QueryError) -> [_Key] {
            guard case .nodes(let k) = try argument(i) else { throw error(offset, "\(name)() takes a node-set") }
            return k
        }
        /// The node a name function asks about: the context node, or the argument's first.
        func subject() throws(QueryError) -> _Key? {
            try arity(0 ... 1)
            return arguments.isEmpty ? context.node : try nodesArgument(0).first
        }
        switch name {
        case "last":
            try arity(0 ... 0)
            return .number(Double(context.size))
        case "position":
            try arity(0 ... 0)
            return .number(Double(context.position))
        case "count":
            try arity(1 ... 1)
            return .number(Double(try nodesArgument(0).count))
        case "id":
            try arity(1 ... 1)
            var tokens = Set<String>()
            let v = try argument(0)
            if case .nodes(let k) = v {
                for n in k { for t in try stringValue(n).split(whereSeparator: { Self.isSpace($0.unicodeScalars.first!) }) { tokens.insert(String(t)) } }
            } else {
                for t in try string(v).split(whereSeparator: { Self.isSpace($0.unicodeScalars.first!) }) { tokens.insert(String(t)) }
            }
            return .nodes(try index.isHTML ? elements(withHTMLID: tokens) : elements(withXMLID: tokens))
        case "local-name", "name", "namespace-uri":
            guard let k = try subject() else { return .string("") }
            let (qualified, local, uri) = names(of: k)
            return .string(name == "name" ? qualified : name == "local-name" ? local : uri)
        case "string":
            try arity(0 ... 1)
            return .string(arguments.isEmpty ? try stringValue(context.node) : try stringArgument(0))
        case "concat":
            guard arguments.count >= 2 else { throw error(offset, "concat() takes 2 or more arguments, not \(arguments.count)") }
            var out = ""
            for i in arguments.indices { out += try stringArgument(i) }
            return .string(out)
        case "starts-with":
            try arity(2 ... 2)
            return .boolean(try stringArgument(0).utf8.starts(with: try stringArgument(1).utf8))
        case "contains":
            try arity(2 ... 2)
            let needle = try stringArgument(1)
            let haystack = try stringArgument(0)
            return .boolean(needle.isEmpty || Self.range(of: needle, in: haystack) != nil)
        case "substring-before", "substring-after":
            try arity(2 ... 2)
            let s = try stringArgument(0), t = try stringArgument(1)
            guard let r = Self.range(of: t, in: s) else { return .string("") }
            let u = Array(s.utf8)
            return .string(String(decoding: name == "substring-before" ? u[..<r.lowerBound] : u[r.upperBound...], as: UTF8.self))
        case "substring":
            try arity(2 ... 3)
            let scalars = Array(try stringArgument(0).unicodeScalars)
            let start = Self.round(try numberArgument(1))
            let stop = arguments.count == 3 ? start + Self.round(try numberArgument(2)) : .infinity
            var out = String.UnicodeScalarView()
            for (i, c) in scalars.enumerated() {
                let p = Double(i + 1)
                if p >= start && p < stop { out.append(c) }
            }
            return .string(String(out))
        case "string-length":
            try arity(0 ... 1)
            let s = arguments.isEmpty ? try stringValue(context.node) : try stringArgument(0)
            return .number(Double(s.unicodeScalars.count))
        case "normalize-space":
            try arity(0 ... 1)
            let s = arguments.isEmpty ? try stringValue(context.node) : try stringArgument(0)
            return .string(s.unicodeScalars.split(whereSeparator: Self.isSpace).map { String(String.UnicodeScalarView($0)) }.joined(separator: " "))
        case "translate":
            try arity(3 ... 3)
            let s = try stringArgument(0)
            let from = Array(try stringArgument(1).unicodeScalars), to = Array(try stringArgument(2).unicodeScalars)
            var map: [Unicode.Scalar: Unicode.Scalar?] = [:]
            for (i, c) in from.enumerated() where map[c] == nil { map[c] = i < to.count ? to[i] : .some(nil) }
            var out = String.UnicodeScalarView()
            for c in s.unicodeScalars {
                if let m = map[c] {
                    if let m { out.append(m) }
                } else {
                    out.append(c)
                }
            }
            return .string(String(out))
        case "boolean":
            try arity(1 ... 1)
            return .boolean(try boolean(argument(0)))
        case "not":
            try arity(1 ... 1)
            return .boolean(!(try boolean(argument(0))))
        case "true", "false":
            try arity(0 ... 0)
            return .boolean(name == "true")
        case "lang":
            try arity(1 ... 1)
            let wanted = try stringArgument(0).lowercased()
            guard let lang = xmlLang(of: context.node)?.lowercased() else { return .boolean(false) }
            return .boolean(lang == wanted || lang.hasPrefix(wanted + "-"))
        case "number":
            try arity(0 ... 1)
            return .number(arguments.isEmpty ? Self.number(try stringValue(context.node)) : try numberArgument(0))
        case "sum":
            try arity(1 ... 1)
            var total = 0.0
            for k in try nodesArgument(0) { total += Self.number(try stringValue(k)) }
            return .number(total)
        case "floor":
            try arity(1 ... 1)
            return .number(floorValue(try numberArgument(0)))
        case "ceiling":
            try arity(1 ... 1)
            return .number(ceilingValue(try numberArgument(0)))
        case "round":
            try arity(1 ... 1)
            return .number(Self.round(try numberArgument(0)))
        default:
            throw error(offset, "unknown function \(name)()")
        }
    }

    /// XPath's round(): the nearest integer, halves up; NaN, infinities and zeros as they
    /// are; -0.5 ... -0 rounds to -0.
    static func round(_ x: Double) -> Double {
        if x.isNaN || x.isInfinite || x == 0 { return x }
        if x < 0 && x >= -0.5 { return -0.0 }
        return floorValue(x + 0.5)
    }

    /// Where `needle`'s bytes first occur in `haystack`'s, as a byte range.
    static func range(of needle: String, in haystack: String) -> Range<Int>? {
        let n = Array(needle.utf8), h = Array(haystack.utf8)
        if n.isEmpty { return 0 ..< 0 }
        guard n.count <= h.count else { return nil }
        for i in 0 ... h.count - n.count where h[i] == n[0] && h[i ..< i + n.count].elementsEqual(n) { return i ..< i + n.count }
        return nil
    }

    /// A node's qualified name, local name and namespace URI (the `xml` prefix's only:
    /// other prefixes are not resolved yet).
    mutating func names(of k: _Key) -> (String, String, String) {
        if k == .root { return ("", "", "") }
        if k.isNamespace {
            // A namespace node's name is its prefix; it is in no namespace.
            let prefix = namespaceNodes(of: k.rank)[k.namespaceIndex].prefix
            return (prefix, prefix, "")
        }
        let name: String
        if k.isAttached {
            name = info(view.name(attributeRun(k.rank).lowerBound + k.attributeIndex)).name
        } else {
            let i = info(type(k.rank))
            switch i.kind {
            case .element: name = i.name
            case .processingInstruction: return (String(i.name.dropFirst()), String(i.name.dropFirst()), "")
            default: return ("", "", "")
            }
        }
        guard let colon = name.firstIndex(of: ":") else {
            // An unprefixed element is in the default namespace in scope; an attribute in none.
            return (name, name, k.isAttached ? "" : namespaceURI(k.rank, prefix: nil))
        }
        let prefix = name[..<colon]
        return (name, String(name[name.index(after: colon)...]), namespaceURI(k.rank, prefix: prefix))
    }

    /// The `xml:lang` of a node: its own or its nearest ancestor's.
    mutating func xmlLang(of k: _Key) -> String? {
        guard let lang = TypeRegistry.shared.existingTypeID(named: "xml:lang")?.rawValue, k != .root else { return nil }
        var r = k.rank
        while r >= 0 {
            for e in attributeRun(r) where view.name(e) == lang {
                return String(decoding: view.attributeValue(e), as: UTF8.self)
            }
            r = parent(r)
        }
        return nil
    }

    /// In an HTML document, for each of `tokens` the first element whose `id` is that (or
    /// an `a` whose `name` is), in document order: the ids libxml2's HTML tree has (it keeps
    /// an id's first element).
    mutating func elements(withHTMLID tokens: Set<String>) throws(QueryError) -> [_Key] {
        let registry = TypeRegistry.shared
        let id = registry.existingTypeID(named: "id")?.rawValue ?? -1, name = registry.existingTypeID(named: "name")?.rawValue ?? -1
        let anchor = registry.existingTypeID(named: "a")?.rawValue ?? -1
        guard id >= 0 || (name >= 0 && anchor >= 0), !tokens.isEmpty else { return [] }
        try spend(Int(count), at: 0)
        var left = tokens
        var out: [_Key] = []
        for r in 0 ..< count where !left.isEmpty {
            var taken = false
            for e in attributeRun(r) {
                let n = view.name(e)
                guard n == id || (n == name && type(r) == anchor) else { continue }
                let value = String(decoding: view.attributeValue(e), as: UTF8.self)
                if left.remove(value) != nil && !taken { out.append(_Key(rank: r)); taken = true }
            }
        }
        return out
    }

    /// The elements whose `xml:id` is one of `tokens`, in document order.
    mutating func elements(withXMLID tokens: Set<String>) throws(QueryError) -> [_Key] {
        guard let id = TypeRegistry.shared.existingTypeID(named: "xml:id")?.rawValue, !tokens.isEmpty else { return [] }
        try spend(Int(count), at: 0)
        var out: [_Key] = []
        for r in 0 ..< count {
            for e in attributeRun(r) where view.name(e) == id {
                if tokens.contains(String(decoding: view.attributeValue(e), as: UTF8.self)) { out.append(_Key(rank: r)) }
            }
        }
        return out
    }
}

@inline(__always) private func floorValue(_ x: Double) -> Double { x.rounded(.down) }
@inline(__always) private func ceilingValue(_ x: Double) -> Double { x.rounded(.up) }

/// A node test with no reference in it (see ``_FlatCondition``).
enum _FlatTest {
    case none, principal, anyNode, text, comment
    case type(Int32)

    init?(_ test: _XPathEvaluator.Test) {
        switch test {
        case .none: self = .none
        case .principal: self = .principal
        case .anyNode: self = .anyNode
        case .text: self = .text
        case .comment: self = .comment
        case .type(let t): self = .type(t)
        default: return nil
        }
    }

    var test: _XPathEvaluator.Test {
        switch self {
        case .none: .none
        case .principal: .principal
        case .anyNode: .anyNode
        case .text: .text
        case .comment: .comment
        case .type(let t): .type(t)
        }
    }
}

/// One node of a condition laid out flat: plain values only, its operands by index.
struct _FlatCondition {
    enum Kind { case exists, attribute, child, and, or, not }
    var kind: Kind
    var axis: _Axis = .self
    var test: _FlatTest = .none
    var op: _BinaryOperator = .equal
    var attributeFirst = true
    var number = 0.0
    /// The literal's bytes in the program's buffer; a count of -1 for none.
    var literalStart: Int32 = 0, literalCount: Int32 = -1
    var left: Int32 = 0, right: Int32 = 0
}

/// A compiled predicate condition, shared by the threads of one evaluation (immutable once
/// made, hence `@unchecked Sendable`): the condition, and when each of its tests is a plain
/// value, the same laid out flat (its root last), which a check on a node reads with no
/// reference counted: an indirect enum retains and releases its boxes on each match, which
/// on two threads also makes them fight over the same counts.
final class _ConditionProgram: @unchecked Sendable {
    let tree: _XPathEvaluator.Condition
    /// Whether the condition reads its node's attributes (so that a loop asks for them ahead).
    let readsAttributes: Bool
    let ops: UnsafeMutableBufferPointer<_FlatCondition>?
    let bytes: UnsafeMutableBufferPointer<UInt8>

    init(_ condition: _XPathEvaluator.Condition) {
        tree = condition
        func reads(_ c: _XPathEvaluator.Condition) -> Bool {
            switch c {
            case .exists(let axis, _): axis == .attribute
            case .attribute: true
            case .child: false
            case .and(let a, let b), .or(let a, let b): reads(a) || reads(b)
            case .not(let a): reads(a)
            }
        }
        readsAttributes = reads(condition)
        var flat: [_FlatCondition] = []
        var literals: [UInt8] = []
        func add(_ c: _XPathEvaluator.Condition) -> Int32? {
            var op: _FlatCondition
            switch c {
            case .exists(let axis, let test):
                guard let t = _FlatTest(test) else { return nil }
                op = _FlatCondition(kind: .exists, axis: axis, test: t)
            case .attribute(let test, let o, let literal, let n, let attributeFirst),
                 .child(let test, let o, let literal, let n, let attributeFirst):
                guard let t = _FlatTest(test) else { return nil }
                var kind = _FlatCondition.Kind.attribute
                if case .child = c { kind = .child }
                op = _FlatCondition(kind: kind, test: t, op: o, attributeFirst: attributeFirst, number: n)
                if let literal {
                    op.literalStart = Int32(literals.count)
                    op.literalCount = Int32(literal.count)
                    literals += literal
                }
            case .and(let a, let b), .or(let a, let b):
                guard let x = add(a), let y = add(b) else { return nil }
                if case .and = c { op = _FlatCondition(kind: .and) } else { op = _FlatCondition(kind: .or) }
                (op.left, op.right) = (x, y)
            case .not(let a):
                guard let x = add(a) else { return nil }
                op = _FlatCondition(kind: .not)
                op.left = x
            }
            flat.append(op)
            return Int32(flat.count - 1)
        }
        let root = add(condition)
        bytes = .allocate(capacity: max(1, literals.count))
        _ = bytes.initialize(from: literals)
        if root != nil {
            let made = UnsafeMutableBufferPointer<_FlatCondition>.allocate(capacity: flat.count)
            _ = made.initialize(from: flat)
            ops = made
        } else {
            ops = nil
        }
    }

    /// A reference to this program that a loop copies with no count: valid while the
    /// program lives (its owner keeps it alive across the loop).
    var ref: _ConditionRef { _ConditionRef(ops: ops, bytes: UnsafeBufferPointer(bytes), program: .passUnretained(self), readsAttributes: readsAttributes) }

    deinit {
        if let ops {
            ops.deinitialize()
            ops.deallocate()
        }
        bytes.deallocate()
    }
}

/// A ``_ConditionProgram`` as plain values (see ``_ConditionProgram/ref``): what a scan
/// checks on each node, shared by the threads of one evaluation, counted by none of them.
struct _ConditionRef: @unchecked Sendable {
    let ops: UnsafeMutableBufferPointer<_FlatCondition>?
    let bytes: UnsafeBufferPointer<UInt8>
    let program: Unmanaged<_ConditionProgram>
    let readsAttributes: Bool
}
