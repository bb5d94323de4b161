import Foundation
import RelativeLayout
import RelativeView
import Testing

/// The seed's positioning examples, and alignment between views anywhere in one tree, with
/// every coordinate worked out by hand.
@Suite struct AlignmentTests {
    /// A 320×480 superview holding `a` (40×20) and `b` (60×30 at (100, 200)).
    func scene() -> (superview: View, a: View, b: View) {
        let superview = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let a = subview(of: superview, CGRect(x: 0, y: 0, width: 40, height: 20))
        let b = subview(of: superview, CGRect(x: 100, y: 200, width: 60, height: 30))
        return (superview, a, b)
    }

    @Test(arguments: screenScales)
    func rightOfATenPointsFromLeftOfB(scale: CGFloat) {
        atScale(scale) {
            let (superview, a, b) = scene()

            defer { withExtendedLifetime(superview) {} }  // the root keeps the tree alive
            // b.left is (100, 215) in the superview; 10 to the right is (110, 215), where
            // a's right-middle (40, 10) goes: a's origin is (70, 205).
            a.right --> 10.horizontalOffset + b.left
            #expect(a.frame == CGRect(x: 70, y: 205, width: 40, height: 20))
            // The sentence "10 points to the left of b" is spelled with a negative offset.
            a.right --> -10.horizontalOffset + b.left
            #expect(a.frame == CGRect(x: 50, y: 205, width: 40, height: 20))
        }
    }

    @Test(arguments: screenScales)
    func leftOfATenPointsRightOfB(scale: CGFloat) {
        atScale(scale) {
            let (superview, a, b) = scene()

            defer { withExtendedLifetime(superview) {} }  // the root keeps the tree alive
            // b.right is (160, 215); + 10 is (170, 215), where a's left-middle (0, 10) goes.
            b.right + 10.horizontalOffset <-- a.left
            #expect(a.frame == CGRect(x: 170, y: 205, width: 40, height: 20))
        }
    }

    @Test(arguments: screenScales)
    func tenBelowSuperviewTopCenter(scale: CGFloat) {
        atScale(scale) {
            let (superview, a, _) = scene()

            defer { withExtendedLifetime(superview) {} }  // the root keeps the tree alive
            // The superview's top is (160, 0); 10 down is (160, 10), where a's top (20, 0) goes.
            a.top --> 10.verticalOffset + .top
            #expect(a.frame == CGRect(x: 140, y: 10, width: 40, height: 20))
            // The same with the anchor first, and spelled out.
            a.frame.origin = .zero
            ViewPosition.Anchor.top + 10.verticalOffset <-- a.top
            #expect(a.frame.origin == CGPoint(x: 140, y: 10))
            a.frame.origin = .zero
            a.top.align(toSuperviewAnchor: .top, yOffset: 10)
            #expect(a.frame.origin == CGPoint(x: 140, y: 10))
            a.bottomRight --> .bottomRight
            #expect(a.frame.origin == CGPoint(x: 280, y: 460))
        }
    }

    @Test func offsetsAddWithTheirSignAndCommute() {
        let (superview, a, b) = scene()

        defer { withExtendedLifetime(superview) {} }  // the root keeps the tree alive
        a.middle --> 10.horizontalOffset + b.middle + 5.verticalOffset - 4.horizontalOffset
        // b.middle is (130, 215); +6 right, +5 down is (136, 220); a's middle is (20, 10).
        #expect(a.frame.origin == CGPoint(x: 116, y: 210))
        a.middle --> b.middle + (5.verticalOffset + 6.horizontalOffset)
        #expect(a.frame.origin == CGPoint(x: 116, y: 210))
        a.middle.align(to: b.middle, xOffset: 6, yOffset: 5)
        #expect(a.frame.origin == CGPoint(x: 116, y: 210))
        a.topLeft --> .topLeft + 3.horizontalOffset - 2.verticalOffset
        #expect(a.frame.origin == CGPoint(x: 3, y: -2))
    }

