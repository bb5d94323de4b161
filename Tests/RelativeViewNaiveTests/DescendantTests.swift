import Testing
import RelativeViewNaive

/// root ─┬─ a ─┬─ a1 ── a11
///       │     └─ a2
///       └─ b ─── b1
private struct SampleTree {
    let root = NaiveView()
    let a = NaiveView()
    let a1 = NaiveView()
    let a11 = NaiveView()
    let a2 = NaiveView()
    let b = NaiveView()
    let b1 = NaiveView()

    init() {
        root.addSubview(a)
        root.addSubview(b)
        a.addSubview(a1)
        a.addSubview(a2)
        a1.addSubview(a11)
        b.addSubview(b1)
    }

    /// Depth-first pre-order of the descendants of `root`.
    var preOrder: [NaiveView] { [a, a1, a11, a2, b, b1] }
}

/// Checks `actual` against `expected` element by element, by identity.
private func expectSameViews(_ actual: [NaiveView], _ expected: [NaiveView], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    for (index, (view, expectedView)) in zip(actual, expected).enumerated() {
        #expect(view === expectedView, "element \(index)", sourceLocation: sourceLocation)
    }
}

@Suite struct DescendantTests {
    @Test func findFirstDescendantIsTheFirstMatchInPreOrder() {
        let tree = SampleTree()
        tree.a11.tag = 4
        tree.a2.tag = 4
        tree.b1.tag = 5
        #expect(tree.root.findFirstDescendant(by: [4]) === tree.a11)
        #expect(tree.root.findFirstDescendant(by: [5, 4]) === tree.a11, "the first in pre-order, not the first tag asked")
        #expect(tree.b.findFirstDescendant(by: [4]) == nil, "only the view's own subtree")
        #expect(tree.a11.findFirstDescendant(by: [4]) == nil, "never the view itself")
        #expect(tree.root.findFirstDescendant(by: [NaiveView.self]) === tree.a)
        #expect(tree.root.findFirstDescendant(by: [NaiveView.Label.self]) == nil, "exact classes only")
        var visited: [NaiveView] = []
        let found = tree.root.findFirstDescendant { visited.append($0); return $0 === tree.a2 }
        #expect(found === tree.a2)
        expectSameViews(visited, [tree.a, tree.a1, tree.a11, tree.a2])
    }

    @Test func groupDescendantsIsDepthFirstPreOrder() {
        let tree = SampleTree()
        let groups = tree.root.groupDescendants { _ in "all" }
        #expect(groups.count == 1)
        expectSameViews(groups["all"] ?? [], tree.preOrder)
    }

    @Test func groupDescendantsByTagKeepsPreOrderWithinEachGroup() {
        let tree = SampleTree()
        tree.a.tag = 1
        tree.a11.tag = 1
        tree.b1.tag = 1
        tree.a1.tag = 2
        tree.b.tag = 2
        tree.root.tag = 1  // the root itself is not a descendant
        let groups = tree.root.groupDescendants(by: [1, 2])
        #expect(groups.count == 2)
        expectSameViews(groups[1] ?? [], [tree.a, tree.a11, tree.b1])
        expectSameViews(groups[2] ?? [], [tree.a1, tree.b])
    }

    @Test func aViewIsNeverItsOwnDescendant() {
        let tree = SampleTree()
        #expect(!tree.root.isRelativeDescendant(of: tree.root))
        #expect(!tree.a11.isRelativeDescendant(of: tree.a11))
        #expect(tree.root.groupDescendants { $0 === tree.root ? 0 : nil }.isEmpty)
        let leaf = NaiveView()
        leaf.tag = 3
        #expect(leaf.groupDescendants(by: [3]).isEmpty)
        #expect(leaf.groupDescendants(by: [NaiveView.self]).isEmpty)
    }

    @Test func isRelativeDescendantIsTrueOnlyForStrictDescendants() {
        let tree = SampleTree()
        let stranger = NaiveView()
        #expect(tree.a11.isRelativeDescendant(of: tree.root))
        #expect(tree.a11.isRelativeDescendant(of: tree.a))
        #expect(tree.b1.isRelativeDescendant(of: tree.b))
        #expect(!tree.b1.isRelativeDescendant(of: tree.a))
        #expect(!tree.root.isRelativeDescendant(of: tree.a11))
        #expect(!tree.a2.isRelativeDescendant(of: tree.a1))
        #expect(!stranger.isRelativeDescendant(of: tree.root))
        #expect(!tree.root.isRelativeDescendant(of: stranger))
    }

    @Test func isDescendantOfIsTrueForSelfAndAncestors() {
        let tree = SampleTree()
        #expect(tree.a11.isDescendant(of: tree.a11))
        #expect(tree.root.isDescendant(of: tree.root))
        #expect(tree.a11.isDescendant(of: tree.a1))
        #expect(tree.a11.isDescendant(of: tree.root))
        #expect(!tree.a11.isDescendant(of: tree.b))
        #expect(!tree.root.isDescendant(of: tree.a))
        #expect(!NaiveView().isDescendant(of: tree.root))
    }

