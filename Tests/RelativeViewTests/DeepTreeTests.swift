import Testing
import RelativeViewFixtures
@testable import RelativeView

/// A 1,000,000-deep chain of views: every query is iterative (no stack overflow) and
/// dropping the root frees the whole chain without recursion in `deinit`.
@Suite(.enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it")) struct DeepTreeLongTests {
    static let depth = 1_000_000

    /// Tag of the view at depth `d` (0 is the top): the top and the bottom have unique tags,
    /// the others cycle through 0 ..< 10.
    static func tag(atDepth d: Int) -> Int {
        d == 0 ? -1 : d == depth - 1 ? -2 : d % 10
    }

    @Test func millionDeepChain() throws {
        let n = Self.depth
        weak var weakTop: View?
        weak var weakBottom: View?
        weak var weakMiddle: View?
        // The views at the depths of the first and last tag-3 and tag-7 views.
        let threes = Array(stride(from: 3, through: n - 2, by: 10))
        let sevens = Array(stride(from: 7, through: n - 2, by: 10))
        var marked: [Int: WeakBox] = [:]
        do {
            let top = View()
            top.tag = Self.tag(atDepth: 0)
            var last = top
            for d in 1 ..< n {
                let v = View()
                v.tag = Self.tag(atDepth: d)   // set while lone
                last.addSubview(v)             // top-down: under the previous one
                last = v
                if d == threes.first || d == threes.last || d == sevens.first || d == sevens.last { marked[d] = WeakBox(v) }
                if d == n / 2 { weakMiddle = v }
            }
            let bottom = last
            weakTop = top
            weakBottom = bottom
            #expect(top._store?.tree.count == n)
            #expect(bottom.tag == -2)

            // Ancestor / descendant, both directions (the first query walks a stale index).
            #expect(top.isRelativeAncestor(of: bottom))
            #expect(!bottom.isRelativeAncestor(of: top))
            #expect(bottom.isRelativeDescendant(of: top))
            #expect(!top.isRelativeDescendant(of: bottom))
            #expect(bottom.isDescendant(of: top))
            #expect(!top.isRelativeSibling(of: bottom))
            let middle = try #require(weakMiddle)
            #expect(middle.isRelativeAncestor(of: bottom))
            #expect(middle.isRelativeDescendant(of: top))

            // Find and group the ancestors from the bottom.
            #expect(bottom.findFirstAncestor(by: [-1]) === top)
            #expect(bottom.findFirstAncestor(by: [3]) === marked[threes.last!]?.view)
            #expect(bottom.findFirstAncestor { $0.superview == nil } === top)
            let ancestors = bottom.groupAncestors(by: [3, 7, -1])
            #expect(ancestors.count == 3)
            #expect(ancestors[3]?.count == threes.count)
            #expect(ancestors[7]?.count == sevens.count)
            #expect(ancestors[-1]?.count == 1)
            #expect(ancestors[-1]?.first === top)
            // Nearest first.
            #expect(ancestors[3]?.first === marked[threes.last!]?.view)
            #expect(ancestors[3]?.last === marked[threes.first!]?.view)
            #expect(ancestors[7]?.first === marked[sevens.last!]?.view)

            // Group the descendants from the top: pre-order is depth order here.
            let descendants = top.groupDescendants(by: [3, 7, -2])
            #expect(descendants.count == 3)
            #expect(descendants[3]?.count == threes.count)
            #expect(descendants[7]?.count == sevens.count)
            #expect(descendants[3]?.first === marked[threes.first!]?.view)
            #expect(descendants[3]?.last === marked[threes.last!]?.view)
            #expect(descendants[7]?.first === marked[sevens.first!]?.view)
            #expect(descendants[7]?.last === marked[sevens.last!]?.view)
            #expect(descendants[-2]?.count == 1)
            #expect(descendants[-2]?.first === bottom)

            let byType = top.groupDescendants(by: [View.self])
            let all = try #require(byType["View"])
            #expect(byType.count == 1)
            #expect(all.count == n - 1)
            #expect(all.first === top.subviews.first)
            #expect(all.last === bottom)

            let recursive = top.recursiveSubviews
            #expect(recursive.count == n - 1)
            #expect(recursive.last === bottom)
            #expect(top.findViews(subclassOf: View.self).count == n - 1)
            #expect(top.viewWithTag(-2) === bottom)
            #expect(top.viewWithTag(-1) === top)
            #expect(bottom.groupDescendants(by: [View.self]).isEmpty)
            #expect(top.groupAncestors(by: [View.self]).isEmpty)
        }
        // Dropping the root frees everything, iteratively.
        #expect(weakTop == nil)
        #expect(weakMiddle == nil)
        #expect(weakBottom == nil)
        #expect(marked.count == 4)
        #expect(marked.values.allSatisfy { $0.view == nil })
    }
}
