import CLibXML2
import RelativeViewCore
import RelativeViewFixtures
import RelativeViewImport
@testable import RelativeViewQuery

/// What an XPath expression gave, in a form both sides can write: a node by its place in
/// document order among the tree's nodes (elements, text, CDATA, comments, processing
/// instructions; from 0), an attribute by its element's place and its name, the document;
/// or a boolean, number or string; or an error.
enum Answer: Equatable, CustomStringConvertible {
    case nodes([String])
    case boolean(Bool)
    case number(Double)
    case string(String)
    case error

    static func == (a: Answer, b: Answer) -> Bool {
        switch (a, b) {
        case (.nodes(let x), .nodes(let y)):
            // libxml2 does not order namespace nodes against other nodes (its comparison
            // answers "after" for any of them): sets that hold one compare unordered.
            if x.contains(where: { $0.hasPrefix("ns") }) || y.contains(where: { $0.hasPrefix("ns") }) { return x.sorted() == y.sorted() }
            return x == y
        case (.boolean(let x), .boolean(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.string(let x), .string(let y)): return x == y
        case (.error, .error): return true
        default: return false
        }
    }

    var description: String {
        switch self {
        case .nodes(let n): return "nodes(\(n.count)) \(n.prefix(12).joined(separator: " "))"
        case .boolean(let b): return "boolean \(b)"
        case .number(let n): return "number \(n)"
        case .string(let s): return "string \(s.debugDescription)"
        case .error: return "error"
        }
    }
}

/// libxml2's answers for one document.
final class LibXML2Document {
    private let doc: xmlDocPtr
    /// Each tree node's place in document order.
    private var place: [UnsafeMutableRawPointer: Int] = [:]

    /// `text` parsed as XML, or with `html` by libxml2's HTML parser (with the options of
    /// the package's HTML import).
    init?(_ text: String, html: Bool = false) {
        let bytes = Array(text.utf8)
        guard let doc = bytes.withUnsafeBufferPointer({ b in
            b.withMemoryRebound(to: CChar.self) { c in
                html ? htmlReadMemory(c.baseAddress, Int32(c.count), "doc.html", nil, Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue))
                    : xmlReadMemory(c.baseAddress, Int32(c.count), "doc.xml", nil, Int32(XML_PARSE_NONET.rawValue))
            }
        }) else { return nil }
        self.doc = doc
        var n = 0
        // Document order: a node, then its children's subtrees.
        var stack: [xmlNodePtr] = []
        var c = doc.pointee.children
        while let node = c { stack.append(node); c = node.pointee.next }
        stack.reverse()
        while let node = stack.popLast() {
            switch node.pointee.type {
            case XML_ELEMENT_NODE, XML_TEXT_NODE, XML_CDATA_SECTION_NODE, XML_COMMENT_NODE, XML_PI_NODE:
                place[UnsafeMutableRawPointer(node)] = n
                n += 1
            default: continue
            }
            var kids: [xmlNodePtr] = []
            var k = node.pointee.children
            while let kid = k { kids.append(kid); k = kid.pointee.next }
            stack.append(contentsOf: kids.reversed())
        }
    }

    deinit { xmlFreeDoc(doc) }

    func answer(_ expression: String, namespaces: [String: String] = [:]) -> Answer {
        guard let context = xmlXPathNewContext(doc) else { return .error }
        defer { xmlXPathFreeContext(context) }
        for (prefix, uri) in namespaces { _ = xmlXPathRegisterNs(context, prefix, uri) }
        guard let object = xmlXPathEvalExpression(expression, context) else { return .error }
        defer { xmlXPathFreeObject(object) }
        switch object.pointee.type {
        case XPATH_NODESET:
            var out: [String] = []
            if let set = object.pointee.nodesetval, let tab = set.pointee.nodeTab {
                for i in 0 ..< Int(set.pointee.nodeNr) {
                    guard let node = tab[i] else { continue }
                    switch node.pointee.type {
                    case XML_DOCUMENT_NODE, XML_HTML_DOCUMENT_NODE: out.append("doc")
                    case XML_ATTRIBUTE_NODE:
                        let owner = place[UnsafeMutableRawPointer(node.pointee.parent)] ?? -1
                        out.append("a\(owner):\(String(cString: node.pointee.name))")
                    case XML_NAMESPACE_DECL:
                        // libxml2's copy of a namespace node keeps its element in `next`.
                        let ns = UnsafeMutableRawPointer(node).assumingMemoryBound(to: xmlNs.self)
                        let owner = ns.pointee.next.map { place[UnsafeMutableRawPointer($0)] ?? -1 } ?? -1
                        out.append("ns\(owner):\(ns.pointee.prefix.map { String(cString: $0) } ?? "")")
                    default: out.append("n\(place[UnsafeMutableRawPointer(node)] ?? -1)")
                    }
                }
            }
            return .nodes(out)
        case XPATH_BOOLEAN: return .boolean(object.pointee.boolval != 0)
        case XPATH_NUMBER: return .number(object.pointee.floatval)
        case XPATH_STRING: return .string(object.pointee.stringval.map { String(cString: $0) } ?? "")
        default: return .error
        }
    }
}

