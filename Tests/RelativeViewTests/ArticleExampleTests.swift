import Testing
import RelativeView

/// The Qiita article "Swiftで再帰的なサブビューの取得とUI層のユニットテストへの応用":
/// `recursiveSubviews` and the helpers built on it (`findViews(subclassOf:)`,
/// `findLabels(with:)`, `findButtons(with:)`, `findImageViews(with:)`).
@Suite struct ArticleExampleTests {
    // MARK: recursiveSubviews (the article's own test)

    @Test func recursiveSubviewsReturnsEverySubviewRecursively() {
        let view = View()
        let view1_1 = View()
        let view1_2 = View()
        let view1_1_1 = View()
        let view1_1_2 = View()
        let view1_1_1_1 = View()
        let view1_1_1_2 = View()

        view.addSubview(view1_1)
        view.addSubview(view1_2)
        view1_1.addSubview(view1_1_1)
        view1_1.addSubview(view1_1_2)
        view1_1_1.addSubview(view1_1_1_1)
        view1_1_1.addSubview(view1_1_1_2)

        #expect(view.recursiveSubviews.contains(view1_1))
        #expect(view.recursiveSubviews.contains(view1_2))
        #expect(view.recursiveSubviews.contains(view1_1_1))
        #expect(view.recursiveSubviews.contains(view1_1_2))
        #expect(view.recursiveSubviews.contains(view1_1_1_1))
        #expect(view.recursiveSubviews.contains(view1_1_1_2))

        #expect(view.recursiveSubviews.count == 6)

        // The article's definition, `subviews + subviews.flatMap { $0.recursiveSubviews }`,
        // fixes the order too.
        #expect(view.recursiveSubviews == [view1_1, view1_2, view1_1_1, view1_1_2, view1_1_1_1, view1_1_1_2])
        #expect(view1_1.recursiveSubviews == [view1_1_1, view1_1_2, view1_1_1_1, view1_1_1_2])
        #expect(view1_1_1.recursiveSubviews == [view1_1_1_1, view1_1_1_2])
        #expect(view1_2.recursiveSubviews.isEmpty)
        #expect(!view.recursiveSubviews.contains(view))
    }

    @Test func recursiveSubviewsMatchesTheArticleDefinition() {
        // A tree with uneven fan-out; compare with the article's recursive definition.
        func reference(_ v: View) -> [View] {
            v.subviews + v.subviews.flatMap { reference($0) }
        }
        let root = View()
        var all: [View] = [root]
        // Parent of view i (i >= 1) is view (i * 7) % i ... a deterministic mixed shape.
        for i in 1 ..< 60 {
            let parent = all[(i * 37 + 11) % i]
            let child = View()
            parent.addSubview(child)
            all.append(child)
        }
        for v in all {
            #expect(v.recursiveSubviews == reference(v), "view \(all.firstIndex(of: v)!)")
        }
        #expect(root.recursiveSubviews.count == 59)
    }

    @Test func loneViewHasNoRecursiveSubviews() {
        #expect(View().recursiveSubviews.isEmpty)
        #expect(View().findViews(subclassOf: View.self).isEmpty)
    }

    // MARK: findViews(subclassOf:)

    @Test func findViewsMatchesSubclasses() {
        let root = View()
        let button = Button()
        let textField = TextField()
        let slider = Slider()
        let label = Label()
        let plain = View()
        let container = View()
        root.addSubview(button)
        root.addSubview(label)
        root.addSubview(container)
        container.addSubview(textField)
        container.addSubview(plain)
        plain.addSubview(slider)

        let controls: [Control] = root.findViews(subclassOf: Control.self)
        #expect(controls.count == 3)
        #expect(controls.map { ObjectIdentifier($0) } == [button, textField, slider].map { ObjectIdentifier($0) })

        let buttons: [Button] = root.findViews(subclassOf: Button.self)
        #expect(buttons.count == 1)
        #expect(buttons.first === button)

        let labels: [Label] = root.findViews(subclassOf: Label.self)
        #expect(labels.count == 1)
        #expect(labels.first === label)

        // View.self matches every view of recursiveSubviews, in that order.
        #expect(root.findViews(subclassOf: View.self) == root.recursiveSubviews)
        #expect(root.findViews(subclassOf: View.self).count == 6)

        // Never the view itself.
        #expect(button.findViews(subclassOf: Button.self).isEmpty)
        #expect(container.findViews(subclassOf: Control.self).map { ObjectIdentifier($0) } == [textField, slider].map { ObjectIdentifier($0) })
    }

    @Test func findViewsFollowsRecursiveSubviewsOrder() {
        // root [a, b], a [a1], b [b1]: recursiveSubviews is [a, b, a1, b1] (not pre-order).
        let root = View()
        let a = Label(); a.text = "a"
        let b = Label(); b.text = "b"
        let a1 = Label(); a1.text = "a1"
        let b1 = Label(); b1.text = "b1"
        root.addSubview(a)
        root.addSubview(b)
        a.addSubview(a1)
        b.addSubview(b1)
        #expect(root.findViews(subclassOf: Label.self).map(\.text) == ["a", "b", "a1", "b1"])
    }

    @Test func findViewsMatchesUserSubclasses() {
        final class FancyButton: Button {}
        let root = View()
        let fancy = FancyButton()
        let plain = Button()
        root.addSubview(plain)
        root.addSubview(fancy)
        #expect(root.findViews(subclassOf: Button.self).map { ObjectIdentifier($0) } == [plain, fancy].map { ObjectIdentifier($0) })
        #expect(root.findViews(subclassOf: FancyButton.self).map { ObjectIdentifier($0) } == [ObjectIdentifier(fancy)])
        #expect(root.findViews(subclassOf: Control.self).count == 2)
        #expect(root.findViews(subclassOf: Slider.self).isEmpty)
    }

