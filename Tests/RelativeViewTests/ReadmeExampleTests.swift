import Foundation
import Testing
import RelativeView

/// Every example of the relative-view README, transliterated from UIKit
/// (`UIView` -> `View`, `UITableViewCell` -> `TableViewCell`, `UIButton` -> `Button`,
/// `UILabel` -> `Label`, `XCTAssert...` -> `#expect`).
@Suite struct ReadmeExampleTests {
    // MARK: findFirstAncestor

    @Test func findFirstAncestorByClosure() {
        let view: View = View(frame: CGRect())
        view.tag = 3

        let ancestor: TableViewCell = TableViewCell(frame: CGRect())
        ancestor.tag = 1

        ancestor.addSubview(view)

        // Find the first ancestor by closure (you define how it finds ancestors!).
        #expect(ancestor === view.findFirstAncestor { (ancestor: View) -> Bool in
            return ancestor.tag == 1
        })
    }

    @Test func findFirstAncestorByViewType() {
        let view: View = View(frame: CGRect())
        view.tag = 3

        let ancestor: TableViewCell = TableViewCell(frame: CGRect())
        ancestor.tag = 1

        ancestor.addSubview(view)

        // Find the first ancestor by View.Type.
        #expect(ancestor === view.findFirstAncestor(by: [TableViewCell.self]))
    }

    @Test func findFirstAncestorByTag() {
        let view: View = View(frame: CGRect())
        view.tag = 3

        let ancestor: TableViewCell = TableViewCell(frame: CGRect())
        ancestor.tag = 1

        ancestor.addSubview(view)

        // Find the first ancestor by tag.
        #expect(ancestor === view.findFirstAncestor(by: [1]))
    }

    // MARK: isRelativeAncestor

    @Test func isRelativeAncestor() {
        let view: View = View(frame: CGRect())
        let ancestor: TableViewCell = TableViewCell(frame: CGRect())
        ancestor.addSubview(view)

        // Checks whether ancestor is a relative ancestor of view.
        #expect(ancestor.isRelativeAncestor(of: view))
    }

    // MARK: groupAncestors

    /// The README's setup for the three groupAncestors examples.
    private func ancestorFixture() -> (view: View, ancestor: TableViewCell) {
        let view: View = View(frame: CGRect())
        view.tag = 3

        let ancestor: TableViewCell = TableViewCell(frame: CGRect())
        ancestor.tag = 1

        ancestor.addSubview(view)
        return (view, ancestor)
    }

    @Test func groupAncestorsByClosure() throws {
        let (view, ancestor) = ancestorFixture()

        // Group ancestors by closure (you define how it groups ancestors!).
        let ancestorsByClosure: [Int: [View]] = view.groupAncestors { (ancestor: View) -> Int? in
            if ancestor.tag == 1 {
                return ancestor.tag
            }
            return nil
        }
        #expect(1 == ancestorsByClosure.count)
        let group = try #require(ancestorsByClosure[1])
        #expect(1 == group.count)
        #expect(ancestor === group[0])
    }

    @Test func groupAncestorsByViewType() throws {
        let (view, ancestor) = ancestorFixture()

        // Group ancestors by View.Type.
        let tableViewCellKey: String = String(describing: TableViewCell.self)
        let ancestorsByViewType: [String: [View]] = view.groupAncestors(by: [TableViewCell.self])
        #expect(1 == ancestorsByViewType.count)
        let group = try #require(ancestorsByViewType[tableViewCellKey])
        #expect(1 == group.count)
        #expect(ancestor === group[0])
    }

    @Test func groupAncestorsByTag() throws {
        let (view, ancestor) = ancestorFixture()

        // Group ancestors by tag.
        let ancestorsByTag: [Int: [View]] = view.groupAncestors(by: [1])
        #expect(1 == ancestorsByTag.count)
        let group = try #require(ancestorsByTag[1])
        #expect(1 == group.count)
        #expect(ancestor === group[0])
    }

    // MARK: isRelativeDescendant

    @Test func isRelativeDescendant() {
        let view: View = View(frame: CGRect())
        let descendant: TableViewCell = TableViewCell(frame: CGRect())
        view.addSubview(descendant)

        // Checks whether descendant is a relative descendant of view.
        #expect(descendant.isRelativeDescendant(of: view))
    }

    // MARK: groupDescendants

    /// The README's setup for the three groupDescendants examples.
    private func descendantFixture() -> (tableViewCell: TableViewCell, descendant: View) {
        let tableViewCell: TableViewCell = TableViewCell(frame: CGRect())
        tableViewCell.tag = 3

        let descendant: View = View(frame: CGRect())
        descendant.tag = 1

        tableViewCell.addSubview(descendant)
        return (tableViewCell, descendant)
    }

    @Test func groupDescendantsByClosure() throws {
        let (tableViewCell, descendant) = descendantFixture()

        // Group descendants by closure (you define how it groups descendants!).
        let descendantsByClosure: [Int: [View]] = tableViewCell.groupDescendants { (descendant: View) -> Int? in
            if descendant.tag == 1 {
                return descendant.tag
            }
            return nil
        }
        #expect(1 == descendantsByClosure.count)
        let group = try #require(descendantsByClosure[1])
        #expect(1 == group.count)
        #expect(descendant === group[0])
    }

    @Test func groupDescendantsByViewType() throws {
        let (tableViewCell, descendant) = descendantFixture()

        // Group descendants by View.Type.
        let viewKey: String = String(describing: View.self)
        let descendantsByViewType: [String: [View]] = tableViewCell.groupDescendants(by: [View.self])
        #expect(1 == descendantsByViewType.count)
        let group = try #require(descendantsByViewType[viewKey])
        #expect(1 == group.count)
        #expect(descendant === group[0])
    }

    @Test func groupDescendantsByTag() throws {
        let (tableViewCell, descendant) = descendantFixture()

        // Group descendants by tag.
        let descendantsByTag: [Int: [View]] = tableViewCell.groupDescendants(by: [1])
        #expect(1 == descendantsByTag.count)
        let group = try #require(descendantsByTag[1])
        #expect(1 == group.count)
        #expect(descendant === group[0])
    }

    // MARK: isRelativeSibling

    @Test func isRelativeSibling() {
        let view: View = View()
        let foo: Button = Button()
        view.addSubview(foo)
        let bar: Label = Label()
        view.addSubview(bar)

        // Checks whether foo is a relative sibling of bar (and vice-versa).
        #expect(foo.isRelativeSibling(of: bar))
        #expect(bar.isRelativeSibling(of: foo))
    }

    // MARK: groupSiblings

    /// The README's setup for the three groupSiblings examples.
    private func siblingFixture() -> (view: View, foo: Button, bar: Label) {
        let view: View = View()
        let foo: Button = Button()
        foo.tag = 1
        view.addSubview(foo)
        let bar: Label = Label()
        bar.tag = 2
        view.addSubview(bar)
        return (view, foo, bar)
    }

    @Test func groupSiblingsByClosure() throws {
        let (view, foo, bar) = siblingFixture()
        defer { withExtendedLifetime(view) {} }

        // Group siblings by closure (you define how it groups siblings!).
        let siblingsByClosure: [Int: [View]] = bar.groupSiblings { (sibling: View) -> Int? in
            if sibling.tag == 1 {
                return sibling.tag
            }
            return nil
        }
        #expect(1 == siblingsByClosure.count)
        let group = try #require(siblingsByClosure[1])
        #expect(1 == group.count)
        #expect(foo === group[0])
    }

    @Test func groupSiblingsByViewType() throws {
        let (view, foo, bar) = siblingFixture()
        defer { withExtendedLifetime(view) {} }

        // Group siblings by View.Type.
        let buttonKey: String = String(describing: Button.self)
        let siblingsByViewType: [String: [View]] = bar.groupSiblings(by: [Button.self])
        #expect(1 == siblingsByViewType.count)
        let group = try #require(siblingsByViewType[buttonKey])
        #expect(1 == group.count)
        #expect(foo === group[0])
    }

    @Test func groupSiblingsByTag() throws {
        let (view, foo, bar) = siblingFixture()
        defer { withExtendedLifetime(view) {} }

        // Group siblings by tag.
        let siblingsByTag: [Int: [View]] = bar.groupSiblings(by: [1])
        #expect(1 == siblingsByTag.count)
        let group = try #require(siblingsByTag[1])
        #expect(1 == group.count)
        #expect(foo === group[0])
    }
}