    @Test func groupDescendantsByTypeMatchesTheExactTypeOnly() {
        let root = NaiveView()
        let button = NaiveView.Button()
        let field = NaiveView.TextField()
        let slider = NaiveView.Slider()
        let label = NaiveView.Label()
        let secondButton = NaiveView.Button()
        root.addSubview(button)
        root.addSubview(field)
        field.addSubview(slider)
        root.addSubview(label)
        label.addSubview(secondButton)

        #expect(root.groupDescendants(by: [NaiveView.Control.self]).isEmpty)

        let groups = root.groupDescendants(by: [NaiveView.Button.self, NaiveView.Slider.self, NaiveView.Control.self])
        #expect(Set(groups.keys) == ["Button", "Slider"])
        expectSameViews(groups["Button"] ?? [], [button, secondButton])
        expectSameViews(groups["Slider"] ?? [], [slider])

        #expect(String(describing: NaiveView.Button.self) == "Button")
        #expect(String(describing: NaiveView.TableViewCell.self) == "TableViewCell")
    }

    @Test func aButtonsTitleLabelIsNotADescendant() {
        let root = NaiveView()
        let button = NaiveView.Button()
        button.setTitle("OK")
        root.addSubview(button)
        #expect(root.groupDescendants(by: [NaiveView.Label.self]).isEmpty)
        #expect(button.subviews.isEmpty)
        #expect(button.titleLabel?.superview == nil)
    }

    @Test func emptyTypeAndTagListsMatchNothing() {
        let tree = SampleTree()
        let byType: [String: [NaiveView]] = tree.root.groupDescendants(by: [NaiveView.Type]())
        let byTag: [Int: [NaiveView]] = tree.root.groupDescendants(by: [Int]())
        #expect(byType.isEmpty)
        #expect(byTag.isEmpty)
    }

    @Test func duplicateTagsDoNotDuplicateResults() {
        let tree = SampleTree()
        tree.a1.tag = 4
        tree.b1.tag = 4
        let groups = tree.root.groupDescendants(by: [4, 4, 4])
        #expect(groups.count == 1)
        expectSameViews(groups[4] ?? [], [tree.a1, tree.b1])

        let typeGroups = tree.root.groupDescendants(by: [NaiveView.self, NaiveView.self])
        expectSameViews(typeGroups["NaiveView"] ?? [], tree.preOrder)
    }

    @Test func groupKeyReturningNilLeavesADescendantOut() {
        let tree = SampleTree()
        let groups = tree.root.groupDescendants { view -> Int? in
            view === tree.a1 || view === tree.b ? nil : 0
        }
        expectSameViews(groups[0] ?? [], [tree.a, tree.a11, tree.a2, tree.b1])
        #expect(tree.root.groupDescendants { _ -> String? in nil }.isEmpty)
    }

    @Test func viewWithTagChecksSelfFirst() {
        let tree = SampleTree()
        tree.root.tag = 7
        tree.a.tag = 7
        #expect(tree.root.viewWithTag(7) === tree.root)
        #expect(tree.a.viewWithTag(7) === tree.a)
        // Default tag 0 matches the receiver itself.
        #expect(tree.b.viewWithTag(0) === tree.b)
    }

    @Test func viewWithTagIsDepthFirst() {
        let tree = SampleTree()
        tree.a11.tag = 9
        tree.b.tag = 9  // shallower, but later in depth-first order
        #expect(tree.root.viewWithTag(9) === tree.a11)
        #expect(tree.b.viewWithTag(9) === tree.b)
        tree.a2.tag = 8
        tree.b1.tag = 8
        #expect(tree.root.viewWithTag(8) === tree.a2)
        #expect(tree.root.viewWithTag(42) == nil)
        #expect(tree.a.viewWithTag(9) === tree.a11)
        #expect(tree.a2.viewWithTag(9) == nil)
    }

    @Test(arguments: [0, 1, 2, 10, 100])
    func wideTrees(width: Int) {
        let root = NaiveView()
        var children: [NaiveView] = []
        for index in 0..<width {
            let child = index.isMultiple(of: 2) ? NaiveView.Label() : NaiveView()
            child.tag = index + 1  // the root keeps tag 0
            root.addSubview(child)
            children.append(child)
        }
        let all = root.groupDescendants { _ in true }
        if width == 0 {
            #expect(all.isEmpty)
        } else {
            expectSameViews(all[true] ?? [], children)
        }
        let labels = root.groupDescendants(by: [NaiveView.Label.self])["Label"] ?? []
        #expect(labels.count == (width + 1) / 2)
        let byTag = root.groupDescendants(by: Array(0...width))
        #expect(byTag.count == width)
        #expect(byTag.allSatisfy { key, views in views.count == 1 && views[0].tag == key })
        if let last = children.last {
            #expect(root.viewWithTag(width) === last)
            #expect(root.viewWithTag(0) === root)
            #expect(last.isRelativeDescendant(of: root))
        }
    }

    @Test(arguments: [0, 1, 2, 10, 100])
    func deepChains(depth: Int) {
        var chain = [NaiveView()]
        for _ in 0..<depth {
            let next = NaiveView()
            chain[chain.count - 1].addSubview(next)
            chain.append(next)
        }
        chain[depth].tag = 1
        let descendants = chain[0].groupDescendants { _ in 0 }[0] ?? []
        expectSameViews(descendants, Array(chain.dropFirst()))
        #expect(chain[0].viewWithTag(1) === chain[depth])
        #expect(chain[depth].isRelativeDescendant(of: chain[0]) == (depth > 0))
        #expect(chain[depth].isDescendant(of: chain[0]))
    }
}
