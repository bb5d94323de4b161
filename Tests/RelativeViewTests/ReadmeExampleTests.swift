import Foundation
import XCTest
import RelativeView

/// Every example of the relative-view README, transliterated from UIKit
/// (`UIView` -> `View`, `UITableViewCell` -> `TableViewCell`, `UIButton` -> `Button`,
/// `UILabel` -> `Label`, assertions kept as XCTest, as in the README). XCTest, like the original's tests.
final class ReadmeExampleTests: XCTestCase {
    // MARK: findFirstAncestor

    func testFindFirstAncestorByClosure() {
        let view: View = View(frame: CGRect())
        view.tag = 3

        let ancestor: TableViewCell = TableViewCell(frame: CGRect())
        ancestor.tag = 1

        ancestor.addSubview(view)

        // Find the first ancestor by closure (you define how it finds ancestors!).
        XCTAssertTrue(ancestor === view.findFirstAncestor { (ancestor: View) -> Bool in
            return ancestor.tag == 1
        })
    }

    func testFindFirstAncestorByViewType() {
        let view: View = View(frame: CGRect())
        view.tag = 3

        let ancestor: TableViewCell = TableViewCell(frame: CGRect())
        ancestor.tag = 1

        ancestor.addSubview(view)

        // Find the first ancestor by View.Type.
        XCTAssertTrue(ancestor === view.findFirstAncestor(by: [TableViewCell.self]))
    }

    func testFindFirstAncestorByTag() {
        let view: View = View(frame: CGRect())
        view.tag = 3

        let ancestor: TableViewCell = TableViewCell(frame: CGRect())
        ancestor.tag = 1

        ancestor.addSubview(view)

        // Find the first ancestor by tag.
        XCTAssertTrue(ancestor === view.findFirstAncestor(by: [1]))
    }

    // MARK: isRelativeAncestor