    /// The target is off the pixel grid: a's origin is rounded to the grid of each scale.
    @Test func roundsTheMovedOriginAtEachScale() {
        let expected: [CGFloat: CGPoint] = [
            1: CGPoint(x: 71, y: 205),            // (70.5, 205.25): halves round away from zero
            2: CGPoint(x: 70.5, y: 205.5),        // 141 / 2, 410.5 -> 411 / 2
            3: CGPoint(x: 212.0 / 3, y: 616.0 / 3), // 211.5 -> 212, 615.75 -> 616
        ]
        for scale in screenScales {
            atScale(scale) {
                let (superview, a, b) = scene()

                defer { withExtendedLifetime(superview) {} }  // the root keeps the tree alive
                b.frame.origin = CGPoint(x: 100.5, y: 200.25)
                a.right --> 10.horizontalOffset + b.left
                #expect(a.frame.origin == expected[scale], "scale \(scale)")
                #expect(a.frame.size == CGSize(width: 40, height: 20), "aligning never resizes")
            }
        }
    }

    /// Cousins under superviews with non-zero frame and bounds origins.
    @Test(arguments: screenScales)
    func alignsCousinsThroughTheirCommonAncestor(scale: CGFloat) {
        atScale(scale) {
            let root = View(frame: CGRect(x: 0, y: 0, width: 800, height: 600))
            let p1 = subview(of: root, CGRect(x: 10, y: 20, width: 200, height: 200))
            p1.bounds.origin = CGPoint(x: 5, y: 5)
            let p2 = subview(of: root, CGRect(x: 300, y: 40, width: 200, height: 200))
            p2.bounds.origin = CGPoint(x: -10, y: 0)
            let c1 = subview(of: p1, CGRect(x: 30, y: 30, width: 50, height: 50))
            let c2 = subview(of: p2, CGRect(x: 20, y: 10, width: 40, height: 40))
            c2.bounds.origin = CGPoint(x: 2, y: 3)
            // c2's space maps to the root by + (-2 + 20 + 10 + 300, -3 + 10 + 0 + 40) = (328, 47).
            // c2.right is (42, 23) in c2's bounds: (370, 70) in the root, and p1's space maps to
            // the root by + (-5 + 10, -5 + 20) = (5, 15), so (365, 55) in p1; c1.left is (0, 25).
            c1.left --> c2.right
            #expect(c1.frame == CGRect(x: 365, y: 30, width: 50, height: 50))
            #expect(c1.convert(CGPoint(x: 0, y: 25), to: c2) == CGPoint(x: 42, y: 23))
            // And the other way: c2's bottom-left (2, 43) onto c1's top-right (50, 0), which is
            // (415, 30) in p1 = (420, 45) in the root; p2's space maps to the root by
            // + (10 + 300, 0 + 40), so (110, 5) in p2. c2's anchor is (0, 40) past its bounds
            // origin: c2's frame origin is (110, -35).
            c2.bottomLeft --> c1.topRight
            #expect(c2.frame == CGRect(x: 110, y: -35, width: 40, height: 40))
            // Aligning to an ancestor's anchor and to a descendant's.
            c1.topLeft --> root.topLeft
            #expect(c1.frame.origin == CGPoint(x: -5, y: -15))
            // c2's space now maps to the root by + (-2 + 110 + 310, -3 - 35 + 40) = (418, 2), so
            // c2.topLeft + 1 right, (3, 3), is (421, 5) there; p2's top-left is its bounds origin,
            // so p2's frame origin goes to (421, 5) (and c2 moves with it).
            p2.topLeft --> c2.topLeft + 1.horizontalOffset
            #expect(p2.frame.origin == CGPoint(x: 421, y: 5))
            #expect(c2.convert(CGPoint(x: 2, y: 3), to: root) == CGPoint(x: 541, y: -30))
        }
    }

