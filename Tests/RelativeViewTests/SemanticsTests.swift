import Testing
@testable import RelativeView

/// Two classes whose `String(describing:)` is the same ("Widget").
enum NS1 { final class Widget: View {} }
enum NS2 { final class Widget: View {} }

/// A class that only ``SemanticsTests/typeKeysKeptByTheStoreSeeAClassRegisteredLater()``
/// makes views of, so that it is unregistered until that test adds one.
final class RegisteredMidTestView: View {}

/// The semantics of DESIGN.md ("Semantics"), pinned on the facade.
@Suite struct SemanticsTests {
    /// The store keeps the keys of its last grouping by types; a class with no view yet
    /// is not registered, and a view of it added later must still be found, by every
    /// grouping by types, as must a change of the classes asked for.
    @Test func typeKeysKeptByTheStoreSeeAClassRegisteredLater() {
        let root = View(), first = Button(), second = Label()
        root.addSubview(first)
        root.addSubview(second)
        let types: [View.Type] = [Button.self, RegisteredMidTestView.self]
        #expect(second.groupSiblings(by: types).mapValues { $0.map(ObjectIdentifier.init) } == ["Button": [ObjectIdentifier(first)]])
        #expect(root.groupDescendants(by: types).keys.sorted() == ["Button"])
        #expect(first.findFirstAncestor(by: types) == nil)
        let late = RegisteredMidTestView()
        root.addSubview(late)
        let inner = View()
        late.addSubview(inner)
        #expect(inner.findFirstAncestor(by: types) === late)
        inner.removeFromSuperview()
        #expect(second.groupSiblings(by: types).mapValues { $0.map(ObjectIdentifier.init) }
            == ["Button": [ObjectIdentifier(first)], "RegisteredMidTestView": [ObjectIdentifier(late)]])
        #expect(root.groupDescendants(by: types)["RegisteredMidTestView"]?.map(ObjectIdentifier.init) == [ObjectIdentifier(late)])
        #expect(late.groupAncestors(by: [View.self, RegisteredMidTestView.self])["View"]?.map(ObjectIdentifier.init) == [ObjectIdentifier(root)])
        // Kept keys answer the same classes only: another list (or order) gets its own.
        #expect(second.groupSiblings(by: [RegisteredMidTestView.self]).keys.sorted() == ["RegisteredMidTestView"])
        #expect(second.groupSiblings(by: [RegisteredMidTestView.self, Button.self]).keys.sorted() == ["Button", "RegisteredMidTestView"])
        #expect(second.groupSiblings(by: [] as [View.Type]).isEmpty)
    }

    /// root(1) [a(2) [a1(3) [a11(4), a12(5)], a2(6)], b(7) [b1(8) [b11(9)]], c(10)]
    struct Tree {
        let root = View(), a = Button(), a1 = Label(), a11 = View(), a12 = Button()
        let a2 = Label(), b = View(), b1 = Button(), b11 = Label(), c = Control()
        init() {
            root.addSubview(a); root.addSubview(b); root.addSubview(c)
            a.addSubview(a1); a.addSubview(a2)
            a1.addSubview(a11); a1.addSubview(a12)
            b.addSubview(b1); b1.addSubview(b11)
            for (i, v) in all.enumerated() { v.tag = i + 1 }
        }
        /// Every view in depth-first pre-order.
        var all: [View] { [root, a, a1, a11, a12, a2, b, b1, b11, c] }
        /// The proper descendants of root in pre-order.
        var preorder: [View] { Array(all.dropFirst()) }
    }

    // MARK: Self is never relative

    @Test func selfIsNeverRelative() {
        let t = Tree()
        for v in t.all {
            #expect(!v.isRelativeAncestor(of: v), "\(v)")
            #expect(!v.isRelativeDescendant(of: v), "\(v)")
            #expect(!v.isRelativeSibling(of: v), "\(v)")
            #expect(v.findFirstAncestor { $0 === v } == nil)
            #expect(!v.groupAncestors(by: { $0.tag }).values.joined().contains(v))
            #expect(!v.groupDescendants(by: { $0.tag }).values.joined().contains(v))
            #expect(!v.groupSiblings(by: { $0.tag }).values.joined().contains(v))
            #expect(v.groupDescendants(by: [v.tag])[v.tag] == nil)
            #expect(v.groupAncestors(by: [v.tag]).isEmpty)
            #expect(v.groupSiblings(by: [v.tag]).isEmpty)
            #expect(v.findFirstAncestor(by: [v.tag]) == nil)
        }
        let lone = View()
        #expect(!lone.isRelativeAncestor(of: lone))
        #expect(!lone.isRelativeDescendant(of: lone))
        #expect(!lone.isRelativeSibling(of: lone))
    }

    @Test func relationsMatchTheTreeShape() {
        let t = Tree()
        // Proper ancestor pairs, written out.
        let ancestors: [View: [View]] = [
            t.root: [], t.a: [t.root], t.a1: [t.a, t.root], t.a11: [t.a1, t.a, t.root],
            t.a12: [t.a1, t.a, t.root], t.a2: [t.a, t.root], t.b: [t.root], t.b1: [t.b, t.root],
            t.b11: [t.b1, t.b, t.root], t.c: [t.root],
        ]
        for x in t.all {
            for y in t.all {
                let expected = ancestors[y]!.contains(x)
                #expect(x.isRelativeAncestor(of: y) == expected, "\(x) ancestor of \(y)")
                #expect(y.isRelativeDescendant(of: x) == expected, "\(y) descendant of \(x)")
                let siblings = x !== y && x.superview != nil && x.superview === y.superview
                #expect(x.isRelativeSibling(of: y) == siblings, "\(x) sibling of \(y)")
            }
        }
        // Direct siblings only: cousins are not siblings.
        #expect(!t.a1.isRelativeSibling(of: t.b1))
        #expect(t.a1.isRelativeSibling(of: t.a2))
        #expect(t.c.isRelativeSibling(of: t.a))
    }

    // MARK: Nearest first

    @Test func findFirstAncestorIsNearest() {
        let t = Tree()
        t.a.tag = 100; t.root.tag = 100; t.a1.tag = 50
        #expect(t.a11.findFirstAncestor(by: [100]) === t.a)
        #expect(t.a11.findFirstAncestor(by: [100, 50]) === t.a1)
        #expect(t.a11.findFirstAncestor(by: [50, 100]) === t.a1)
        #expect(t.a1.findFirstAncestor(by: [100]) === t.a)
        #expect(t.a.findFirstAncestor(by: [100]) === t.root)
        #expect(t.root.findFirstAncestor(by: [100]) == nil)
        #expect(t.a11.findFirstAncestor { _ in true } === t.a1)
        #expect(t.a11.findFirstAncestor { $0.superview == nil } === t.root)
        var visited: [View] = []
        _ = t.a11.findFirstAncestor { visited.append($0); return false }
        #expect(visited == [t.a1, t.a, t.root])
        // By type: a12 (Button) under a1 (Label) under a (Button).
        #expect(t.a12.findFirstAncestor(by: [Button.self]) === t.a)
        #expect(t.a12.findFirstAncestor(by: [Button.self, Label.self]) === t.a1)
        #expect(t.a12.findFirstAncestor(by: [View.self]) === t.root)
        #expect(t.a12.findFirstAncestor(by: [TableViewCell.self]) == nil)
    }

    @Test func groupAncestorsIsNearestFirst() {
        let t = Tree()
        for v in [t.a, t.a1, t.root] { v.tag = 70 }
        #expect(t.a11.groupAncestors(by: [70]) == [70: [t.a1, t.a, t.root]])
        #expect(t.a11.groupAncestors(by: { _ in "all" }) == ["all": [t.a1, t.a, t.root]])
        #expect(t.b11.groupAncestors(by: { $0.tag }) == [t.b1.tag: [t.b1], t.b.tag: [t.b], 70: [t.root]])
        let chain = View(), m = Button(), n = View(), o = Button(), leaf = View()
        chain.addSubview(m); m.addSubview(n); n.addSubview(o); o.addSubview(leaf)
        #expect(leaf.groupAncestors(by: [Button.self, View.self]) == ["Button": [o, m], "View": [n, chain]])
    }

    // MARK: Exact type match

    @Test func typeMatchIsExact() {
        let t = Tree()
        // c is a Control; a, a12 and b1 are Buttons (subclasses of Control).
        #expect(t.root.groupDescendants(by: [Control.self]) == ["Control": [t.c]])
        #expect(t.root.groupDescendants(by: [Button.self]) == ["Button": [t.a, t.a12, t.b1]])
        #expect(t.root.groupDescendants(by: [View.self]) == ["View": [t.a11, t.b]])
        #expect(t.b11.findFirstAncestor(by: [Control.self]) == nil)
        #expect(t.b11.groupAncestors(by: [Control.self]).isEmpty)
        #expect(t.b11.groupAncestors(by: [Button.self]) == ["Button": [t.b1]])
        #expect(t.a.groupSiblings(by: [Control.self]) == ["Control": [t.c]])
        #expect(t.c.groupSiblings(by: [Control.self]).isEmpty)
        #expect(t.c.groupSiblings(by: [Button.self]) == ["Button": [t.a]])
        // TableView is a ScrollView, not matched by ScrollView.self.
        let scroll = ScrollView(), table = TableView(), cell = TableViewCell()
        scroll.addSubview(table); table.addSubview(cell)
        #expect(cell.findFirstAncestor(by: [ScrollView.self]) === scroll)
        #expect(scroll.groupDescendants(by: [ScrollView.self]).isEmpty)
        #expect(scroll.groupDescendants(by: [TableView.self, TableViewCell.self]) == ["TableView": [table], "TableViewCell": [cell]])
    }

    @Test func typeKeysAreStringDescribing() {
        let t = Tree()
        let groups = t.root.groupDescendants(by: [Button.self, Label.self, View.self, Control.self])
        #expect(Set(groups.keys) == ["Button", "Label", "View", "Control"])
        #expect(String(describing: Button.self) == "Button")
        #expect(groups[String(describing: Label.self)] == [t.a1, t.a2, t.b11])
        // Every view of the subtree is in exactly one group.
        #expect(groups.values.map(\.count).reduce(0, +) == t.preorder.count)
    }

    @Test func sameNameDifferentClassesShareAKey() {
        let root = View()
        let w1 = NS1.Widget(), w2 = NS2.Widget(), w3 = NS1.Widget(), w4 = NS2.Widget()
        let plain = View()
        #expect(String(describing: NS1.Widget.self) == "Widget")
        #expect(String(describing: NS2.Widget.self) == "Widget")
        // Pre-order: w1, w2, w3, plain, w4.
        root.addSubview(w1)
        w1.addSubview(w2)
        w2.addSubview(w3)
        root.addSubview(plain)
        root.addSubview(w4)
        #expect(root.groupDescendants(by: [NS1.Widget.self, NS2.Widget.self]) == ["Widget": [w1, w2, w3, w4]])
        #expect(root.groupDescendants(by: [NS2.Widget.self, NS1.Widget.self]) == ["Widget": [w1, w2, w3, w4]])
        #expect(root.groupDescendants(by: [NS1.Widget.self]) == ["Widget": [w1, w3]])
        #expect(root.groupDescendants(by: [NS2.Widget.self]) == ["Widget": [w2, w4]])
        #expect(w3.groupAncestors(by: [NS1.Widget.self, NS2.Widget.self]) == ["Widget": [w2, w1]])
        #expect(w3.findFirstAncestor(by: [NS1.Widget.self]) === w1)
        #expect(w1.groupSiblings(by: [NS2.Widget.self, NS1.Widget.self]) == ["Widget": [w4]])
        #expect(plain.groupSiblings(by: [NS2.Widget.self, NS1.Widget.self]) == ["Widget": [w1, w4]])
        // After a mutation (stale index, link walk) the interleaving is kept too.
        root.insertSubview(w4, at: 0)
        #expect(root.groupDescendants(by: [NS1.Widget.self, NS2.Widget.self]) == ["Widget": [w4, w1, w2, w3]])
        #expect(root.groupDescendants(by: [NS1.Widget.self, NS2.Widget.self]) == ["Widget": [w4, w1, w2, w3]])
    }

    // MARK: Orders

    @Test func groupDescendantsIsPreorder() {
        let t = Tree()
        let expected = t.preorder
        // Twice: the first query may walk links, the second may use a rebuilt index.
        for _ in 0 ..< 3 {
            let one = t.root.groupDescendants(by: { _ in 0 })[0] ?? []
            #expect(one.count == expected.count)
            for (i, (got, want)) in zip(one, expected).enumerated() {
                #expect(got === want, "position \(i): got \(got), expected \(want)")
            }
            #expect(t.root.groupDescendants(by: [View.self, Button.self, Label.self, Control.self])
                .values.joined().count == expected.count)
            t.root.tag = 42  // stale again
        }
        for v in t.all { v.tag = 5 }
        #expect(t.root.groupDescendants(by: [5]) == [5: expected])
        #expect(t.a.groupDescendants(by: [5]) == [5: [t.a1, t.a11, t.a12, t.a2]])
        #expect(t.b.groupDescendants(by: [5]) == [5: [t.b1, t.b11]])
        #expect(t.root.groupDescendants(by: [Button.self]) == ["Button": [t.a, t.a12, t.b1]])
    }

    @Test func groupDescendantsPreorderOnDeeperTree() {
        // A tree of 4 levels, 3 children each (1 + 3 + 9 + 27 = 40 views), built breadth first,
        // so creation order differs from pre-order.
        let root = View()
        var levels: [[View]] = [[root]]
        for _ in 0 ..< 3 {
            var next: [View] = []
            for parent in levels.last! {
                for _ in 0 ..< 3 {
                    let child = View()
                    parent.addSubview(child)
                    next.append(child)
                }
            }
            levels.append(next)
        }
        func preorder(_ v: View) -> [View] { v.subviews.flatMap { [$0] + preorder($0) } }
        let expected = preorder(root)
        #expect(expected.count == 39)
        for (i, v) in expected.enumerated() { v.tag = i % 4 }
        for tag in 0 ..< 4 {
            let got = root.groupDescendants(by: [tag])[tag] ?? []
            let want = expected.filter { $0.tag == tag }
            #expect(got == want, "tag \(tag)")
        }
        let all = root.groupDescendants(by: [View.self])["View"] ?? []
        #expect(all.count == expected.count)
        for (i, (got, want)) in zip(all, expected).enumerated() {
            #expect(got === want, "position \(i)")
        }
        #expect(root.groupDescendants(by: { $0.tag }) == Dictionary(grouping: expected, by: \.tag))
    }

    @Test func groupSiblingsKeepsSubviewsOrderWithoutSelf() {
        let parent = View()
        let kids = (0 ..< 6).map { i -> View in
            let v = i.isMultiple(of: 2) ? Button() : View()
            v.tag = i % 3
            parent.addSubview(v)
            return v
        }
        let third = kids[3]
        #expect(third.groupSiblings(by: { _ in "x" }) == ["x": [kids[0], kids[1], kids[2], kids[4], kids[5]]])
        #expect(third.groupSiblings(by: [0, 1, 2]) == [0: [kids[0]], 1: [kids[1], kids[4]], 2: [kids[2], kids[5]]])
        #expect(kids[0].groupSiblings(by: [0]) == [0: [kids[3]]])
        #expect(kids[0].groupSiblings(by: [Button.self]) == ["Button": [kids[2], kids[4]]])
        #expect(kids[1].groupSiblings(by: [View.self]) == ["View": [kids[3], kids[5]]])
        parent.exchangeSubview(at: 0, withSubviewAt: 5)
        #expect(third.groupSiblings(by: { _ in "x" }) == ["x": [kids[5], kids[1], kids[2], kids[4], kids[0]]])
        // A root has no siblings; a grandchild's siblings are only its direct siblings.
        #expect(parent.groupSiblings(by: { _ in 1 }).isEmpty)
        let g = View()
        kids[0].addSubview(g)
        #expect(g.groupSiblings(by: { _ in 1 }).isEmpty)
    }

    // MARK: Empty lists, no match, nil keys, duplicates

    @Test func emptyListsMatchNothing() {
        let t = Tree()
        for v in t.all {
            #expect(v.groupAncestors(by: [Int]()).isEmpty)
            #expect(v.groupDescendants(by: [Int]()).isEmpty)
            #expect(v.groupSiblings(by: [Int]()).isEmpty)
            #expect(v.groupAncestors(by: [View.Type]()).isEmpty)
            #expect(v.groupDescendants(by: [View.Type]()).isEmpty)
            #expect(v.groupSiblings(by: [View.Type]()).isEmpty)
            #expect(v.findFirstAncestor(by: [Int]()) == nil)
            #expect(v.findFirstAncestor(by: [View.Type]()) == nil)
        }
    }

    @Test func noMatchGivesEmptyDictionary() {
        let t = Tree()
        #expect(t.root.groupDescendants(by: [999]) == [:])
        #expect(t.a11.groupAncestors(by: [999]) == [:])
        #expect(t.a.groupSiblings(by: [999]) == [:])
        #expect(t.root.groupDescendants(by: [TableViewCell.self]) == [:])
        #expect(t.a11.groupAncestors(by: [Label.self, Control.self]) == ["Label": [t.a1]])
        #expect(t.a11.groupAncestors(by: [Control.self]) == [:])
        #expect(t.a.groupSiblings(by: [Label.self]) == [:])
        #expect(t.root.groupDescendants(by: { _ -> Int? in nil }) == [:])
        #expect(t.a11.findFirstAncestor(by: [999]) == nil)
        #expect(t.a11.findFirstAncestor(by: [Slider.self]) == nil)
        // A class never used in any tree matches nothing.
        final class NeverInstantiated: View {}
        #expect(t.root.groupDescendants(by: [NeverInstantiated.self]) == [:])
        #expect(t.a11.findFirstAncestor(by: [NeverInstantiated.self]) == nil)
    }

    @Test func duplicatedKeysDoNotDuplicateResults() {
        let t = Tree()
        t.a1.tag = 90; t.b1.tag = 90; t.root.tag = 90
        #expect(t.root.groupDescendants(by: [90, 90, 90]) == [90: [t.a1, t.b1]])
        #expect(t.root.groupDescendants(by: [90, 1, 90]) == [90: [t.a1, t.b1]])
        #expect(t.a11.groupAncestors(by: [90, 90]) == [90: [t.a1, t.root]])
        t.a.tag = 90; t.c.tag = 90
        #expect(t.b.groupSiblings(by: [90, 90]) == [90: [t.a, t.c]])
        #expect(t.a11.findFirstAncestor(by: [90, 90]) === t.a1)
        // Many distinct tags plus duplicates (the hashed lookup path).
        let many = Array(0 ..< 20) + [90, 90, 90]
        #expect(t.root.groupDescendants(by: many)[90] == [t.a, t.a1, t.b1, t.c])
        #expect(t.root.groupDescendants(by: [Button.self, Button.self]) == ["Button": [t.a, t.a12, t.b1]])
        #expect(t.a12.groupAncestors(by: [Button.self, Button.self]) == ["Button": [t.a]])
        #expect(t.c.groupSiblings(by: [Button.self, Button.self]) == ["Button": [t.a]])
    }

    @Test func nilKeyLeavesViewsOut() {
        let t = Tree()
        let even: (View) -> Int? = { $0.tag.isMultiple(of: 2) ? $0.tag : nil }
        let descendants = t.root.groupDescendants(by: even)
        #expect(descendants == Dictionary(uniqueKeysWithValues: t.preorder.filter { $0.tag.isMultiple(of: 2) }.map { ($0.tag, [$0]) }))
        #expect(descendants[t.a1.tag] == nil)
        #expect(t.a11.groupAncestors(by: even) == [t.a.tag: [t.a]])
        #expect(t.a.groupSiblings(by: even) == [t.c.tag: [t.c]])
        #expect(t.b11.groupAncestors(by: { $0 is Button ? "button" : nil }) == ["button": [t.b1]])
    }

    // MARK: Lone views and separate trees

    @Test func loneViewAnswersEmpty() {
        let lone = Button()
        lone.tag = 4
        let other = View()
        #expect(lone._store == nil)
        #expect(lone.superview == nil)
        #expect(lone.subviews.isEmpty)
        #expect(lone.recursiveSubviews.isEmpty)
        #expect(lone.findViews(subclassOf: View.self).isEmpty)
        #expect(lone.findFirstAncestor { _ in true } == nil)
        #expect(lone.findFirstAncestor(by: [4]) == nil)
        #expect(lone.findFirstAncestor(by: [Button.self]) == nil)
        #expect(!lone.isRelativeAncestor(of: other))
        #expect(!lone.isRelativeDescendant(of: other))
        #expect(!lone.isRelativeSibling(of: other))
        #expect(!other.isRelativeSibling(of: lone))
        #expect(lone.groupAncestors(by: { _ in 1 }).isEmpty)
        #expect(lone.groupAncestors(by: [4]).isEmpty)
        #expect(lone.groupAncestors(by: [Button.self]).isEmpty)
        #expect(lone.groupDescendants(by: { _ in 1 }).isEmpty)
        #expect(lone.groupDescendants(by: [4]).isEmpty)
        #expect(lone.groupDescendants(by: [Button.self]).isEmpty)
        #expect(lone.groupSiblings(by: { _ in 1 }).isEmpty)
        #expect(lone.groupSiblings(by: [4]).isEmpty)
        #expect(lone.groupSiblings(by: [Button.self]).isEmpty)
        #expect(lone.viewWithTag(4) === lone)
        #expect(lone.viewWithTag(5) == nil)
        #expect(lone.isDescendant(of: lone))
        #expect(!lone.isDescendant(of: other))
        #expect(lone.tag == 4)
        #expect(lone._store == nil)  // queries do not create a store
    }

    @Test func viewsInDifferentTreesAreNeverRelatives() {
        let t1 = Tree(), t2 = Tree()
        for x in t1.all {
            for y in t2.all {
                #expect(!x.isRelativeAncestor(of: y))
                #expect(!x.isRelativeDescendant(of: y))
                #expect(!x.isRelativeSibling(of: y))
                #expect(!y.isRelativeAncestor(of: x))
                #expect(!y.isRelativeDescendant(of: x))
                #expect(!y.isRelativeSibling(of: x))
                #expect(!x.isDescendant(of: y))
            }
        }
        // Same slot positions in two arenas must not be confused.
        #expect(!t1.a.isRelativeSibling(of: t2.b))
        #expect(!t1.root.isRelativeAncestor(of: t2.a11))
        #expect(t1.root.recursiveSubviews.allSatisfy { v in t1.all.contains { $0 === v } })
        #expect(t1.a11.findFirstAncestor { $0 === t2.root } == nil)
    }

    // MARK: UIKit's own methods

    @Test func uikitIsDescendantIncludesSelf() {
        let t = Tree()
        for v in t.all { #expect(v.isDescendant(of: v)) }
        #expect(t.a11.isDescendant(of: t.root))
        #expect(t.a11.isDescendant(of: t.a1))
        #expect(!t.root.isDescendant(of: t.a11))
        #expect(!t.a11.isDescendant(of: t.b))
        #expect(!t.a.isDescendant(of: t.c))
    }

    @Test func viewWithTagChecksSelfThenPreorder() {
        let t = Tree()
        for v in t.all { v.tag = 0 }
        #expect(t.root.viewWithTag(0) === t.root)
        #expect(t.a.viewWithTag(0) === t.a)
        t.b.tag = 5; t.a12.tag = 5; t.a2.tag = 5
        // a12 comes first in pre-order (a, a1, a11, a12, a2, b, ...), though b is shallower.
        #expect(t.root.viewWithTag(5) === t.a12)
        #expect(t.b.viewWithTag(5) === t.b)
        #expect(t.a1.viewWithTag(5) === t.a12)
        #expect(t.a11.viewWithTag(5) == nil)
        #expect(t.root.viewWithTag(6) == nil)
        t.b11.tag = 6
        #expect(t.root.viewWithTag(6) === t.b11)
        #expect(t.b11.viewWithTag(6) === t.b11)
        // Not an ancestor.
        #expect(t.b11.viewWithTag(5) == nil)
    }

    // MARK: Wide tags

    @Test(arguments: [Int.max, Int.min, Int(Int32.min), Int(Int32.max), Int(Int32.max) + 1, Int(Int32.min) - 1, -1, 0])
    func tagsOfAnyIntWidthGroupCorrectly(tag: Int) {
        let t = Tree()
        let other = tag == 1 ? 2 : 1
        for v in t.all { v.tag = other }
        t.a1.tag = tag; t.b11.tag = tag; t.c.tag = tag; t.root.tag = tag
        #expect(t.a1.tag == tag)
        #expect(t.root.groupDescendants(by: [tag]) == [tag: [t.a1, t.b11, t.c]])
        #expect(t.root.groupDescendants(by: [tag, other])[tag] == [t.a1, t.b11, t.c])
        #expect(t.root.groupDescendants(by: [tag, other])[other]?.count == 6)
        #expect(t.root.groupDescendants(by: Array(100 ..< 110) + [tag])[tag] == [t.a1, t.b11, t.c])
        #expect(t.a12.groupAncestors(by: [tag]) == [tag: [t.a1, t.root]])
        #expect(t.a12.findFirstAncestor(by: [tag]) === t.a1)
        #expect(t.a.groupSiblings(by: [tag]) == [tag: [t.c]])
        #expect(t.a.viewWithTag(tag) === t.a1)
        #expect(t.root.viewWithTag(tag) === t.root)
        // Stale and fresh index give the same answer.
        _ = t.root.groupDescendants(by: [tag])
        #expect(t.root.groupDescendants(by: [tag]) == [tag: [t.a1, t.b11, t.c]])
        // Changing a wide tag back to a narrow one and the other way round.
        t.a1.tag = other
        #expect(t.root.groupDescendants(by: [tag]) == [tag: [t.b11, t.c]])
        t.a11.tag = tag
        #expect(t.root.groupDescendants(by: [tag]) == [tag: [t.a11, t.b11, t.c]])
        // Tags survive a split into a lone view and a move to another tree.
        t.c.removeFromSuperview()
        #expect(t.c.tag == tag)
        let other2 = View()
        other2.addSubview(t.c)
        #expect(t.c.tag == tag)
        #expect(other2.groupDescendants(by: [tag]) == [tag: [t.c]])
        t.b.removeFromSuperview()
        #expect(t.b11.tag == tag)
        #expect(t.b.groupDescendants(by: [tag]) == [tag: [t.b11]])
    }

    @Test func wideTagsAreDistinct() {
        let root = View()
        let tags = [Int.max, Int.min, Int(Int32.min), Int(Int32.min) - 1, Int(Int32.max) + 1, Int.max - 1]
        var views: [View] = []
        for tag in tags {
            let v = View()
            v.tag = tag
            root.addSubview(v)
            views.append(v)
        }
        let groups = root.groupDescendants(by: tags)
        #expect(groups.count == tags.count)
        for (tag, v) in zip(tags, views) {
            #expect(groups[tag] == [v], "tag \(tag)")
            #expect(root.viewWithTag(tag) === v, "tag \(tag)")
            #expect(v.tag == tag)
        }
        #expect(root.groupDescendants(by: [Int(Int32.max)]).isEmpty)
        // Wide tags survive a merge into a larger tree's arena, and a split out of it.
        let big = View()
        for _ in 0 ..< 20 { big.addSubview(View()) }
        big.subviews[5].addSubview(root)
        let moved = big.groupDescendants(by: tags)
        for (tag, v) in zip(tags, views) {
            #expect(moved[tag] == [v], "tag \(tag)")
            #expect(v.tag == tag)
        }
        #expect(big.subviews[5].viewWithTag(Int.min) === views[1])
        root.removeFromSuperview()
        #expect(root.groupDescendants(by: tags) == groups)
        #expect(big.groupDescendants(by: tags).isEmpty)
        views[0].removeFromSuperview()
        #expect(views[0].tag == Int.max)
        #expect(views[0]._store == nil)
    }

    // MARK: recursiveSubviews

    @Test func recursiveSubviewsOrder() {
        let root = View(), a = View(), b = View(), a1 = View(), a11 = View(), b1 = View()
        root.addSubview(a); root.addSubview(b)
        a.addSubview(a1); a1.addSubview(a11)
        b.addSubview(b1)
        #expect(root.recursiveSubviews == [a, b, a1, a11, b1])
        // It is not pre-order.
        #expect(root.groupDescendants(by: [View.self])["View"] == [a, a1, a11, b, b1])
        #expect(a.recursiveSubviews == [a1, a11])
        #expect(b1.recursiveSubviews == [])
    }
}
