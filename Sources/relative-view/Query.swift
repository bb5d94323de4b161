import ArgumentParser
import RelativeViewCore
import RelativeViewImport
import RelativeViewQuery
import RelativeViewSnapshot

/// `relative-view query FILE (--css SELECTOR | --xpath EXPR | --jsonpath QUERY)`: the
/// elements a selector matches, the nodes (or the value) an expression selects, or a
/// JSONPath query's nodelist.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Ask a document or a snapshot a question: a CSS selector, an XPath 1.0 expression or a JSONPath query.",
        discussion: """
            Of a CSS selector or an XPath expression, --print preorder (the default) prints each selected element's number in document \
            order among all the elements (the root element is 0), one a line; paths prints \
            each selected node's path (/a[1]/b[2], /a[1]/@id, /a[1]/text()[1]); xml prints \
            each selected node written as XML; count prints how many nodes were selected. An \
            expression whose value is a number, a string or a boolean prints that value. \
            With --repeat N the query is evaluated N times on the loaded tree and the last \
            line on standard error is best_ns=<integer> median_ns=<integer> \
            matches=<integer> (the evaluation alone, the load excluded). Of a JSONPath query \
            (RFC 9535), --print values (the default) prints the nodelist's values as one JSON \
            array, paths their normalized paths as one JSON array, count how many nodes there \
            are. A wrong selector, expression or query is an error naming its place, exit \
            status 1.
            """)

    @OptionGroup var source: InputOptions

    @Option(help: "A CSS selector list (Selectors Level 3, with :is(), :not() and :has()).")
    var css: String?

    @Option(help: "An XPath 1.0 expression.")
    var xpath: String?

    @Option(help: "A JSONPath query (RFC 9535).")
    var jsonpath: String?

    @Option(name: .customLong("namespace"), help: "A prefix the XPath expression uses and its namespace URI, as PREFIX=URI (repeatable).")
    var namespaces: [String] = []

    enum Output: String, ExpressibleByArgument, CaseIterable { case preorder, paths, xml, count, values }

    @Option(name: .customLong("print"), help: "What to print: preorder (the default), paths, xml or count; of a JSONPath query, values (the default), paths or count.")
    var output: Output?

    @Option(help: "Evaluate this many times and report the times on standard error.")
    var `repeat`: Int = 1

    @Option(help: ArgumentHelp(
        "Before evaluating, move this many random element subtrees (a benchmark of the index after mutation).",
        discussion: "Each move takes an element other than the root element to the end of a random element outside its subtree (seeded by --seed). The answers are the moved tree's. With --repeat, the line before the last on standard error gives the same query's times on the same document loaded afresh (pristine_best_ns=<integer> pristine_median_ns=<integer>), five evaluations of each tree in turn."))
    var moves: Int = 0

    @Option(help: "The seed of --moves.")
    var seed: UInt64 = 1

    @Option(help: "The threads a scan of many nodes may share (the answer is the same).")
    var threads: Int = 1

    @Flag(help: ArgumentHelp(
        "Report on standard error how long reading the input and the first evaluation took.",
        discussion: "A line load_ns=<integer> first_ns=<integer> (before --repeat's): the nanoseconds from the start of reading the input to a tree a query can read (a document parsed, or a snapshot mapped and the sections the query reads checked), and of the first evaluation. Their sum is a cold query's time within the process, as a library would see it (the process's start, its argument parsing and its exit not counted)."))
    var timings = false

    func validate() throws {
        guard `repeat` >= 1 else { throw ValidationError("--repeat takes a count of 1 or more, not \(`repeat`)") }
        guard threads >= 1 && threads <= 256 else { throw ValidationError("--threads takes 1 to 256, not \(threads)") }
        guard moves >= 0 else { throw ValidationError("--moves takes a count of 0 or more, not \(moves)") }
        guard [css, xpath, jsonpath].compactMap({ $0 }).count == 1 else { throw ValidationError("give one of --css, --xpath and --jsonpath") }
        if let output {
            if jsonpath != nil, output == .preorder || output == .xml {
                throw ValidationError("--print \(output.rawValue) is for CSS and XPath: a JSONPath query prints values, paths or count")
            }
            if jsonpath == nil, output == .values { throw ValidationError("--print values is for JSONPath: give preorder, paths, xml or count") }
        }
        for n in namespaces where !n.contains("=") || n.hasPrefix("=") {
            throw ValidationError("--namespace takes PREFIX=URI, not '\(n)'")
        }
    }

    /// A compiled query of either language.
    enum Compiled {
        case css(CSSSelector)
        case xpath(XPath)
        case jsonpath(JSONPath)
    }

    mutating func run() throws {
        let text = css ?? xpath ?? jsonpath ?? ""
        let query: Compiled
        do {
            var bindings: [String: String] = [:]
            for n in namespaces {
                let parts = n.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                bindings[String(parts[0])] = String(parts[1])
            }
            if let css {
                query = .css(try CSSSelector(css))
            } else if let jsonpath {
                query = .jsonpath(try JSONPath(jsonpath))
            } else {
                query = .xpath(try XPath(text, namespaces: bindings))
            }
        } catch {
            Loading.fail("\(error)\n  \(text)\n  \(String(repeating: " ", count: error.offset))^")
        }
        // A snapshot's count or element numbers come from its sections read in place, each
        // checked as the query first reads it, not from a whole load (see `answerInPlace`).
        if moves == 0, jsonpath == nil, (output ?? .preorder) == .count || (output ?? .preorder) == .preorder,
           Self.isSnapshot(source),
           let answered = Self.answerInPlace(query, path: source.input, count: output == .count, repeat: `repeat`, threads: threads) {
            var out: [UInt8] = []
            for line in answered.lines {
                out.append(contentsOf: line.utf8)
                out.append(0x0A)
            }
            guard Loading.writeAll(out, to: 1) else { Loading.fail("cannot write to standard output") }
            if timings { Loading.printError("load_ns=\(answered.load) first_ns=\(answered.times[0])\n") }
            if `repeat` > 1 {
                let sorted = answered.times.sorted()
                Loading.printError("best_ns=\(sorted[0]) median_ns=\(sorted[sorted.count / 2]) matches=\(answered.matches)\n")
            }
            return
        }
        let loadStart = ContinuousClock.now
        var tree = source.tree()
        let load = Self.nanoseconds(ContinuousClock.now - loadStart)
        var pristine: [Int]?
        var fresh: ViewTree?
        if moves > 0 {
            tree._moveRandomSubtrees(moves, seed: seed, json: jsonpath != nil)
            if `repeat` > 1 {
                // The same document in a tree loaded afresh: its slots in document order.
                do {
                    let format: ExportFormat = jsonpath != nil ? .json : .xml
                    let text = try tree.string(as: format)
                    fresh = try TreeImporter().importTree(Array(text.utf8), format: format == .json ? .json : .xml, path: "<moved tree>")
                } catch {
                    Loading.fail("the moved tree could not be written and read back: \(error)")
                }
            }
        }
        var (times, answer, ids) = Self.timed(query, on: tree, times: fresh == nil ? `repeat` : 0, threads: threads)
        if let fresh {
            // The two trees take turns, a few evaluations each, so that a busy moment of a
            // shared machine falls on both (with all the pristine ones first, then the moved
            // ones, a busy moment put one side up to 2x behind); a few in a row, not one, so
            // that each tree is timed with its own columns in the caches, as a lone tree is.
            pristine = []
            var left = `repeat`
            while left > 0 {
                let n = min(left, Self.turn)
                pristine?.append(contentsOf: Self.timed(query, on: fresh, times: n, threads: threads).times)
                let some = Self.timed(query, on: tree, times: n, threads: threads)
                (answer, ids) = (some.value, some.nodes)
                times += some.times
                left -= n
            }
        }
        var lines: [String] = []
        var matches = 1
        // A CSS selector's or a JSONPath query's node ids become XPath nodes only for the
        // outputs that print XPath nodes (a count of 240,044 ids made as many XPath nodes,
        // each with four optional strings, and freed them: milliseconds of a cold query).
        switch answer ?? .nodes([]) {
        case .boolean(let b): lines.append(b ? "true" : "false")
        case .number(let n): lines.append(XPath.string(n))
        case .string(let s): lines.append(s)
        case .nodes(let xpathNodes):
            matches = answer == nil ? ids.count : xpathNodes.count
            let nodes = { answer == nil ? ids.map { XPathNode(node: $0) } : xpathNodes }
            switch output ?? (jsonpath != nil ? .values : .preorder) {
            case .count: lines.append(String(matches))
            case .values where jsonpath != nil:
                lines = [Self.jsonArray(ids.map { Self.json(of: $0, in: tree) })]
            case .paths where jsonpath != nil:
                lines = [Self.jsonArray(tree.normalizedPaths(of: ids).map(_jsonQuoted))]
            case .preorder: lines = Self.preorderNumbers(of: nodes(), in: tree).map(String.init)
            case .paths: lines = nodes().map { Self.path(of: $0, in: tree) }
            case .xml: lines = nodes().map { Self.xml(of: $0, in: tree) }
            case .values: break  // validate() allows it for JSONPath only
            }
        }
        var out: [UInt8] = []
        for line in lines {
            out.append(contentsOf: line.utf8)
            out.append(0x0A)
        }
        guard Loading.writeAll(out, to: 1) else { Loading.fail("cannot write to standard output") }
        if timings { Loading.printError("load_ns=\(load) first_ns=\(times.first ?? 0)\n") }
        if let pristine {
            let sorted = pristine.sorted()
            Loading.printError("pristine_best_ns=\(sorted[0]) pristine_median_ns=\(sorted[sorted.count / 2])\n")
        }
        if `repeat` > 1 || times.count > 1 {
            let sorted = times.sorted()
            Loading.printError("best_ns=\(sorted[0]) median_ns=\(sorted[sorted.count / 2]) matches=\(matches)\n")
        }
    }

    /// Whether the input is a snapshot, as `Loading.read` tells.
    static func isSnapshot(_ source: InputOptions) -> Bool {
        let format = source.from ?? FileFormat.detect(source.input)
        return format == .snapshot || (format == nil && ViewTree.isSnapshot(atPath: source.input))
    }

    /// A CSS selector's or an XPath expression's answer on the snapshot at `path` (its
    /// count, or its elements' numbers, one a line; an XPath value that is not a node-set
    /// as `print` has it), from its sections read where they lie: the structure (types,
    /// parents, spans), and the named attributes and the values only if the query may read
    /// them (``CSSSelector/readsAttributes``, ``XPath/readsValues``), each group checked as
    /// it is first read (`_SnapshotQuerySource`). The query evaluated `repeat` times, each
    /// timed. `nil` if the file cannot be read so or a check fails: the caller loads it
    /// whole, which reads it (a tree saved after moves, say) or names the flaw.
    static func answerInPlace(_ query: Compiled, path: String, count: Bool, repeat times: Int, threads: Int) -> (lines: [String], matches: Int, times: [Int], load: Int)? {
        let clock = ContinuousClock()
        let loadStart = clock.now
        guard let source = _SnapshotQuerySource.open(path) else { return nil }
        let attributes: Bool, values: Bool, names: [String], owners: [String]?
        switch query {
        case .css(let c): (attributes, values, names, owners) = (c.readsAttributes, false, c.elementNames(isHTML: source.isHTML), c.attributeOwners(isHTML: source.isHTML))
        case .xpath(let x): (attributes, values, names, owners) = (x.readsAttributes, x.readsValues, x.elementNames, x.attributeOwners)
        case .jsonpath: return nil
        }
        // The types of the query's first few names, collected as the structure's check
        // counts the types (see `checkStructure(collecting:)`).
        let wanted = names.prefix(4).compactMap { TypeRegistry.shared.existingTypeID(named: $0)?.rawValue }
        guard source.checkStructure(collecting: wanted) else { return nil }
        // Namespace declarations are attributes, which name tests read where there may be any
        // (then every element's are read, and all are checked now).
        if attributes || source.declaresNamespaces {
            guard source.checkAttributes(onRead: !source.declaresNamespaces && Self.readsFewRuns(owners, of: source)) else { return nil }
        }
        if values { guard source.checkValues() else { return nil } }
        let load = nanoseconds(clock.now - loadStart)
        let answer: (lines: [String], matches: Int, times: [Int], load: Int)? = source.withView { view in
            var elapsed: [Int] = []
            var last = _ColumnQueries.Value.nodes(count: 0, elements: [])
            for _ in 0 ..< max(1, times) {
                let start = clock.now
                do {
                    switch query {
                    case .css(let c):
                        let ranks = try _ColumnQueries.select(
                            c, count: source.count, isHTML: source.isHTML, view: view, threads: threads, typeCounts: source.typeCounts, collected: source.collected)
                        last = .nodes(count: ranks.count, elements: ranks)
                    case .xpath(let x):
                        last = try _ColumnQueries.evaluate(
                            x, count: source.count, isHTML: source.isHTML, view: view, threads: threads, typeCounts: source.typeCounts, collected: source.collected)
                    case .jsonpath:
                        preconditionFailure("answered by a whole load")
                    }
                } catch {
                    if source.attributesFlawed { return nil }
                    Loading.fail("\(error)")
                }
                elapsed.append(nanoseconds(clock.now - start))
            }
            if source.attributesFlawed { return nil }
            switch last {
            case .boolean(let b): return ([b ? "true" : "false"], 1, elapsed, load)
            case .number(let n): return ([XPath.string(n)], 1, elapsed, load)
            case .string(let s): return ([s], 1, elapsed, load)
            case .nodes(let n, let elements):
                if count { return ([String(n)], n, elapsed, load) }
                return (_ColumnQueries.elementNumbers(of: elements, count: source.count, view: view).map(String.init), n, elapsed, load)
            }
        }
        return answer
    }

    /// Whether a query that reads the attributes of the elements named `owners` only (`nil`:
    /// of any) reads few enough runs of `source` (whose structure is checked) that each is
    /// best checked as it is read: the elements so named are at most a sixteenth of the
    /// nodes. Checked on read, a run costs a few times what the whole check spends on it
    /// (in C, eight slots at a time, on two threads), which a cold query of a few thousand
    /// elements saves the most of (`//person[@id='person100']` on XMark, the whole process:
    /// 18.3 -> 16.0 ms, best of 7); a query of every element's (`count(//@*)`) was 30%
    /// slower so.
    static func readsFewRuns(_ owners: [String]?, of source: _SnapshotQuerySource) -> Bool {
        guard let owners, let counts = source.typeCounts?.total else { return false }
        var elements = 0
        for name in owners {
            // A name no type has names no element.
            if let t = TypeRegistry.shared.existingTypeID(named: name)?.rawValue, Int(t) < counts.count { elements += Int(counts[Int(t)]) }
        }
        return elements <= source.count / 16
    }

    /// A duration in whole nanoseconds.
    static func nanoseconds(_ d: Duration) -> Int {
        Int(d.components.seconds) * 1_000_000_000 + Int(d.components.attoseconds / 1_000_000_000)
    }

    /// The evaluations a tree gets in a row when `--moves` times the moved tree and the
    /// pristine one in turn.
    static let turn = 5

    /// `query` evaluated `times` times on `tree`: the nanoseconds of each, and the last
    /// answer as the API gives it: an XPath expression's value, or a CSS selector's or a
    /// JSONPath query's node ids (`value` nil). Each answer is freed outside the time of the
    /// next.
    static func timed(_ query: Compiled, on tree: ViewTree, times count: Int, threads: Int) -> (times: [Int], value: XPathValue?, nodes: [NodeID]) {
        let clock = ContinuousClock()
        var times: [Int] = []
        var lastValue: XPathValue?
        var lastNodes: [NodeID] = []
        for _ in 0 ..< count {
            let start = clock.now
            var value: XPathValue?
            var nodes: [NodeID] = []
            do {
                switch query {
                case .xpath(let x): value = try tree.evaluate(x, threads: threads)
                case .css(let c): nodes = try tree.select(c, threads: threads)
                case .jsonpath(let j): nodes = try tree.select(j, threads: threads)
                }
            } catch {
                Loading.fail("\(error)")
            }
            times.append(nanoseconds(clock.now - start))
            // The answer before this one is freed here, past the clock.
            lastValue = value
            lastNodes = nodes
        }
        return (times, lastValue, lastNodes)
    }

    /// Each selected element's number among all the elements in document order (the root
    /// element is 0); nodes that are not elements have none and are left out.
    static func preorderNumbers(of nodes: [XPathNode], in tree: ViewTree) -> [Int] {
        var wanted = Set<NodeID>()
        for n in nodes where n.attributeName == nil && n.namespacePrefix == nil { if let node = n.node { wanted.insert(node) } }
        var numbers: [NodeID: Int] = [:]
        var element = 0
        func visit(_ node: NodeID) {
            guard tree.kind(of: node) == .element else { return }
            if wanted.contains(node) { numbers[node] = element }
            element += 1
        }
        for root in tree.roots {
            visit(root)
            for node in tree.descendants(of: root) { visit(node) }
        }
        return nodes.compactMap { n in n.attributeName == nil && n.namespacePrefix == nil ? n.node.flatMap { numbers[$0] } : nil }
    }

    /// A node's path from the document: each step its name and its place among its
    /// parent's children of that name (`/a[1]/b[2]`), `text()`, `comment()` or
    /// `processing-instruction()` likewise, an attribute as `@name`, a namespace node as `namespace::prefix`.
    static func path(of n: XPathNode, in tree: ViewTree) -> String {
        guard let node = n.node else { return "/" }
        var steps: [String] = []
        var x: NodeID? = node
        while let y = x {
            let kind = tree.kind(of: y)
            let name = kind == .element ? tree.typeName(of: y)
                : kind == .processingInstruction ? "processing-instruction(\(String(tree.typeName(of: y).dropFirst())))"
                : kind == .comment ? "comment()" : "text()"
            func same(_ z: NodeID) -> Bool {
                let k = tree.kind(of: z)
                if kind == .text || kind == .cdata { return k == .text || k == .cdata }
                return k == kind && tree.typeID(of: z) == tree.typeID(of: y)
            }
            var place = 1
            var s = tree.previousSibling(of: y)
            while let t = s {
                if same(t) { place += 1 }
                s = tree.previousSibling(of: t)
            }
            if tree.parent(of: y) == nil {
                // A root: its place among the roots.
                place = 1
                for r in tree.roots {
                    if r == y { break }
                    if same(r) { place += 1 }
                }
            }
            steps.append("\(name)[\(place)]")
            x = tree.parent(of: y)
        }
        let path = "/" + steps.reversed().joined(separator: "/")
        if let prefix = n.namespacePrefix { return path + (prefix.isEmpty ? "/namespace::*[name()='']" : "/namespace::" + prefix) }
        return n.attributeName.map { path + "/@" + $0 } ?? path
    }

    /// `items` (each a JSON text) as one JSON array, an item a line.
    static func jsonArray(_ items: [String]) -> String {
        items.isEmpty ? "[]" : "[\n" + items.joined(separator: ",\n") + "\n]"
    }

    /// A node's value as JSON (its subtree as the JSON writer writes it, on one line).
    static func json(of node: NodeID, in tree: ViewTree) -> String {
        do {
            var text = try tree.string(as: .json, subtree: node)
            if text.hasSuffix("\n") { text.removeLast() }
            return text
        } catch {
            Loading.fail("the value at \(tree.normalizedPath(of: node)) cannot be written as JSON: \(error)")
        }
    }

    /// A node written as XML: an element's subtree, a text's escaped text, an attribute as
    /// `name="value"`, a namespace node as its declaration (`xmlns:p="uri"`).
    static func xml(of n: XPathNode, in tree: ViewTree) -> String {
        guard let node = n.node else { return (try? tree.string(as: .xml)) ?? "" }
        if let prefix = n.namespacePrefix {
            return "\(prefix.isEmpty ? "xmlns" : "xmlns:" + prefix)=\"\(_xmlAttributeEscaped(n.namespaceURI ?? ""))\""
        }
        if let name = n.attributeName {
            return "\(name)=\"\(_xmlAttributeEscaped(n.attributeValue ?? ""))\""
        }
        // The subtree as the writer writes a document, without its declaration and final
        // line break: one node a line.
        var text = Substring((try? tree.string(as: .xml, subtree: node)) ?? "")
        if text.hasPrefix("<?xml "), let end = text.firstIndex(of: "\n") { text = text[text.index(after: end)...] }
        if text.hasSuffix("\n") { text = text.dropLast() }
        return String(text)
    }
}