    func testIsRelativeAncestor() {
        let view: View = View(frame: CGRect())
        let ancestor: TableViewCell = TableViewCell(frame: CGRect())
        ancestor.addSubview(view)

        // Checks whether ancestor is a relative ancestor of view.
        XCTAssertTrue(ancestor.isRelativeAncestor(of: view))
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

    func testGroupAncestorsByClosure() throws {
        let (view, ancestor) = ancestorFixture()

        // Group ancestors by closure (you define how it groups ancestors!).
        let ancestorsByClosure: [Int: [View]] = view.groupAncestors { (ancestor: View) -> Int? in
            if ancestor.tag == 1 {
                return ancestor.tag
            }
            return nil
        }
        XCTAssertTrue(1 == ancestorsByClosure.count)
        let group = try XCTUnwrap(ancestorsByClosure[1])
        XCTAssertTrue(1 == group.count)
        XCTAssertTrue(ancestor === group[0])
    }

    func testGroupAncestorsByViewType() throws {
        let (view, ancestor) = ancestorFixture()

        // Group ancestors by View.Type.
        let tableViewCellKey: String = String(describing: TableViewCell.self)
        let ancestorsByViewType: [String: [View]] = view.groupAncestors(by: [TableViewCell.self])
        XCTAssertTrue(1 == ancestorsByViewType.count)
        let group = try XCTUnwrap(ancestorsByViewType[tableViewCellKey])
        XCTAssertTrue(1 == group.count)
        XCTAssertTrue(ancestor === group[0])
    }

    func testGroupAncestorsByTag() throws {
        let (view, ancestor) = ancestorFixture()

        // Group ancestors by tag.
        let ancestorsByTag: [Int: [View]] = view.groupAncestors(by: [1])
        XCTAssertTrue(1 == ancestorsByTag.count)
        let group = try XCTUnwrap(ancestorsByTag[1])
        XCTAssertTrue(1 == group.count)
        XCTAssertTrue(ancestor === group[0])
    }

    // MARK: isRelativeDescendant

    func testIsRelativeDescendant() {
        let view: View = View(frame: CGRect())
        let descendant: TableViewCell = TableViewCell(frame: CGRect())
        view.addSubview(descendant)

        // Checks whether descendant is a relative descendant of view.
        XCTAssertTrue(descendant.isRelativeDescendant(of: view))
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

    func testGroupDescendantsByClosure() throws {
        let (tableViewCell, descendant) = descendantFixture()

        // Group descendants by closure (you define how it groups descendants!).
        let descendantsByClosure: [Int: [View]] = tableViewCell.groupDescendants { (descendant: View) -> Int? in
            if descendant.tag == 1 {
                return descendant.tag
            }
            return nil
        }
        XCTAssertTrue(1 == descendantsByClosure.count)
        let group = try XCTUnwrap(descendantsByClosure[1])
        XCTAssertTrue(1 == group.count)
        XCTAssertTrue(descendant === group[0])
    }

    func testGroupDescendantsByViewType() throws {
        let (tableViewCell, descendant) = descendantFixture()

        // Group descendants by View.Type.
        let viewKey: String = String(describing: View.self)
        let descendantsByViewType: [String: [View]] = tableViewCell.groupDescendants(by: [View.self])
        XCTAssertTrue(1 == descendantsByViewType.count)
        let group = try XCTUnwrap(descendantsByViewType[viewKey])
        XCTAssertTrue(1 == group.count)
        XCTAssertTrue(descendant === group[0])
    }

    func testGroupDescendantsByTag() throws {
        let (tableViewCell, descendant) = descendantFixture()

        // Group descendants by tag.
        let descendantsByTag: [Int: [View]] = tableViewCell.groupDescendants(by: [1])
        XCTAssertTrue(1 == descendantsByTag.count)
        let group = try XCTUnwrap(descendantsByTag[1])
        XCTAssertTrue(1 == group.count)
        XCTAssertTrue(descendant === group[0])
    }

    // MARK: isRelativeSibling

    func testIsRelativeSibling() {
        let view: View = View()
        let foo: Button = Button()
        view.addSubview(foo)
        let bar: Label = Label()
        view.addSubview(bar)

        // Checks whether foo is a relative sibling of bar (and vice-versa).
        XCTAssertTrue(foo.isRelativeSibling(of: bar))
        XCTAssertTrue(bar.isRelativeSibling(of: foo))
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

    func testGroupSiblingsByClosure() throws {
        let (view, foo, bar) = siblingFixture()
        defer { withExtendedLifetime(view) {} }

        // Group siblings by closure (you define how it groups siblings!).
        let siblingsByClosure: [Int: [View]] = bar.groupSiblings { (sibling: View) -> Int? in
            if sibling.tag == 1 {
                return sibling.tag
            }
            return nil
        }
        XCTAssertTrue(1 == siblingsByClosure.count)
        let group = try XCTUnwrap(siblingsByClosure[1])
        XCTAssertTrue(1 == group.count)
        XCTAssertTrue(foo === group[0])
    }

    func testGroupSiblingsByViewType() throws {
        let (view, foo, bar) = siblingFixture()
        defer { withExtendedLifetime(view) {} }

        // Group siblings by View.Type.
        let buttonKey: String = String(describing: Button.self)
        let siblingsByViewType: [String: [View]] = bar.groupSiblings(by: [Button.self])
        XCTAssertTrue(1 == siblingsByViewType.count)
        let group = try XCTUnwrap(siblingsByViewType[buttonKey])
        XCTAssertTrue(1 == group.count)
        XCTAssertTrue(foo === group[0])
    }

    func testGroupSiblingsByTag() throws {
        let (view, foo, bar) = siblingFixture()
        defer { withExtendedLifetime(view) {} }

        // Group siblings by tag.
        let siblingsByTag: [Int: [View]] = bar.groupSiblings(by: [1])
        XCTAssertTrue(1 == siblingsByTag.count)
        let group = try XCTUnwrap(siblingsByTag[1])
        XCTAssertTrue(1 == group.count)
        XCTAssertTrue(foo === group[0])
    }
}
