import RelativeViewCore

/// CSS selectors and XPath expressions over a document's columns with no tree: a
/// snapshot's, read in place where it lies (`_SnapshotQuerySource`), whose ranks are its
/// slots. The answers are ranks (document order), as `relative-view query` prints them.
///
/// Such a reader checks only the sections a query reads: ``CSSSelector/readsAttributes``,
/// ``XPath/readsAttributes`` and ``XPath/readsValues`` say which groups a query may read
/// beyond the structure (types, parents, spans). They err on the side of yes.
package enum _ColumnQueries {
    /// An XPath expression's value, its nodes as ranks.
    package enum Value {
        case boolean(Bool)
        case number(Double)
        case string(String)
        /// A node-set: how many nodes it holds (the document, attributes and namespace
        /// nodes among them), and the ranks of its elements, in document order.
        case nodes(count: Int, elements: [Int32])
    }

    /// The ranks of the elements `selector` matches in the document of `count` nodes whose
    /// columns `view` holds (its ranks its slots), in document order.
    ///
    /// `typeCounts`: per type id's raw value, how many nodes have it, in all and in the
    /// first half of the ranks (the first `count / 2` where `count` is at least 2^20, else
    /// all), where the reader counted them (else the index counts them when first asked).
    /// `collected`: per type id's raw value, its ranks in document order (every node of
    /// the type), where the reader collected them as it counted (a query's
    /// ``CSSSelector/elementNames``), else a name test collects them when first asked.
    package static func select(
        _ selector: CSSSelector, count: Int, isHTML: Bool, view: _WriterView, threads: Int = 1, typeCounts: (total: [Int32], firstHalf: [Int32])? = nil,
        collected: [Int32: [Int32]] = [:]
    ) throws(QueryError) -> [Int32] {
        let index = _DocumentIndex(rankedSlots: count, isHTML: isHTML, typeCounts: typeCounts, collected: collected)
        var evaluator = _XPathEvaluator(index: index, view: view, budget: XPath.defaultBudget(nodes: count), threads: threads)
        return try evaluator.select(selector.list).map(\.rank)
    }

    /// Each of `ranks` (elements, ascending) numbered among the elements in document order
    /// (the first element is 0), in the document of `count` nodes whose columns `view` holds.
    package static func elementNumbers(of ranks: [Int32], count: Int, view: _WriterView) -> [Int] {
        guard let last = ranks.last else { return [] }
        var evaluator = _XPathEvaluator(index: _DocumentIndex(rankedSlots: count, isHTML: false), view: view, budget: .max)
        var numbers: [Int] = []
        numbers.reserveCapacity(ranks.count)
        var (element, next) = (0, 0)
        for r in 0 ... last {
            guard evaluator.isElement(r) else { continue }
            if ranks[next] == r {
                numbers.append(element)
                next += 1
            }
            element += 1
        }
        return numbers
    }

    /// `query`'s value from the document node of the document of `count` nodes whose
    /// columns `view` holds (its ranks its slots); `typeCounts` and `collected` as in
    /// ``select(_:count:isHTML:view:threads:typeCounts:collected:)``.
    package static func evaluate(
        _ query: XPath, count: Int, isHTML: Bool, view: _WriterView, threads: Int = 1, typeCounts: (total: [Int32], firstHalf: [Int32])? = nil,
        collected: [Int32: [Int32]] = [:]
    ) throws(QueryError) -> Value {
        let index = _DocumentIndex(rankedSlots: count, isHTML: isHTML, typeCounts: typeCounts, collected: collected)
        var evaluator = _XPathEvaluator(index: index, view: view, budget: XPath.defaultBudget(nodes: count), namespaces: query.namespaces, threads: threads)
        switch try evaluator.evaluate(query.root, _Context(node: .root, position: 1, size: 1)) {
        case .boolean(let b): return .boolean(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .nodes(let keys):
            var elements: [Int32] = []
            for k in keys where k != .root && !k.isAttached && evaluator.isElement(k.rank) { elements.append(k.rank) }
            return .nodes(count: keys.count, elements: elements)
        }
    }
}

extension CSSSelector {
    /// Whether matching may read an element's attributes (an id, a class, an attribute
    /// selector, `:lang()`, at any depth): whether some element's may be read
    /// (``attributeOwners(isHTML:)``). No selector reads a node's value.
    package var readsAttributes: Bool { attributeOwners(isHTML: false) != [] }

    /// The element names of its compounds (not those inside `:is()`, `:not()` or
    /// `:has()`), each once, in the order written: the types whose nodes a match may read
    /// through their postings, which a reader that reads every type anyway may collect
    /// on the way (`_SnapshotQuerySource`). ASCII capitals lowered for an HTML document,
    /// whose names its parser wrote in lower case.
    package func elementNames(isHTML: Bool) -> [String] {
        var names: [String] = []
        for complex in list {
            for compound in complex.compounds {
                guard let name = compound.name.map({ isHTML ? _XPathEvaluator.asciiLowercased($0) : $0 }), !names.contains(name) else { continue }
                names.append(name)
            }
        }
        return names
    }
}

extension CSSSelector {
    /// The names of the elements whose attributes matching may read (ASCII capitals lowered
    /// for an HTML document), each once; `nil` where it may read those of an element of any
    /// name (`[x]`, `*.c`, `:lang()`). A reader that can check the attributes either all at
    /// once or each element's as it is read (`_SnapshotQuerySource`) counts these elements
    /// to choose.
    package func attributeOwners(isHTML: Bool) -> [String]? {
        var owners: [String] = []
        for complex in list { guard complex.attributeOwners(subject: nil, isHTML: isHTML, into: &owners) else { return nil } }
        return owners
    }
}

extension _ComplexSelector {
    /// Adds the names of the elements whose attributes matching may read (see
    /// ``CSSSelector/attributeOwners(isHTML:)``); `false` where any element's. `subject`:
    /// the name of the element its last compound is matched against, where it is the
    /// argument of `:is()` or `:not()` in a compound that names one.
    func attributeOwners(subject: String?, isHTML: Bool, into owners: inout [String]) -> Bool {
        for (i, compound) in compounds.enumerated() {
            var names = compound.name.map { [isHTML ? _XPathEvaluator.asciiLowercased($0) : $0] } ?? []
            if i == compounds.count - 1, let subject, !names.contains(subject) { names.append(subject) }
            for condition in compound.conditions {
                switch condition {
                case .id, .className, .attribute:
                    guard !names.isEmpty else { return false }
                    for name in names where !owners.contains(name) { owners.append(name) }
                case .lang: return false  // an ancestor's
                case .nth, .empty, .root: break
                case .not(let list), .is(let list):
                    for c in list { guard c.attributeOwners(subject: names.first, isHTML: isHTML, into: &owners) else { return false } }
                case .has(let list):
                    for r in list { guard r.complex.attributeOwners(subject: nil, isHTML: isHTML, into: &owners) else { return false } }
                }
            }
        }
        return true
    }
}

extension XPath {
    /// Whether evaluating may read attributes: an attribute or a namespace step, `id()`,
    /// `lang()`, `namespace-uri()`, or a variable (namespace declarations are attributes
    /// too: a reader also reads them where the document may declare any): whether some
    /// node's may be read (``attributeOwners``).
    package var readsAttributes: Bool { attributeOwners != [] }

    /// Whether evaluating may read a node's value (a text's, or a string-value made of
    /// texts): anything but node-sets selected by names, kinds, positions and attribute
    /// comparisons, counted or tested for being empty. (An attribute's value is the
    /// attributes'.)
    package var readsValues: Bool { root.mayReadValues }

    /// The names of the elements whose attributes evaluating may read, each once (`p:b` as
    /// written); `nil` where it may read those of any node (`//@x`, `*[@x]`, `id()`,
    /// `lang()`, a variable...). See ``CSSSelector/attributeOwners(isHTML:)``.
    package var attributeOwners: [String]? {
        var owners: [String] = []
        return root.attributeOwners(context: nil, into: &owners) ? owners : nil
    }

    /// The names of its element name tests on the child, descendant and
    /// descendant-or-self axes (`b` in `//b`, `a/b`; `p:b` as written), each once, in the
    /// order written: the types whose nodes evaluation may read through their postings
    /// (see ``CSSSelector/elementNames(isHTML:)``).
    package var elementNames: [String] {
        var names: [String] = []
        func visit(_ e: _XPathExpr) {
            for step in e.steps where [.child, .descendant, .descendantOrSelf].contains(step.axis) {
                if case .name(let prefix, let local) = step.test {
                    let name = prefix.map { $0 + ":" + local } ?? local
                    if !names.contains(name) { names.append(name) }
                }
            }
            for sub in e.subexpressions { visit(sub) }
        }
        visit(root)
        return names
    }
}

extension _XPathExpr {
    var subexpressions: [_XPathExpr] {
        switch self {
        case .number, .literal, .variable: []
        case .function(_, let arguments, _): arguments
        case .binary(_, let a, let b), .union(let a, let b, _): [a, b]
        case .negate(let a): [a]
        case .path(_, let steps): steps.flatMap(\.predicates)
        case .filter(let e, let predicates, let steps, _): [e] + predicates + steps.flatMap(\.predicates)
        }
    }

    var steps: [_Step] {
        switch self {
        case .path(_, let steps), .filter(_, _, let steps, _): steps
        default: []
        }
    }

    /// Adds the names of the elements whose attributes evaluating may read, where the
    /// context node is an element named `context` (`nil`: any node); `false` where it may
    /// read any node's (see ``XPath/attributeOwners``).
    func attributeOwners(context: String?, into owners: inout [String]) -> Bool {
        switch self {
        case .number, .literal: return true
        case .variable: return false
        case .function(let name, let arguments, _):
            // An element's id, its language or namespace: any element's, or an ancestor's.
            if ["id", "lang", "namespace-uri"].contains(name) { return false }
            return arguments.allSatisfy { $0.attributeOwners(context: context, into: &owners) }
        case .binary(_, let a, let b), .union(let a, let b, _):
            return a.attributeOwners(context: context, into: &owners) && b.attributeOwners(context: context, into: &owners)
        case .negate(let a): return a.attributeOwners(context: context, into: &owners)
        case .path(let absolute, let steps): return Self.attributeOwners(of: steps, context: absolute ? nil : context, into: &owners)
        case .filter(let e, let predicates, let steps, _):
            guard e.attributeOwners(context: context, into: &owners) else { return false }
            return predicates.allSatisfy { $0.attributeOwners(context: nil, into: &owners) } && Self.attributeOwners(of: steps, context: nil, into: &owners)
        }
    }

    /// ``attributeOwners(context:into:)`` of a path's steps from nodes named `context`.
    static func attributeOwners(of steps: [_Step], context: String?, into owners: inout [String]) -> Bool {
        var context = context
        for step in steps {
            let named: String?
            if step.axis == .attribute || step.axis == .namespace {
                guard let context else { return false }
                if !owners.contains(context) { owners.append(context) }
                named = nil
            } else if case .name(let prefix, let local) = step.test {
                named = prefix.map { $0 + ":" + local } ?? local
            } else {
                named = nil
            }
            guard step.predicates.allSatisfy({ $0.attributeOwners(context: named, into: &owners) }) else { return false }
            context = named
        }
        return true
    }

    var mayReadValues: Bool {
        switch self {
        case .number, .literal: false
        case .variable: true
        case .negate(let a): a.convertedReadsValues
        case .union(let a, let b, _): a.mayReadValues || b.mayReadValues
        case .path, .filter: subexpressions.contains(where: \.mayReadValues)
        case .binary(let op, let a, let b):
            // A comparison or arithmetic converts a node-set to strings or numbers.
            op == .and || op == .or ? a.mayReadValues || b.mayReadValues : a.convertedReadsValues || b.convertedReadsValues
        case .function(let name, let arguments, _):
            switch name {
            case "position", "last", "true", "false": false
            case "not", "boolean", "count", "name", "local-name", "namespace-uri", "lang": arguments.contains(where: \.mayReadValues)
            case "id": arguments.contains(where: \.convertedReadsValues)
            default: true  // string(), contains(), sum()...: string-values, the context node's without an argument
            }
        }
    }

    /// Whether its value, converted to a string or a number, may read a value: a node-set's
    /// string-values are values unless its last step is on the attribute axis.
    var convertedReadsValues: Bool {
        switch self {
        case .variable: true
        case .path(_, let steps): mayReadValues || steps.last?.axis != .attribute
        case .filter(let e, _, let steps, _): mayReadValues || (steps.isEmpty ? e.convertedReadsValues : steps.last?.axis != .attribute)
        case .union(let a, let b, _): a.convertedReadsValues || b.convertedReadsValues
        default: mayReadValues
        }
    }
}
