import Testing
import RelativeViewNaive

/// Checks `actual` against `expected` element by element, by identity.
private func expectSameViews(_ actual: [NaiveView], _ expected: [NaiveView], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    for (index, (view, expectedView)) in zip(actual, expected).enumerated() {
        #expect(view === expectedView, "element \(index)", sourceLocation: sourceLocation)
    }
}

/// A parent with `count` plain subviews, returned alongside it.
private func makeParent(childCount count: Int) -> (NaiveView, [NaiveView]) {
    let parent = NaiveView()
    let children = (0..<count).map { _ in NaiveView() }
    children.forEach(parent.addSubview)
    return (parent, children)
}

@Suite struct MutationTests {
    @Test func defaults() {
        let view = NaiveView()
        #expect(view.tag == 0)
        #expect(view.superview == nil)
        #expect(view.subviews.isEmpty)
        #expect(NaiveView.Slider().value == 0)
        #expect(NaiveView.TextField().text == nil)
        #expect(NaiveView.Label().text == nil)
        #expect(NaiveView.Button().title == nil)
        #expect(NaiveView.Image(named: "a") == NaiveView.Image(named: "a"))
        #expect(NaiveView.Image(named: "a") != NaiveView.Image(named: "b"))
        #expect(NaiveView.Image(named: "a").name == "a")
    }

    @Test func addSubviewAppendsAndSetsSuperview() {
        let (parent, children) = makeParent(childCount: 3)
        expectSameViews(parent.subviews, children)
        #expect(children.allSatisfy { $0.superview === parent })
    }

    @Test func addingASubviewAgainMovesItToTheEnd() {
        let (parent, children) = makeParent(childCount: 3)
        parent.addSubview(children[0])
        expectSameViews(parent.subviews, [children[1], children[2], children[0]])
        #expect(children[0].superview === parent)
        parent.addSubview(children[0])
        expectSameViews(parent.subviews, [children[1], children[2], children[0]])
    }

    @Test func addingToANewParentRemovesFromTheOldOne() {
        let (oldParent, children) = makeParent(childCount: 3)
        let newParent = NaiveView()
        let grandchild = NaiveView()
        children[1].addSubview(grandchild)
        newParent.addSubview(children[1])
        expectSameViews(oldParent.subviews, [children[0], children[2]])
        expectSameViews(newParent.subviews, [children[1]])
        #expect(children[1].superview === newParent)
        // The moved view keeps its own subtree.
        #expect(grandchild.superview === children[1])
        #expect(grandchild.isDescendant(of: newParent))
        #expect(!grandchild.isDescendant(of: oldParent))

        // insertSubview(_:at:) also moves between parents.
        newParent.insertSubview(children[0], at: 0)
        expectSameViews(oldParent.subviews, [children[2]])
        expectSameViews(newParent.subviews, [children[0], children[1]])
    }

    @Test func removeFromSuperview() {
        let (parent, children) = makeParent(childCount: 3)
        children[1].removeFromSuperview()
        expectSameViews(parent.subviews, [children[0], children[2]])
        #expect(children[1].superview == nil)
        // Removing a detached view does nothing.
        children[1].removeFromSuperview()
        #expect(children[1].superview == nil)
        expectSameViews(parent.subviews, [children[0], children[2]])
    }

    @Test func insertSubviewAtIndex() {
        let (parent, children) = makeParent(childCount: 2)
        let front = NaiveView()
        let middle = NaiveView()
        let back = NaiveView()
        parent.insertSubview(front, at: 0)
        parent.insertSubview(back, at: 3)
        parent.insertSubview(middle, at: 2)
        expectSameViews(parent.subviews, [front, children[0], middle, children[1], back])
        #expect([front, middle, back].allSatisfy { $0.superview === parent })
    }

    @Test func insertingAnExistingSubviewUsesTheIndexAfterRemoval() {
        let (parent, children) = makeParent(childCount: 3)
        parent.insertSubview(children[0], at: 2)
        expectSameViews(parent.subviews, [children[1], children[2], children[0]])
        parent.insertSubview(children[0], at: 0)
        expectSameViews(parent.subviews, [children[0], children[1], children[2]])
        parent.insertSubview(children[2], at: 1)
        expectSameViews(parent.subviews, [children[0], children[2], children[1]])
    }

    @Test func insertSubviewAboveAndBelow() {
        let (parent, children) = makeParent(childCount: 3)
        let above = NaiveView()
        let below = NaiveView()
        parent.insertSubview(above, aboveSubview: children[1])
        expectSameViews(parent.subviews, [children[0], children[1], above, children[2]])
        parent.insertSubview(below, belowSubview: children[0])
        expectSameViews(parent.subviews, [below, children[0], children[1], above, children[2]])
        #expect(above.superview === parent)
        #expect(below.superview === parent)

        // Moving an existing subview relative to a sibling.
        parent.insertSubview(children[2], belowSubview: children[0])
        expectSameViews(parent.subviews, [below, children[2], children[0], children[1], above])
        parent.insertSubview(below, aboveSubview: above)
        expectSameViews(parent.subviews, [children[2], children[0], children[1], above, below])
        parent.insertSubview(children[1], aboveSubview: below)
        expectSameViews(parent.subviews, [children[2], children[0], above, below, children[1]])

        // Relative to itself: nothing changes.
        parent.insertSubview(above, aboveSubview: above)
        parent.insertSubview(above, belowSubview: above)
        expectSameViews(parent.subviews, [children[2], children[0], above, below, children[1]])
    }

