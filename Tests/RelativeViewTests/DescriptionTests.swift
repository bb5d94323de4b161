import Testing
import RelativeView

/// A subclass from outside the module: its lines carry its own class name.
final class DescriptionBadge: Label {}

/// `debugDescription` and `recursiveDescription(maxLines:)` of views: exact text for lone
/// views and small trees, the cut line, a deep chain, and stale against fresh index.
@Suite struct DescriptionTests {
    /// root (View, 320 x 480) [label (Label, tag 3), button (Button, tag 7, no frame)].
    static func small() -> (root: View, label: Label, button: Button) {
        let root = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let label = Label(frame: CGRect(x: 10, y: 10, width: 100, height: 20))
        label.tag = 3
        let button = Button()
        button.tag = 7
        root.addSubview(label)
        root.addSubview(button)
        return (root, label, button)
    }

    // MARK: debugDescription

    @Test func aLoneView() {
        let v = View()
        #expect(v.debugDescription == "<View: frame = (0 0; 0 0); tag = 0; node = none; 0 subviews; superview = none>")
        #expect(String(reflecting: v) == v.debugDescription)
        #expect(v.description == "<View tag=0>")
        #expect(String(describing: v) == "<View tag=0>")
        let l = Label(frame: CGRect(x: 1, y: 2, width: 3.5, height: 4))
        l.tag = -5
        #expect(l.debugDescription == "<Label: frame = (1 2; 3.5 4); tag = -5; node = none; 0 subviews; superview = none>")
    }

    @Test func viewsInATree() {
        let (root, label, button) = Self.small()
        #expect(root.debugDescription == "<View: frame = (0 0; 320 480); tag = 0; node = #0.0; 2 subviews; superview = none>")
        #expect(label.debugDescription == "<Label: frame = (10 10; 100 20); tag = 3; node = #1.0; 0 subviews; superview = View>")
        #expect(button.debugDescription == "<Button: frame = (0 0; 0 0); tag = 7; node = #2.0; 0 subviews; superview = View>")
        let badge = DescriptionBadge()
        button.addSubview(badge)
        #expect(button.debugDescription == "<Button: frame = (0 0; 0 0); tag = 7; node = #2.0; 1 subview; superview = View>")
        #expect(badge.debugDescription == "<DescriptionBadge: frame = (0 0; 0 0); tag = 0; node = #3.0; 0 subviews; superview = Button>")
        #expect(root.description == "<View tag=0>")
    }

    // MARK: recursiveDescription

    @Test func aLoneViewIsOneLine() {
        #expect(View().recursiveDescription() == "<View: tag = 0; node = none>")
        let l = Label(frame: CGRect(x: 1, y: 2, width: 3, height: 4))
        l.tag = 5
        #expect(l.recursiveDescription() == "<Label: frame = (1 2; 3 4); tag = 5; node = none>")
        #expect(l.recursiveDescription(maxLines: 1) == l.recursiveDescription())
    }