/// Ours, in the same form.
func ourAnswer(_ tree: ViewTree, _ expression: String, namespaces: [String: String] = [:]) -> Answer {
    do {
        let value = try tree.evaluate(try XPath(expression, namespaces: namespaces))
        switch value {
        case .boolean(let b): return .boolean(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .nodes(let nodes):
            let index = _DocumentIndex.of(tree)
            return .nodes(nodes.map { n in
                guard let node = n.node else { return "doc" }
                let rank = index.rank?[Int(node.index)] ?? node.index
                if let name = n.attributeName { return "a\(rank):\(name)" }
                if let prefix = n.namespacePrefix { return "ns\(rank):\(prefix)" }
                return "n\(rank)"
            })
        }
    } catch {
        return .error
    }
}

/// Random documents and expressions for the differential tests.
struct XPathFuzz {
    var rng: SplitMix64
    static let names = ["a", "b", "c", "d"]
    static let attributeNames = ["id", "x", "y"]
    static let values = ["1", "2", "10", "abc", "a b", " 3 ", "-1.5", ""]
    static let texts = ["1", "2.5", "foo", "bar baz", " ", "-3", "a&amp;b", "x"]

    /// Whether steps may name elements and attributes with the prefixes `q` (bound to the
    /// documents' `urn:p`), `d` (`urn:d`) and `e` (`urn:e`).
    var prefixes = false
    static let bindings = ["q": "urn:p", "d": "urn:d", "e": "urn:e"]

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0 ..< xs.count, using: &rng)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0 ..< 100, using: &rng) < percent }

    /// A random document of about `elements` elements. `mixed`: text and CDATA sections
    /// between elements too; else text only as an element's one child and no CDATA (so that
    /// moving elements never leaves two texts or two CDATA sections side by side, which
    /// libxml2 reads back as one). `namespaces`: a prefix and default namespaces declared
    /// and undeclared.
    mutating func document(elements: Int, mixed: Bool = true, namespaces: Bool = false) -> String {
        var out = ""
        var made = 0
        func element(_ depth: Int) {
            made += 1
            var name = pick(Self.names)
            if namespaces && depth > 0 && chance(15) { name = "p:" + name }
            out += "<\(name)"
            if namespaces && depth == 0 { out += " xmlns:p=\"urn:p\"" + (chance(50) ? " xmlns=\"urn:d\"" : "") }
            if namespaces && depth > 0 && chance(12) { out += chance(50) ? " xmlns=\"\"" : " xmlns=\"urn:e\"" }
            for a in Self.attributeNames where chance(35) { out += " \(a)=\"\(pick(Self.values))\"" }
            out += ">"
            let kids = depth == 0 ? 10 : depth > 5 ? 0 : Int.random(in: 0 ... 4, using: &rng)
            var lastWasText = false
            for _ in 0 ..< kids where made < elements {
                if mixed && !lastWasText && chance(30) {
                    out += pick(Self.texts)
                    lastWasText = true
                    continue
                }
                lastWasText = false
                if chance(6) { out += "<!--c\(Int.random(in: 0 ..< 3, using: &rng))-->"; continue }
                if chance(4) { out += "<?p data?>"; continue }
                if mixed && chance(3) { out += "<![CDATA[cd]]>"; continue }
                element(depth + 1)
            }
            if (mixed || kids == 0) && !lastWasText && chance(40) { out += pick(Self.texts) }
            out += "</\(name)>"
        }
        element(0)
        return out
    }

    mutating func test() -> String {
        switch Int.random(in: 0 ..< 12, using: &rng) {
        case 0: return "*"
        case 1: return "node()"
        case 2: return "text()"
        case 3: return "comment()"
        case 4: return "processing-instruction()"
        default: return pick(Self.names)
        }
    }

    mutating func predicate(_ depth: Int) -> String {
        switch Int.random(in: 0 ..< 27, using: &rng) {
        case 0: return "\(Int.random(in: 1 ... 3, using: &rng))"
        case 1: return "last()"
        case 2: return "position() > 1"
        case 3: return "@\(pick(Self.attributeNames))"
        case 4: return "@\(pick(Self.attributeNames)) = '\(pick(Self.values))'"
        case 5: return "@\(pick(Self.attributeNames)) > 1"
        case 6: return "not(@\(pick(Self.attributeNames)))"
        case 7: return pick(Self.names)
        case 8: return "count(\(pick(Self.names))) > 1"
        case 9: return "contains(., 'a')"
        case 10: return "string-length(@x) = 1"
        case 11: return "name() = '\(pick(Self.names))'"
        case 12: return "position() = last()"
        case 13: return ". = '\(pick(Self.texts))'"
        case 14: return "\(pick(Self.names))[\(Int.random(in: 1 ... 2, using: &rng))]"
        case 15: return "@* = 1"
        case 16: return depth < 2 ? path(depth + 1, relative: true) : "text()"
        case 17: return "\(pick(["ancestor", "ancestor-or-self", "parent", "following-sibling", "preceding-sibling"]))::\(pick(Self.names))"
        case 18: return ".//\(pick(Self.names))"
        case 19: return "position() mod 2 = 0"
        case 20: return "not(descendant-or-self::\(test()))"
        // A child's string-value against a value, both ways round (a compiled condition).
        case 21: return "\(test()) = '\(pick(Self.texts))'"
        case 22: return "\(test()) != '\(pick(Self.texts))'"
        case 23: return "\(pick(Self.names)) \(pick(["<", "<=", ">", ">=", "=", "!="])) \(Int.random(in: 0 ... 3, using: &rng))"
        case 24: return "\(Int.random(in: 0 ... 3, using: &rng)) \(pick(["<", ">="])) \(test())"
        case 25: return "'\(pick(Self.texts))' = \(test()) or not(* != '\(pick(Self.texts))')"
        default: return "number(@y) < 5 or @x = 'abc'"
        }
    }

    mutating func step(_ depth: Int) -> String {
        let axes = ["child", "descendant", "parent", "ancestor", "following-sibling", "preceding-sibling", "following",
                    "preceding", "attribute", "self", "descendant-or-self", "ancestor-or-self", "namespace"]
        var s: String
        if chance(50) {
            s = (prefixes && chance(40) ? pick(["q:", "d:", "e:"]) : "") + (prefixes && chance(10) ? "*" : pick(Self.names))
        } else if chance(10) {
            s = "@" + (chance(50) ? "*" : pick(Self.attributeNames))
        } else if chance(8) {
            s = chance(50) ? "." : ".."
            return s
        } else {
            let axis = pick(axes)
            s = "\(axis)::" + (axis == "attribute" ? (chance(50) ? "*" : pick(Self.attributeNames))
                : axis == "namespace" ? pick(["*", "p", "xml", "node()", "q"]) : test())
        }
        for _ in 0 ..< (chance(40) ? Int.random(in: 1 ... 2, using: &rng) : 0) { s += "[\(predicate(depth))]" }
        return s
    }

    mutating func path(_ depth: Int = 0, relative: Bool = false) -> String {
        var s = relative ? "" : pick(["/", "//", "//", "//", "//", "/*/"])
        let steps = Int.random(in: 1 ... 3, using: &rng)
        for k in 0 ..< steps {
            if k > 0 { s += chance(30) ? "//" : "/" }
            s += step(depth)
        }
        return s
    }

    mutating func expression() -> String {
        switch Int.random(in: 0 ..< 20, using: &rng) {
        case 0: return "count(\(path()))"
        case 1: return "sum(\(path())/@x)"
        case 2: return "string(\(path()))"
        case 3: return "boolean(\(path()))"
        case 4: return "\(path()) | \(path())"
        case 5: return "\(pick(["name", "local-name", "namespace-uri"]))(\(path()))"
        case 6: return "number(\(path()))"
        case 7: return "normalize-space(\(path()))"
        case 8: return "\(path()) = \(path())"
        case 9: return "\(path()) != '\(pick(Self.texts))'"
        case 10: return "\(path()) < \(Int.random(in: 0 ... 3, using: &rng))"
        case 11: return "(\(path()))[\(Int.random(in: 1 ... 3, using: &rng))]"
        case 12: return "substring(string(\(path())), \(Int.random(in: 0 ... 3, using: &rng)), 2)"
        case 13: return "translate(string(\(path())), 'ab', 'B')"
        case 14: return "\(pick(["1 div 0", "-1 div 0", "0 div 0", "7 mod 3", "-7 mod 3", "round(2.5)", "round(-2.5)", "floor(-1.5)", "ceiling(1.2)", "1.5 + 1", "0.1 + 0.2", "1 div 3", "123456789012", "0.000001", "-0.5 * 0"]))"
        case 15: return "string(\(pick(["1 div 3", "100000000000", "0.0000012", "2.5", "-7", "1 div 0", "0 div 0", "12345.678"])))"
        default: return path()
        }
    }
}
