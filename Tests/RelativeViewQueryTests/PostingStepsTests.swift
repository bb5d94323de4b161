import Foundation
import RelativeViewCore
import RelativeViewImport
@testable import RelativeViewQuery
@testable import RelativeViewSnapshot
import Testing

/// Child and descendant steps taken through a name's postings (`childrenThroughPostings`:
/// the children before a node of the name are not read; the descendant step's searches,
/// each from where the last ended) and `:first-of-type` and `:last-of-type` read from a
/// type's postings around each node (`isFirstOfType`), against the tree's own children and
/// ancestors. The documents put a name's nodes at every depth: inside siblings of other
/// names, inside nodes of the same name, under context nodes that nest, with text between;
/// each is asked pristine (and of its snapshot read in place, with its names' nodes collected
/// by the structure's check) and again after random subtree moves (ranks then not slots).
@Suite struct PostingStepsTests {
    /// A random document: a root `r` whose elements are named a, b or c, up to `depth`
    /// deep, with text between some of them.
    static func document(seed: UInt64, elements: Int, depth: Int) -> String {
        var rng = SplitMix64(seed: seed)
        var text = "<r>"
        var open: [String] = []
        var made = 0
        while made < elements {
            let roll = Int.random(in: 0 ..< 10, using: &rng)
            if roll < 5 && open.count < depth {
                let name = ["a", "b", "c"][Int.random(in: 0 ..< 3, using: &rng)]
                text += "<\(name)>"
                open.append(name)
                made += 1
            } else if roll < 8, let name = open.popLast() {
                text += "</\(name)>"
            } else if roll == 8 {
                text += "t"
            } else {
                let name = ["a", "b", "c"][Int.random(in: 0 ..< 3, using: &rng)]
                text += "<\(name)/>"
                made += 1
            }
        }
        while let name = open.popLast() { text += "</\(name)>" }
        return text + "</r>"
    }

    /// The selectors' answers against the tree's own: every combination of a context name
    /// and a name, as a child step, a descendant step, and with `:first-of-type`,
    /// `:last-of-type` and `:only-of-type` (over the set, and inside `:not()` node by node),
    /// in CSS and (the steps) in XPath.
    static func check(_ tree: ViewTree, _ label: String, inPlace source: _SnapshotQuerySource? = nil) throws {
        var order: [NodeID] = []
        for root in tree.roots {
            order.append(root)
            order += tree.descendants(of: root)
        }
        let elements = order.filter { tree.kind(of: $0) == .element }
        func named(_ e: NodeID, _ name: String) -> Bool { name == "*" || tree.typeName(of: e) == name }
        func ofTypeIsFirst(_ e: NodeID, fromEnd: Bool) -> Bool {
            let siblings = (tree.parent(of: e).map { Array(tree.children(of: $0)) } ?? tree.roots)
                .filter { tree.kind(of: $0) == .element && tree.typeID(of: $0) == tree.typeID(of: e) }
            return (fromEnd ? siblings.last : siblings.first) == e
        }
        func hasAncestor(_ e: NodeID, _ name: String) -> Bool {
            var p = tree.parent(of: e)
            while let q = p {
                if named(q, name) { return true }
                p = tree.parent(of: q)
            }
            return false
        }
        var nonEmpty = 0
        for context in ["r", "a", "b", "*"] {
            for name in ["a", "b", "c"] {
                let child = elements.filter { e in named(e, name) && tree.parent(of: e).map { named($0, context) } == true }
                let descendant = elements.filter { named($0, name) && hasAncestor($0, context) }
                let cases: [(String, [NodeID])] = [
                    ("\(context) > \(name)", child),
                    ("\(context) \(name)", descendant),
                    ("\(context) > \(name):first-of-type", child.filter { ofTypeIsFirst($0, fromEnd: false) }),
                    ("\(context) \(name):last-of-type", descendant.filter { ofTypeIsFirst($0, fromEnd: true) }),
                    ("\(context) > \(name):only-of-type", child.filter { ofTypeIsFirst($0, fromEnd: false) && ofTypeIsFirst($0, fromEnd: true) }),
                    // Inside `:not()` the filters are asked node by node (a set of one type
                    // is filtered in one pass only at a compound's top level).
                    ("\(context) \(name):not(:first-of-type)", descendant.filter { !ofTypeIsFirst($0, fromEnd: false) }),
                    ("\(context) > \(name):not(:only-of-type)", child.filter { !(ofTypeIsFirst($0, fromEnd: false) && ofTypeIsFirst($0, fromEnd: true)) }),
                ]
                for (css, expected) in cases {
                    let ours = try tree.select(CSSSelector(css))
                    #expect(ours == expected, "\(label): \(css): \(ours.count) selected, \(expected.count) counted")
                    if let source {
                        let selector = try CSSSelector(css)
                        let inPlace = try source.withView { view in
                            try _ColumnQueries.select(selector, count: source.count, isHTML: false, view: view,
                                                      typeCounts: source.typeCounts, collected: source.collected)
                        }
                        #expect(inPlace == expected.map { Int32($0.index) }, "\(label): \(css) in place")
                    }
                    if !expected.isEmpty { nonEmpty += 1 }
                }
                #expect(try tree.select(XPath("//\(context)/\(name)")) == child, "\(label): //\(context)/\(name)")
                #expect(try tree.select(XPath("//\(context)//\(name)")) == descendant, "\(label): //\(context)//\(name)")
            }
        }
        // (The documents are made so that most cases select something.)
        #expect(nonEmpty >= 40, "\(label): only \(nonEmpty) cases selected anything")
    }

    @Test(arguments: [(UInt64(1), 3), (2, 8), (3, 30)])
    func stepsAndPlacesOfTypeAgainstTheTree(seed: UInt64, depth: Int) throws {
        let text = Self.document(seed: seed, elements: 3_000, depth: depth)
        var tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "steps.xml")
        let path = try SnapshotInPlaceTests.written(tree)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try #require(_SnapshotQuerySource.open(path))
        let names = ["r", "a", "b", "c"].compactMap { TypeRegistry.shared.existingTypeID(named: $0)?.rawValue }
        #expect(source.checkStructure(collecting: names))
        try Self.check(tree, "seed \(seed), pristine", inPlace: source)
        // Random subtree moves: each element (not the root) to the end of an element outside it.
        tree._moveRandomSubtrees(300, seed: seed &+ 100)
        try Self.check(tree, "seed \(seed), after moves")
    }
}
