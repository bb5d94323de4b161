import Foundation
import RelativeLayout
import RelativeView
import Testing

/// `|--|`: the seed's sizing examples, commutative and never negative.
@Suite struct MeasurementTests {
    /// A 320×480 superview (itself in a window-sized root: Relativity measures only views
    /// that have a superview) with `a` at (10, 10, 40, 40) and `c` at (150, 120, 30, 30).
    /// The window comes back too: its users keep a root alive.
    func scene() -> (window: View, superview: View, a: View, b: View, c: View) {
        let window = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let superview = subview(of: window, CGRect(x: 0, y: 0, width: 320, height: 480))
        let a = subview(of: superview, CGRect(x: 10, y: 10, width: 40, height: 40))
        let b = subview(of: superview, CGRect(x: 0, y: 0, width: 0, height: 0))
        let c = subview(of: superview, CGRect(x: 150, y: 120, width: 30, height: 30))
        return (window, superview, a, b, c)
    }

    @Test(arguments: screenScales)
    func sizesBetweenViews(scale: CGFloat) {
        atScale(scale) {
            let (window, _, a, b, c) = scene()
            defer { withExtendedLifetime(window) {} }  // the root keeps the tree alive
            // a.topRight is (50, 10), c.bottomLeft is (150, 150).
            b.bounds.size = a.topRight |--| c.bottomLeft
            #expect(b.bounds.size == CGSize(width: 100, height: 140))
            // With a 16-point inset: c.bottomLeft moves to (134, 150).
            b.bounds.size = a.topRight |--| c.bottomLeft + -16.horizontalOffset
            #expect(b.bounds.size == CGSize(width: 84, height: 140))
            // As tall as a, and as wide as from a's right (50) to the superview's right (320).
            b.bounds.size = CGSize(width: (a.right |--| .right).width, height: a.bounds.height)
            #expect(b.bounds.size == CGSize(width: 270, height: 40))
            #expect((.right |--| a.right) == (a.right |--| .right))
            #expect((a.right |--| .right + -20.horizontalOffset).width == 250)
            #expect((.right - 20.horizontalOffset |--| a.right).width == 250)
        }
    }

    /// Relativity's offset arithmetic: component by component, and a size grown by an offset.
    @Test func offsetArithmetic() {
        let a = Offset(horizontal: 6, vertical: -4)
        let b = Offset(horizontal: 3, vertical: 2)
        #expect(a * b == Offset(horizontal: 18, vertical: -8))
        #expect(a / b == Offset(horizontal: 2, vertical: -2))
        #expect(10.horizontalOffset * 2.verticalOffset == .zero)
        #expect((a / Offset(horizontal: 0, vertical: 1)).horizontal == .infinity)
        let size = CGSize(width: 40, height: 30)
        #expect(size + a == CGSize(width: 46, height: 26))
        #expect(a + size == size + a)
        #expect(size + .zero == size)
    }

    /// `|--|` shares `+`'s precedence, as in Relativity: an offset after a measurement is added
    /// to the measured size, not to the second position.
    @Test func anOffsetAfterAMeasurementAddsToTheSize() {
        let (window, superview, _, _, _) = scene()
        defer { withExtendedLifetime(window) {} }
        let a = subview(of: superview, CGRect(x: 45, y: 0, width: 10, height: 10))
        let b = subview(of: superview, CGRect(x: 0, y: 0, width: 10, height: 10))
        // a.right is at x 55, b.left at x 0: (55 + 5), not |55 - (0 + 5)|.
        #expect(a.right |--| b.left + 5.horizontalOffset == CGSize(width: 60, height: 0))
        #expect(a.right |--| (b.left + 5.horizontalOffset) == CGSize(width: 50, height: 0))
        #expect((a.right |--| b.left) + 5.horizontalOffset == CGSize(width: 60, height: 0))
    }

    @Test func commutativeAndNonNegative() {
        let (window, superview, a, _, c) = scene()
        defer { withExtendedLifetime(window) {} }  // the root keeps the tree alive
        let positions = [a.topLeft, a.bottomRight, a.middle, c.topLeft, c.bottomRight, c.left,
                         superview.topLeft, superview.bottomRight,
                         c.top + 500.verticalOffset, a.left + -300.horizontalOffset]
        for p in positions {
            for q in positions {
                let pq = p |--| q
                #expect(pq == (q |--| p))
                #expect(pq.width >= 0 && pq.height >= 0)
            }
        }
        #expect((c.top + 500.verticalOffset |--| a.top).height == 610)
    }

    /// Measuring between cousins converts both points into one space first.
    @Test func measuresBetweenCousins() {
        let root = View(frame: CGRect(x: 0, y: 0, width: 500, height: 500))
        let p1 = subview(of: root, CGRect(x: 10, y: 20, width: 100, height: 100))
        p1.bounds.origin = CGPoint(x: 5, y: 5)
        let p2 = subview(of: root, CGRect(x: 200, y: 40, width: 100, height: 100))
        let c1 = subview(of: p1, CGRect(x: 30, y: 30, width: 10, height: 10))
        let c2 = subview(of: p2, CGRect(x: 20, y: 10, width: 10, height: 10))
        // c1's bottom-right in the root: (40 - 5 + 10, 40 - 5 + 20) = (45, 55);
        // c2's top-left: (220, 50).
        #expect(c1.bottomRight |--| c2.topLeft == CGSize(width: 175, height: 5))
    }
}