    @Test func insertSubviewAboveMovesFromAnotherParent() {
        let (parent, children) = makeParent(childCount: 2)
        let (otherParent, others) = makeParent(childCount: 2)
        parent.insertSubview(others[0], aboveSubview: children[0])
        expectSameViews(parent.subviews, [children[0], others[0], children[1]])
        expectSameViews(otherParent.subviews, [others[1]])
        #expect(others[0].superview === parent)
    }

    @Test func bringSubviewToFrontAndSendSubviewToBack() {
        let (parent, children) = makeParent(childCount: 4)
        parent.bringSubviewToFront(children[1])
        expectSameViews(parent.subviews, [children[0], children[2], children[3], children[1]])
        parent.sendSubviewToBack(children[3])
        expectSameViews(parent.subviews, [children[3], children[0], children[2], children[1]])
        parent.bringSubviewToFront(children[1])
        parent.sendSubviewToBack(children[3])
        expectSameViews(parent.subviews, [children[3], children[0], children[2], children[1]])
    }

    @Test func bringAndSendAreNoOpsForViewsThatAreNotSubviews() {
        let (parent, children) = makeParent(childCount: 3)
        let stranger = NaiveView()
        let grandchild = NaiveView()
        children[0].addSubview(grandchild)
        parent.bringSubviewToFront(stranger)
        parent.sendSubviewToBack(stranger)
        parent.bringSubviewToFront(grandchild)
        parent.sendSubviewToBack(grandchild)
        expectSameViews(parent.subviews, children)
        #expect(stranger.superview == nil)
        #expect(grandchild.superview === children[0])
    }

    @Test func exchangeSubviews() {
        let (parent, children) = makeParent(childCount: 4)
        parent.exchangeSubview(at: 0, withSubviewAt: 3)
        expectSameViews(parent.subviews, [children[3], children[1], children[2], children[0]])
        parent.exchangeSubview(at: 2, withSubviewAt: 1)
        expectSameViews(parent.subviews, [children[3], children[2], children[1], children[0]])
        parent.exchangeSubview(at: 1, withSubviewAt: 1)
        expectSameViews(parent.subviews, [children[3], children[2], children[1], children[0]])
        #expect(children.allSatisfy { $0.superview === parent })
    }

    @Test func superviewIsWeak() {
        let child = NaiveView()
        weak var weakRoot: NaiveView?
        do {
            let root = NaiveView()
            weakRoot = root
            root.addSubview(child)
            #expect(child.superview === root)
        }
        #expect(weakRoot == nil)
        #expect(child.superview == nil)
        #expect(child.findFirstAncestor { _ in true } == nil)
    }

    @Test func subviewsAreOwnedByTheirParent() {
        let root = NaiveView()
        weak var weakChild: NaiveView?
        do {
            let child = NaiveView()
            weakChild = child
            root.addSubview(child)
        }
        #expect(weakChild != nil)
        #expect(root.subviews.first === weakChild)
        weakChild?.removeFromSuperview()
        #expect(weakChild == nil)
        #expect(root.subviews.isEmpty)
    }

    @Test func aButtonsTitleLabelFollowsItsTitle() {
        let button = NaiveView.Button()
        let label = button.titleLabel
        #expect(label != nil)
        #expect(label?.text == nil)
        button.setTitle("Go")
        #expect(button.title == "Go")
        #expect(button.titleLabel === label)
        #expect(label?.text == "Go")
        button.title = "Stop"
        #expect(label?.text == "Stop")
        #expect(button.subviews.isEmpty)
    }

    @Test(arguments: [0, 1, 2, 10, 100])
    func reorderingSweep(count: Int) {
        let (parent, children) = makeParent(childCount: count)
        // Bringing every child to the front in order leaves the order unchanged.
        children.forEach(parent.bringSubviewToFront)
        expectSameViews(parent.subviews, children)
        // Sending every child to the back in order reverses it.
        children.forEach(parent.sendSubviewToBack)
        expectSameViews(parent.subviews, children.reversed())
        // Exchanging mirrored pairs restores the original order.
        for index in 0..<(count / 2) {
            parent.exchangeSubview(at: index, withSubviewAt: count - 1 - index)
        }
        expectSameViews(parent.subviews, children)
        // Moving everything to a new parent empties the old one.
        let newParent = NaiveView()
        for (index, child) in children.enumerated() {
            newParent.insertSubview(child, at: index)
        }
        #expect(parent.subviews.isEmpty)
        expectSameViews(newParent.subviews, children)
        #expect(children.allSatisfy { $0.superview === newParent })
    }

    @Test(arguments: [0, 1, 2, 10, 100])
    func reparentingAChainSweep(depth: Int) {
        var chain = [NaiveView()]
        for _ in 0..<depth {
            let next = NaiveView()
            chain[chain.count - 1].addSubview(next)
            chain.append(next)
        }
        // Moving the leaf to the root shortens its ancestor chain to one.
        let leaf = chain[depth]
        if depth > 0 {
            chain[0].addSubview(leaf)
            #expect(leaf.superview === chain[0])
            #expect(leaf.isDescendant(of: chain[0]))
            #expect(depth == 1 || chain[depth - 1].subviews.isEmpty)
            #expect(chain[0].subviews.count == (depth == 1 ? 1 : 2))
        }
        // Attaching the root under an unrelated view is allowed.
        let top = NaiveView()
        top.addSubview(chain[0])
        #expect(leaf.isDescendant(of: top))
    }
}