    @Test func aSmallTree() {
        let (root, label, button) = Self.small()
        #expect(root.recursiveDescription() == """
            <View: frame = (0 0; 320 480); tag = 0; node = #0.0>
               | <Label: frame = (10 10; 100 20); tag = 3; node = #1.0>
               | <Button: frame = (0 0; 0 0); tag = 7; node = #2.0>
            """)
        #expect(label.recursiveDescription() == "<Label: frame = (10 10; 100 20); tag = 3; node = #1.0>")
        #expect(root.recursiveDescription(maxLines: 1) == """
            <View: frame = (0 0; 320 480); tag = 0; node = #0.0>
            … 2 more nodes
            """)
        // Back to lone: no node any more.
        button.removeFromSuperview()
        #expect(button.recursiveDescription() == "<Button: tag = 7; node = none>")
        #expect(button.debugDescription == "<Button: frame = (0 0; 0 0); tag = 7; node = none; 0 subviews; superview = none>")
        #expect(root.recursiveDescription() == """
            <View: frame = (0 0; 320 480); tag = 0; node = #0.0>
               | <Label: frame = (10 10; 100 20); tag = 3; node = #1.0>
            """)
    }

    @Test func tenViewsCut() {
        let root = View()
        for k in 1 ... 9 {
            let v = k % 2 == 0 ? Label() : View()
            v.tag = k
            root.addSubview(v)
        }
        let all = root.recursiveDescription()
        #expect(all == (["<View: tag = 0; node = #0.0>"] + (1 ... 9).map {
            "   | <\($0 % 2 == 0 ? "Label" : "View"): tag = \($0); node = #\($0).0>"
        }).joined(separator: "\n"))
        let lines = all.split(separator: "\n").map(String.init)
        for maxLines in 1 ... 11 {
            let shown = min(maxLines, 10)
            var expected = lines.prefix(shown).joined(separator: "\n")
            if shown < 10 { expected += "\n… \(10 - shown) more node\(10 - shown == 1 ? "" : "s")" }
            #expect(root.recursiveDescription(maxLines: maxLines) == expected, "maxLines \(maxLines)")
        }
    }

    @Test func staleIndexGivesTheSameTextAsFresh() {
        let (root, label, button) = Self.small()
        let inner = View()
        inner.tag = 9
        label.addSubview(inner)
        button.addSubview(label)   // a move inside the tree: the index is stale
        let stale = (1 ... 5).map { root.recursiveDescription(maxLines: $0) }
        let fresh = (1 ... 5).map { root.recursiveDescription(maxLines: $0) }
        #expect(stale == fresh)
        #expect(fresh.last == """
            <View: frame = (0 0; 320 480); tag = 0; node = #0.0>
               | <Button: frame = (0 0; 0 0); tag = 7; node = #2.0>
               |    | <Label: frame = (10 10; 100 20); tag = 3; node = #1.0>
               |    |    | <View: frame = (0 0; 0 0); tag = 9; node = #3.0>
            """)
    }

    @Test func aDeepChainIsBounded() {
        let depth = 2_000
        let top = View()
        var last = top
        for _ in 1 ..< depth {
            let v = View()
            last.addSubview(v)
            last = v
        }
        let text = top.recursiveDescription(maxLines: 100)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 101)
        #expect(lines[65] == "[depth 65] <View: tag = 0; node = #65.0>")
        #expect(lines.last == "… 1,900 more nodes")
        #expect(lines.allSatisfy { $0.utf8.count <= 5 * 64 + 40 })
    }

    /// The example of the README's "Looking at a hierarchy", verbatim, with its output.
    @Test func readmeExample() {
        // The arena example's tree, after its queries (whose link walks pay for an index).
        let types = TypeRegistry.shared
        var tree = ViewTree()
        let root = tree.makeNode(type: types.typeID(for: View.self))
        let c = tree.appendChild(tag: 1, type: types.typeID(for: TableViewCell.self), to: root)
        let l = tree.appendChild(tag: 3, type: types.typeID(for: Label.self), to: c)
        _ = tree.isAncestor(root, of: l)
        _ = tree.group(.descendants, of: root, byTags: [1, 3])
        _ = tree.lowestCommonAncestor(l, c)
        _ = Array(tree.descendants(of: root))
        // The README's lines print; here they print into `output`.
        var output = ""
        func print(_ item: Any) { Swift.print(item, to: &output) }
        func debugPrint(_ item: Any) { Swift.debugPrint(item, to: &output) }

        let window = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let cell = TableViewCell(frame: CGRect(x: 0, y: 64, width: 320, height: 44))
        cell.tag = 1
        let title = Label(frame: CGRect(x: 16, y: 12, width: 200, height: 20.5))
        title.tag = 3
        window.addSubview(cell)
        cell.addSubview(title)
        window.addSubview(Button())

        print(window.recursiveDescription())
        debugPrint(title)
        print(window.recursiveDescription(maxLines: 2))
        print(tree)   // the tree of the arena example above, after its queries

        #expect(output == """
            <View: frame = (0 0; 320 480); tag = 0; node = #0.0>
               | <TableViewCell: frame = (0 64; 320 44); tag = 1; node = #1.0>
               |    | <Label: frame = (16 12; 200 20.5); tag = 3; node = #2.0>
               | <Button: frame = (0 0; 0 0); tag = 0; node = #3.0>
            <Label: frame = (16 12; 200 20.5); tag = 3; node = #2.0; 0 subviews; superview = TableViewCell>
            <View: frame = (0 0; 320 480); tag = 0; node = #0.0>
               | <TableViewCell: frame = (0 64; 320 44); tag = 1; node = #1.0>
            … 2 more nodes
            ViewTree(3 nodes in 1 root, 3 slots (0 free), index: 1 block of 64 slots, geometry: none)

            """)
    }

    // MARK: Misuse

    @Test func maxLinesBelowOneTrapsForALoneView() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = View().recursiveDescription(maxLines: 0)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("maxLines >= 1"), "\(message)")
    }

    @Test func maxLinesBelowOneTrapsInATree() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let v = View()
            v.addSubview(View())
            _ = v.recursiveDescription(maxLines: -1)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("maxLines >= 1"), "\(message)")
    }
}