    // MARK: findLabels(with:)

    @Test func findLabelsWithText() {
        let root = View()
        let hello = Label(); hello.text = "Hello"
        let world = Label(); world.text = "World"
        let hello2 = Label(); hello2.text = "Hello"
        let untitled = Label()
        let field = TextField(); field.text = "Hello"   // not a label
        let box = View()
        root.addSubview(hello)
        root.addSubview(box)
        box.addSubview(world)
        box.addSubview(hello2)
        box.addSubview(untitled)
        box.addSubview(field)

        let found = root.findLabels(with: "Hello")
        #expect(found.count == 2)
        #expect(found.first === hello)
        #expect(found.last === hello2)
        #expect(root.findLabels(with: "World").map { ObjectIdentifier($0) } == [ObjectIdentifier(world)])
        #expect(root.findLabels(with: "nothing").isEmpty)
        #expect(root.findLabels(with: "").isEmpty)
        #expect(box.findLabels(with: "Hello").map { ObjectIdentifier($0) } == [ObjectIdentifier(hello2)])

        // Text changes are seen by the next query.
        world.text = "Hello"
        #expect(root.findLabels(with: "Hello").count == 3)
    }

    // MARK: findButtons(with:)

    @Test func findButtonsWithTitle() {
        let root = View()
        let ok = Button(); ok.setTitle("OK")
        let cancel = Button(); cancel.setTitle("Cancel")
        let ok2 = Button(); ok2.title = "OK"
        let untitled = Button()
        let okLabel = Label(); okLabel.text = "OK"      // a label, not a button
        let panel = View()
        root.addSubview(panel)
        panel.addSubview(ok)
        panel.addSubview(cancel)
        root.addSubview(ok2)
        root.addSubview(untitled)
        root.addSubview(okLabel)

        #expect(ok.title == "OK")
        #expect(ok.titleLabel?.text == "OK")

        let found = root.findButtons(with: "OK")
        // recursiveSubviews order: panel, ok2, untitled, okLabel, ok, cancel.
        #expect(found.map { ObjectIdentifier($0) } == [ok2, ok].map { ObjectIdentifier($0) })
        #expect(root.findButtons(with: "Cancel").map { ObjectIdentifier($0) } == [ObjectIdentifier(cancel)])
        #expect(root.findButtons(with: "Nope").isEmpty)

        cancel.setTitle("OK")
        #expect(root.findButtons(with: "OK").count == 3)
        cancel.setTitle(nil)
        #expect(cancel.titleLabel?.text == nil)
        #expect(root.findButtons(with: "OK").count == 2)
    }

    /// The title label is made on first use, as UIKit's: finding buttons reads the text of
    /// labels already made and makes none; a label's text set directly is found too.
    @Test func titleLabelIsMadeOnFirstUseAndFindButtonsReadsItsText() throws {
        let root = View()
        let (plain, direct, titled) = (Button(), Button(), Button())
        for b in [plain, direct, titled] { root.addSubview(b) }
        #expect(root.findButtons(with: "OK").isEmpty)
        titled.setTitle("OK")
        #expect(root.findButtons(with: "OK") == [titled])
        let label = try #require(direct.titleLabel)
        #expect(direct.titleLabel === label, "made once, then kept")
        label.text = "Direct"
        #expect(root.findButtons(with: "Direct") == [direct])
        direct.setTitle("OK")
        #expect(label.text == "OK")
        #expect(root.findButtons(with: "OK") == [direct, titled])
        #expect(plain.titleLabel?.text == nil)
    }

    @Test func titleLabelIsNotASubview() throws {
        let root = View()
        let button = Button()
        button.setTitle("Title")
        root.addSubview(button)
        let titleLabel = try #require(button.titleLabel)
        #expect(titleLabel.text == "Title")
        #expect(button.subviews.isEmpty)
        #expect(titleLabel.superview == nil)
        #expect(!root.recursiveSubviews.contains(titleLabel))
        #expect(root.recursiveSubviews == [button])
        // So findLabels does not see a button's title.
        #expect(root.findLabels(with: "Title").isEmpty)
    }

    // MARK: findImageViews(with:)

    @Test func findImageViewsWithImage() {
        let root = View()
        let icon = Image(named: "icon")
        let first = ImageView(image: icon)
        let other = ImageView(image: Image(named: "other"))
        let empty = ImageView()
        let second = ImageView()
        second.image = Image(named: "icon")           // equal by name
        let deep = View()
        root.addSubview(first)
        root.addSubview(deep)
        deep.addSubview(other)
        deep.addSubview(empty)
        deep.addSubview(second)

        #expect(Image(named: "icon") == icon)
        #expect(Image(named: "icon") != Image(named: "other"))
        let found = root.findImageViews(with: icon)
        #expect(found.map { ObjectIdentifier($0) } == [first, second].map { ObjectIdentifier($0) })
        #expect(root.findImageViews(with: Image(named: "other")).map { ObjectIdentifier($0) } == [ObjectIdentifier(other)])
        #expect(root.findImageViews(with: Image(named: "missing")).isEmpty)
        #expect(deep.findImageViews(with: icon).map { ObjectIdentifier($0) } == [ObjectIdentifier(second)])

        first.image = nil
        #expect(root.findImageViews(with: icon).count == 1)
    }
}
