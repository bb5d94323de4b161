import RelativeView
import Testing

/// The README's `View` and `ViewTree` examples, verbatim (ReadmeCoverageTests checks that every
/// ```swift block of the README appears in a test file), and the results their comments claim.
///
/// A block of queries runs inside `readmeValues { … }`, which hands back the value of each
/// line in order: the lines stay exactly as the README shows them (no `_ =`, no unused-result
/// warnings) and each value is checked against the comment beside it.
@Suite struct ReadmeCodeBlockTests {
    @Test func ancestors() throws {
        let cell = TableViewCell(frame: .zero)
        cell.tag = 1
        let label = Label()
        label.tag = 3
        label.text = "Hello"
        cell.addSubview(label)

        let values = readmeValues {
            label.findFirstAncestor { $0.tag == 1 }          // cell: the nearest match, superview first
            label.findFirstAncestor(by: [TableViewCell.self]) // cell: exact type match
            label.findFirstAncestor(by: [1])                  // cell: by tag
            cell.isRelativeAncestor(of: label)                // true; never true of the view itself

            label.groupAncestors { $0.tag == 1 ? $0.tag : nil }  // [1: [cell]]; nil leaves a view out
            label.groupAncestors(by: [TableViewCell.self])       // ["TableViewCell": [cell]]
            label.groupAncestors(by: [1])                        // [1: [cell]]
        }
        try #require(values.count == 7)
        #expect(values[0] as? View === cell)
        #expect(values[1] as? View === cell)
        #expect(values[2] as? View === cell)
        #expect(values[3] as? Bool == true)
        #expect(cell.isRelativeAncestor(of: cell) == false)
        #expect(values[4] as? [Int: [View]] == [1: [cell]])
        #expect(values[5] as? [String: [View]] == ["TableViewCell": [cell]])
        #expect(values[6] as? [Int: [View]] == [1: [cell]])
    }

    @Test func descendants() throws {
        let cell = TableViewCell(frame: .zero)
        cell.tag = 1
        let label = Label()
        label.tag = 3
        label.text = "Hello"
        cell.addSubview(label)

        let values = readmeValues {
            label.isRelativeDescendant(of: cell)              // true
            cell.groupDescendants { $0.tag == 3 ? "three" : nil } // ["three": [label]]
            cell.groupDescendants(by: [Label.self])           // ["Label": [label]]
            cell.groupDescendants(by: [3])                    // [3: [label]]
        }
        try #require(values.count == 4)
        #expect(values[0] as? Bool == true)
        #expect(values[1] as? [String: [View]] == ["three": [label]])
        #expect(values[2] as? [String: [View]] == ["Label": [label]])
        #expect(values[3] as? [Int: [View]] == [3: [label]])
    }

    @Test func siblings() throws {
        let view = View()
        let foo = Button(); foo.tag = 1
        let bar = Label(); bar.tag = 2
        view.addSubview(foo)
        view.addSubview(bar)

        let values = readmeValues {
            foo.isRelativeSibling(of: bar)                   // true: same non-nil superview, not the same view
            bar.groupSiblings { $0.tag == 1 ? $0.tag : nil } // [1: [foo]]
            bar.groupSiblings(by: [Button.self])             // ["Button": [foo]]
            bar.groupSiblings(by: [1])                       // [1: [foo]]
        }
        try #require(values.count == 4)
        #expect(values[0] as? Bool == true)
        #expect(foo.isRelativeSibling(of: foo) == false)
        #expect(values[1] as? [Int: [View]] == [1: [foo]])
        #expect(values[2] as? [String: [View]] == ["Button": [foo]])
        #expect(values[3] as? [Int: [View]] == [1: [foo]])
    }

    @Test func recursiveSubviews() throws {
        let view = View()
        let foo = Button(); foo.tag = 1
        let bar = Label(); bar.tag = 2
        view.addSubview(foo)
        view.addSubview(bar)

        let values = readmeValues {
            foo.setTitle("OK")
            bar.text = "Hello"
            view.recursiveSubviews                     // [foo, bar]: subviews first, then each one's recursiveSubviews
            view.findViews(subclassOf: Control.self)   // [foo]: subclasses match (as? T)
            view.findLabels(with: "Hello")             // [bar]
            view.findButtons(with: "OK")               // [foo]: by title (setTitle(_:) / title)
            view.findImageViews(with: Image(named: "logo"))  // []: no image view shows that image
        }
        try #require(values.count == 5)
        #expect(values[0] as? [View] == [foo, bar])
        #expect(values[1] as? [Control] == [foo])
        #expect(values[2] as? [Label] == [bar])
        #expect(values[3] as? [Button] == [foo])
        #expect(values[4] as? [ImageView] == [])
    }

    @Test func theArenaDirectly() throws {
        let types = TypeRegistry.shared
        var tree = ViewTree()
        let root = tree.makeNode(type: types.typeID(for: View.self))
        let cell = tree.appendChild(tag: 1, type: types.typeID(for: TableViewCell.self), to: root)
        let label = tree.appendChild(tag: 3, type: types.typeID(for: Label.self), to: cell)

        let values = readmeValues {
            tree.isAncestor(root, of: label)                 // true, O(1)
            tree.group(.descendants, of: root, byTags: [1, 3])  // [1: [cell], 3: [label]]
            tree.lowestCommonAncestor(label, cell)           // cell
            Array(tree.descendants(of: root))                // [cell, label], pre-order
        }
        try #require(values.count == 4)
        #expect(values[0] as? Bool == true)
        #expect(values[1] as? [Int: [NodeID]] == [1: [cell], 3: [label]])
        #expect(values[2] as? NodeID == cell)
        #expect(values[3] as? [NodeID] == [cell, label])
    }
}

/// The value of every expression statement of a block, in order; statements of type `Void`
/// (assignments, `addSubview`, `setTitle`) add none.
@resultBuilder enum ReadmeValues {
    static func buildExpression(_ statement: Void) -> [Any] { [] }
    static func buildExpression<T>(_ value: T) -> [Any] { [value] }
    static func buildBlock(_ lines: [Any]...) -> [Any] { lines.flatMap { $0 } }
}

/// Runs `block` and returns the value of each of its lines (see ``ReadmeValues``).
func readmeValues(@ReadmeValues _ block: () throws -> [Any]) rethrows -> [Any] {
    try block()
}

extension ReadmeCodeBlockTests {
    @Test func viewSnapshots() throws {
        let window = View()
        let cell = ProfileCell()
        cell.tag = 4
        window.addSubview(cell)
        defer { try? FileManager.default.removeItem(atPath: "/tmp/window.rvtree") }

        try window.writeSnapshot(to: "/tmp/window.rvtree")
        var factory = ViewFactory.stock
        factory.register(ProfileCell.self) { ProfileCell() }
        let restored = try View.loadSnapshot(contentsOf: "/tmp/window.rvtree", factory: factory)

        #expect(restored.subviews.count == 1)
        #expect((restored.subviews.first as? ProfileCell)?.tag == 4)
    }
}
