import Testing
import RelativeViewNaive

/// Checks `actual` against `expected` element by element, by identity.
private func expectSameViews(_ actual: [NaiveView], _ expected: [NaiveView], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    for (index, (view, expectedView)) in zip(actual, expected).enumerated() {
        #expect(view === expectedView, "element \(index)", sourceLocation: sourceLocation)
    }
}

@Suite struct SiblingTests {
    @Test func isRelativeSiblingRequiresTheSameSuperviewAndADifferentView() {
        let root = NaiveView()
        let a = NaiveView()
        let b = NaiveView()
        let a1 = NaiveView()
        let b1 = NaiveView()
        root.addSubview(a)
        root.addSubview(b)
        a.addSubview(a1)
        b.addSubview(b1)

        #expect(a.isRelativeSibling(of: b))
        #expect(b.isRelativeSibling(of: a))
        #expect(!a.isRelativeSibling(of: a))
        #expect(!a1.isRelativeSibling(of: b1))  // cousins
        #expect(!a.isRelativeSibling(of: a1))   // parent and child
        #expect(!root.isRelativeSibling(of: a))
    }

    @Test func findFirstSiblingIsTheFirstOtherSubviewThatMatches() {
        let root = NaiveView()
        let (a, b, c, d) = (NaiveView(), NaiveView.Label(), NaiveView(), NaiveView.Label())
        for view in [a, b, c, d] { root.addSubview(view) }
        a.tag = 3
        c.tag = 3
        #expect(a.findFirstSibling(by: [3]) === c, "never the view itself")
        #expect(b.findFirstSibling(by: [3]) === a)
        #expect(b.findFirstSibling(by: [NaiveView.Label.self]) === d)
        #expect(b.findFirstSibling(by: [9]) == nil)
        #expect(root.findFirstSibling { _ in true } == nil, "no superview, no siblings")
        #expect(d.findFirstSibling { $0.tag == 0 } === b)
    }

    @Test func viewsWithoutASuperviewHaveNoSiblings() {
        let lonely = NaiveView()
        let other = NaiveView()
        lonely.tag = 1
        other.tag = 1
        #expect(!lonely.isRelativeSibling(of: other))
        #expect(!lonely.isRelativeSibling(of: lonely))
        #expect(lonely.groupSiblings { _ in 0 }.isEmpty)
        #expect(lonely.groupSiblings(by: [1]).isEmpty)
        #expect(lonely.groupSiblings(by: [NaiveView.self]).isEmpty)

        // A root with children still has no siblings.
        lonely.addSubview(NaiveView())
        #expect(lonely.groupSiblings { _ in 0 }.isEmpty)
    }

    @Test func groupSiblingsIsInSubviewsOrderWithoutSelf() {
        let parent = NaiveView()
        let views = (0..<5).map { _ in NaiveView() }
        views.forEach(parent.addSubview)
        let groups = views[2].groupSiblings { _ in "all" }
        #expect(groups.count == 1)
        expectSameViews(groups["all"] ?? [], [views[0], views[1], views[3], views[4]])

        // Reordering the parent's subviews reorders the result.
        parent.sendSubviewToBack(views[4])
        expectSameViews(views[2].groupSiblings { _ in "all" }["all"] ?? [], [views[4], views[0], views[1], views[3]])
    }

    @Test func groupSiblingsByTypeMatchesTheExactTypeOnly() {
        let parent = NaiveView()
        let me = NaiveView.Button()
        let button = NaiveView.Button()
        let field = NaiveView.TextField()
        let cell = NaiveView.TableViewCell()
        let otherButton = NaiveView.Button()
        [button, me, field, cell, otherButton].forEach(parent.addSubview)

        #expect(me.groupSiblings(by: [NaiveView.Control.self]).isEmpty)
        let groups = me.groupSiblings(by: [NaiveView.Button.self, NaiveView.TextField.self])
        #expect(Set(groups.keys) == ["Button", "TextField"])
        expectSameViews(groups["Button"] ?? [], [button, otherButton])
        expectSameViews(groups["TextField"] ?? [], [field])
    }

    @Test func groupSiblingsByTag() {
        let parent = NaiveView()
        let views = (0..<6).map { index -> NaiveView in
            let view = NaiveView()
            view.tag = index % 3
            return view
        }
        views.forEach(parent.addSubview)
        let groups = views[0].groupSiblings(by: [0, 2])
        #expect(groups.count == 2)
        expectSameViews(groups[0] ?? [], [views[3]])
        expectSameViews(groups[2] ?? [], [views[2], views[5]])
        #expect(groups[1] == nil)
    }

    @Test func emptyTypeAndTagListsMatchNothing() {
        let parent = NaiveView()
        let a = NaiveView()
        parent.addSubview(a)
        parent.addSubview(NaiveView())
        let byType: [String: [NaiveView]] = a.groupSiblings(by: [NaiveView.Type]())
        let byTag: [Int: [NaiveView]] = a.groupSiblings(by: [Int]())
        #expect(byType.isEmpty)
        #expect(byTag.isEmpty)
    }

    @Test func duplicatesInTheListDoNotDuplicateResults() {
        let parent = NaiveView()
        let a = NaiveView()
        let b = NaiveView()
        b.tag = 3
        parent.addSubview(a)
        parent.addSubview(b)
        let groups = a.groupSiblings(by: [3, 3])
        #expect(groups.count == 1)
        expectSameViews(groups[3] ?? [], [b])
        expectSameViews(a.groupSiblings(by: [NaiveView.self, NaiveView.self])["NaiveView"] ?? [], [b])
    }

    @Test func groupKeyReturningNilLeavesASiblingOut() {
        let parent = NaiveView()
        let views = (0..<4).map { _ in NaiveView() }
        views.forEach(parent.addSubview)
        let groups = views[0].groupSiblings { view -> Int? in view === views[2] ? nil : 1 }
        expectSameViews(groups[1] ?? [], [views[1], views[3]])
        #expect(views[0].groupSiblings { _ -> Int? in nil }.isEmpty)
    }

    @Test(arguments: [0, 1, 2, 10, 100])
    func wideParents(width: Int) {
        let parent = NaiveView()
        let me = NaiveView()
        parent.addSubview(me)
        var others: [NaiveView] = []
        for index in 0..<width {
            let view = NaiveView()
            view.tag = index
            parent.addSubview(view)
            others.append(view)
        }
        let all = me.groupSiblings { _ in 0 }
        if width == 0 {
            #expect(all.isEmpty)
        } else {
            expectSameViews(all[0] ?? [], others)
        }
        #expect(others.allSatisfy { me.isRelativeSibling(of: $0) && $0.isRelativeSibling(of: me) })
        let byTag = me.groupSiblings(by: Array(0..<width))
        #expect(byTag.count == width)
        #expect(byTag.allSatisfy { key, views in views.count == 1 && views[0].tag == key })
        if let last = others.last {
            let groups = last.groupSiblings { _ in 0 }[0] ?? []
            #expect(groups.count == width)
            #expect(groups.first === me)
            #expect(!groups.contains { $0 === last })
        }
    }
}
