import Testing
import RelativeViewNaive

/// Checks `actual` against `expected` element by element, by identity.
private func expectSameViews(_ actual: [NaiveView], _ expected: [NaiveView], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    for (index, (view, expectedView)) in zip(actual, expected).enumerated() {
        #expect(view === expectedView, "element \(index)", sourceLocation: sourceLocation)
    }
}

@Suite struct RecursiveSubviewTests {
    @Test func recursiveSubviewsListsDirectSubviewsFirstThenEachSubtree() {
        // root ─┬─ a ── a1 ── a11
        //       └─ b ── b1
        let root = NaiveView()
        let a = NaiveView()
        let b = NaiveView()
        let a1 = NaiveView()
        let a11 = NaiveView()
        let b1 = NaiveView()
        root.addSubview(a)
        root.addSubview(b)
        a.addSubview(a1)
        a1.addSubview(a11)
        b.addSubview(b1)

        expectSameViews(root.recursiveSubviews, [a, b, a1, a11, b1])
        expectSameViews(a.recursiveSubviews, [a1, a11])
        #expect(a11.recursiveSubviews.isEmpty)
    }

    @Test func recursiveSubviewsIsNotPreOrder() {
        // root ─┬─ a ─┬─ a1 ── a11
        //       │     └─ a2
        //       └─ b ─── b1
        let root = NaiveView()
        let a = NaiveView()
        let a1 = NaiveView()
        let a11 = NaiveView()
        let a2 = NaiveView()
        let b = NaiveView()
        let b1 = NaiveView()
        root.addSubview(a)
        root.addSubview(b)
        a.addSubview(a1)
        a.addSubview(a2)
        a1.addSubview(a11)
        b.addSubview(b1)

        // subviews + subviews.flatMap(recursiveSubviews):
        // [a, b] + ([a1, a2] + [a11]) + ([b1])
        expectSameViews(root.recursiveSubviews, [a, b, a1, a2, a11, b1])
        let preOrder = root.groupDescendants { _ in 0 }[0] ?? []
        expectSameViews(preOrder, [a, a1, a11, a2, b, b1])
    }

    @Test func findViewsMatchesSubclassesInRecursiveSubviewsOrder() {
        let root = NaiveView()
        let container = NaiveView()
        let slider = NaiveView.Slider()
        let label = NaiveView.Label()
        let button = NaiveView.Button()
        let field = NaiveView.TextField()
        let nestedButton = NaiveView.Button()
        root.addSubview(container)
        root.addSubview(label)
        root.addSubview(slider)
        container.addSubview(button)
        container.addSubview(field)
        field.addSubview(nestedButton)

        // recursiveSubviews: [container, label, slider, button, field, nestedButton]
        let controls: [NaiveView.Control] = root.findViews(subclassOf: NaiveView.Control.self)
        expectSameViews(controls, [slider, button, field, nestedButton])

        let buttons: [NaiveView.Button] = root.findViews(subclassOf: NaiveView.Button.self)
        expectSameViews(buttons, [button, nestedButton])

        expectSameViews(root.findViews(subclassOf: NaiveView.self), root.recursiveSubviews)
        #expect(root.findViews(subclassOf: NaiveView.ImageView.self).isEmpty)
        #expect(root.findViews(subclassOf: NaiveView.TableView.self).isEmpty)
    }

    @Test func findViewsOfAScrollViewAlsoFindsTableViews() {
        let root = NaiveView()
        let table = NaiveView.TableView()
        let scroll = NaiveView.ScrollView()
        let cell = NaiveView.TableViewCell()
        root.addSubview(table)
        root.addSubview(scroll)
        table.addSubview(cell)
        expectSameViews(root.findViews(subclassOf: NaiveView.ScrollView.self), [table, scroll])
        expectSameViews(root.findViews(subclassOf: NaiveView.TableView.self), [table])
        expectSameViews(root.findViews(subclassOf: NaiveView.TableViewCell.self), [cell])
    }