    @Test func aViewAlignedToItselfStays() {
        let (superview, a, _) = scene()

        defer { withExtendedLifetime(superview) {} }  // the root keeps the tree alive
        a.frame.origin = CGPoint(x: 12, y: 34)
        a.left --> a.left
        #expect(a.frame.origin == CGPoint(x: 12, y: 34))
        // Its right onto its own left moves it one width to the left.
        a.right --> a.left
        #expect(a.frame.origin == CGPoint(x: -28, y: 34))
    }

    @Test func nineAnchorsOnTheBounds() {
        let view = View(frame: CGRect(x: 7, y: 9, width: 40, height: 20))
        view.bounds.origin = CGPoint(x: 4, y: 2)
        let points = [view.topLeft, view.top, view.topRight, view.left, view.middle, view.right,
                      view.bottomLeft, view.bottom, view.bottomRight].map(\.anchorPoint)
        #expect(points == [
            CGPoint(x: 4, y: 2), CGPoint(x: 24, y: 2), CGPoint(x: 44, y: 2),
            CGPoint(x: 4, y: 12), CGPoint(x: 24, y: 12), CGPoint(x: 44, y: 12),
            CGPoint(x: 4, y: 22), CGPoint(x: 24, y: 22), CGPoint(x: 44, y: 22),
        ])
        #expect(ViewPosition.Anchor.allCases.count == 9)
    }

    @Test func perTreeScaleOverridesTheDefault() {
        atScale(1) {
            let (superview, a, b) = scene()
            superview.screenScale = 2
            b.frame.origin = CGPoint(x: 100.5, y: 200.25)
            a.right --> 10.horizontalOffset + b.left
            #expect(a.frame.origin == CGPoint(x: 70.5, y: 205.5))
            superview.screenScale = nil
            a.right --> 10.horizontalOffset + b.left
            #expect(a.frame.origin == CGPoint(x: 71, y: 205))
        }
    }

    /// Tasks at different scales each see their own default: the setting is task-local.
    @Test func scalesOfConcurrentTasksDoNotMix() async {
        let origins = await withTaskGroup(of: (CGFloat, CGPoint).self) { group in
            for scale in screenScales {
                group.addTask {
                    atScale(scale) {
                        var origin = CGPoint.zero
                        for _ in 0 ..< 200 {
                            let (superview, a, b) = scene()

                            defer { withExtendedLifetime(superview) {} }  // the root keeps the tree alive
                            b.frame.origin = CGPoint(x: 100.5, y: 200.25)
                            a.right --> 10.horizontalOffset + b.left
                            origin = a.frame.origin
                        }
                        return (scale, origin)
                    }
                }
            }
            var result: [CGFloat: CGPoint] = [:]
            for await (scale, origin) in group { result[scale] = origin }
            return result
        }
        #expect(origins == [1: CGPoint(x: 71, y: 205), 2: CGPoint(x: 70.5, y: 205.5), 3: CGPoint(x: 212.0 / 3, y: 616.0 / 3)])
    }

    /// The nine anchor points of a rectangle, as Relativity computes them; `.topLeft` is the
    /// rectangle's origin even when its size is negative (where `minX` and `minY` are not).
    @Test func anchorPointsOnARect() {
        let rect = CGRect(x: 10, y: 20, width: 40, height: 60)
        let points = ViewPosition.Anchor.allCases.map { $0.anchorPoint(onRect: rect) }
        #expect(points == [
            CGPoint(x: 10, y: 20), CGPoint(x: 30, y: 20), CGPoint(x: 50, y: 20),
            CGPoint(x: 10, y: 50), CGPoint(x: 30, y: 50), CGPoint(x: 50, y: 50),
            CGPoint(x: 10, y: 80), CGPoint(x: 30, y: 80), CGPoint(x: 50, y: 80),
        ])
        let flipped = CGRect(x: 10, y: 20, width: -4, height: -6)
        #expect(ViewPosition.Anchor.topLeft.anchorPoint(onRect: flipped) == CGPoint(x: 10, y: 20))
        #expect(ViewPosition.Anchor.bottomRight.anchorPoint(onRect: flipped) == CGPoint(x: 10, y: 20))
    }
}