    @Test func findLabelsMatchesText() {
        let root = NaiveView()
        let hello = NaiveView.Label()
        hello.text = "Hello"
        let world = NaiveView.Label()
        world.text = "World"
        let empty = NaiveView.Label()
        let nestedHello = NaiveView.Label()
        nestedHello.text = "Hello"
        let field = NaiveView.TextField()
        field.text = "Hello"  // not a label
        root.addSubview(hello)
        root.addSubview(world)
        root.addSubview(empty)
        world.addSubview(nestedHello)
        root.addSubview(field)

        expectSameViews(root.findLabels(with: "Hello"), [hello, nestedHello])
        expectSameViews(root.findLabels(with: "World"), [world])
        #expect(root.findLabels(with: "").isEmpty)
        #expect(root.findLabels(with: "hello").isEmpty)
        // The receiver itself is not searched.
        expectSameViews(hello.findLabels(with: "Hello"), [])
    }

    @Test func findButtonsMatchesTitleAndIgnoresTitleLabels() {
        let root = NaiveView()
        let ok = NaiveView.Button()
        ok.setTitle("OK")
        let cancel = NaiveView.Button()
        cancel.title = "Cancel"
        let untitled = NaiveView.Button()
        root.addSubview(ok)
        root.addSubview(cancel)
        root.addSubview(untitled)

        #expect(ok.titleLabel?.text == "OK")
        #expect(cancel.titleLabel?.text == "Cancel")
        #expect(untitled.titleLabel?.text == nil)
        expectSameViews(root.findButtons(with: "OK"), [ok])
        expectSameViews(root.findButtons(with: "Cancel"), [cancel])
        // A title label is not part of the tree, so it is never found as a label.
        #expect(root.findLabels(with: "OK").isEmpty)

        cancel.setTitle("OK")
        expectSameViews(root.findButtons(with: "OK"), [ok, cancel])
        cancel.setTitle(nil)
        #expect(cancel.titleLabel?.text == nil)
        expectSameViews(root.findButtons(with: "OK"), [ok])
        #expect(root.findButtons(with: "Cancel").isEmpty)
    }

    @Test func findImageViewsMatchesImage() {
        let root = NaiveView()
        let star = NaiveView.Image(named: "star")
        let first = NaiveView.ImageView(image: star)
        let second = NaiveView.ImageView(image: NaiveView.Image(named: "heart"))
        let third = NaiveView.ImageView()
        let nested = NaiveView.ImageView(image: NaiveView.Image(named: "star"))
        root.addSubview(first)
        root.addSubview(second)
        root.addSubview(third)
        second.addSubview(nested)

        #expect(third.image == nil)
        expectSameViews(root.findImageViews(with: star), [first, nested])
        expectSameViews(root.findImageViews(with: NaiveView.Image(named: "heart")), [second])
        #expect(root.findImageViews(with: NaiveView.Image(named: "moon")).isEmpty)
        third.image = star
        expectSameViews(root.findImageViews(with: star), [first, third, nested])
    }

    @Test(arguments: [0, 1, 2, 10, 100])
    func chains(depth: Int) {
        var chain = [NaiveView()]
        for index in 0..<depth {
            let next: NaiveView = index.isMultiple(of: 2) ? NaiveView.Slider() : NaiveView.Label()
            chain[chain.count - 1].addSubview(next)
            chain.append(next)
        }
        // In a chain there is one subview per level, so the order is the chain order.
        expectSameViews(chain[0].recursiveSubviews, Array(chain.dropFirst()))
        #expect(chain[0].findViews(subclassOf: NaiveView.Control.self).count == (depth + 1) / 2)
        #expect(chain[0].findViews(subclassOf: NaiveView.Label.self).count == depth / 2)
    }

    @Test(arguments: [0, 1, 2, 10, 100])
    func wideTrees(width: Int) {
        // Each child has one grandchild: direct children come first, then
        // grandchildren in child order.
        let root = NaiveView()
        var children: [NaiveView] = []
        var grandchildren: [NaiveView] = []
        for _ in 0..<width {
            let child = NaiveView.Button()
            let grandchild = NaiveView.Label()
            grandchild.text = "x"
            child.addSubview(grandchild)
            root.addSubview(child)
            children.append(child)
            grandchildren.append(grandchild)
        }
        expectSameViews(root.recursiveSubviews, children + grandchildren)
        expectSameViews(root.findLabels(with: "x"), grandchildren)
        expectSameViews(root.findViews(subclassOf: NaiveView.Button.self), children)
    }
}
