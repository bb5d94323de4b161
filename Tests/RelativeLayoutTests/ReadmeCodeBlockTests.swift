import RelativeLayout
import Testing

/// The README's layout examples, verbatim (ReadmeCoverageTests checks that every ```swift block
/// of the README appears in a test file), with what each line does worked out by hand.
///
/// Each line of a block moves a view; `readmeSteps { … }` hands the lines back unrun, one
/// closure each, so that the test runs them one at a time and checks the frames after each.
@Suite struct ReadmeCodeBlockTests {
    @Test func positioning() throws {
        // a (40×20) and b (60×30 at (100, 200)) in a 320×480 superview; b.left is (100, 215),
        // b.middle (130, 215), b.right (160, 215), the superview's top (160, 0).
        let superview = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let a = subview(of: superview, CGRect(x: 0, y: 0, width: 40, height: 20))
        let b = subview(of: superview, CGRect(x: 100, y: 200, width: 60, height: 30))

        let steps = readmeSteps {
            a.right --> -10.horizontalOffset + b.left    // a's right edge 10 points left of b's left edge
            a.right --> 10.horizontalOffset + b.left     // as the Relativity README writes it: 10 to the right
            b.right + 10.horizontalOffset <-- a.left     // a 10 points right of b
            a.top --> 10.verticalOffset + .top           // a 10 points below its superview's top center
            a.middle.align(to: b.middle, xOffset: 6, yOffset: 5)   // spelled out
        }
        let origins = [
            CGPoint(x: 50, y: 205),   // a's right-middle (+40, +10) on (90, 215)
            CGPoint(x: 70, y: 205),   // on (110, 215)
            CGPoint(x: 170, y: 205),  // a's left-middle (+0, +10) on (170, 215)
            CGPoint(x: 140, y: 10),   // a's top center (+20, +0) on (160, 10)
            CGPoint(x: 116, y: 210),  // a's middle (+20, +10) on (136, 220)
        ]
        try #require(steps.count == origins.count)
        for (step, origin) in zip(steps, origins) {
            step()
            #expect(a.frame == CGRect(origin: origin, size: CGSize(width: 40, height: 20)))
            #expect(b.frame == CGRect(x: 100, y: 200, width: 60, height: 30), "b never moves")
        }
    }

    @Test func distribution() throws {
        // a (40 wide), b (60) and c (20), all 20 tall, in a 300×100 superview: 180 points
        // of the width are left for the spacers.
        let superview = View(frame: CGRect(x: 0, y: 0, width: 300, height: 100))
        let a = subview(of: superview, CGRect(x: 0, y: 0, width: 40, height: 20))
        let b = subview(of: superview, CGRect(x: 0, y: 0, width: 60, height: 20))
        let c = subview(of: superview, CGRect(x: 0, y: 0, width: 20, height: 20))

        let steps = readmeSteps {
            superview.distributeSubviewsHorizontally { a <> ~1~ <> b <> ~1~ <> c }   // equal spaces
            superview.distributeSubviewsHorizontally { a <> ~2~ <> b <> ~1~ <> c }   // a–b twice b–c
            superview.distributeSubviewsHorizontally { 8 <> a <> ~1~ <> b <> ~1~ <> c }  // a pinned 8 from the left
            superview.distributeSubviewsVertically(within: CGRect(x: 0, y: 0, width: superview.bounds.midX,
                                                                  height: superview.bounds.height)) {
                a <> ~1~ <> b <> ~1~ <> c                                             // in the left half
            }
        }
        let origins: [[CGPoint]] = [
            // 180 / 4 = 45 a spacer (a ~1~ is added at each end); centered vertically at y 40.
            [CGPoint(x: 45, y: 40), CGPoint(x: 130, y: 40), CGPoint(x: 235, y: 40)],
            // weights 1, 2, 1, 1: 36 a share, so a–b is 72 and b–c 36.
            [CGPoint(x: 36, y: 40), CGPoint(x: 148, y: 40), CGPoint(x: 244, y: 40)],
            // 8, then 172 / 3 = 57.33 a share, rounded to the pixel grid.
            [CGPoint(x: 8, y: 40), CGPoint(x: 105, y: 40), CGPoint(x: 222, y: 40)],
            // 100 - 60 = 40 high for four spacers: 10 each; centered on x = 75, the left half's middle.
            [CGPoint(x: 55, y: 10), CGPoint(x: 45, y: 40), CGPoint(x: 65, y: 70)],
        ]
        try #require(steps.count == origins.count)
        for (step, expected) in zip(steps, origins) {
            step()
            #expect([a, b, c].map(\.frame.origin) == expected)
        }
        #expect([a, b, c].map(\.frame.size) == [CGSize(width: 40, height: 20), CGSize(width: 60, height: 20), CGSize(width: 20, height: 20)])
    }

    @Test func sizing() throws {
        // a at (10, 10, 40, 40) and c at (150, 120, 30, 30) in a 320×480 superview:
        // a.topRight is (50, 10), c.bottomLeft (150, 150).
        let superview = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let a = subview(of: superview, CGRect(x: 10, y: 10, width: 40, height: 40))
        let b = subview(of: superview, CGRect(x: 0, y: 0, width: 0, height: 0))
        let c = subview(of: superview, CGRect(x: 150, y: 120, width: 30, height: 30))

        let steps = readmeSteps {
            b.bounds.size = a.topRight |--| c.bottomLeft                            // fit between a and c
            b.bounds.size = a.topRight |--| c.bottomLeft + -16.horizontalOffset     // with a 16-point inset
            b.bounds.size = CGSize(width: (a.right |--| .right).width, height: a.bounds.height)
        }
        let sizes = [
            CGSize(width: 100, height: 140),
            CGSize(width: 84, height: 140),   // c.bottomLeft moved to (134, 150)
            CGSize(width: 270, height: 40),   // from a's right (50) to the superview's right (320); a's height
        ]
        try #require(steps.count == sizes.count)
        for (step, size) in zip(steps, sizes) {
            step()
            #expect(b.bounds.size == size)
        }
    }
}

/// The lines of a block, each as a closure that runs it: the block compiles as written and
/// its lines run when the test says.
@resultBuilder enum ReadmeSteps {
    static func buildExpression(_ line: @escaping @autoclosure () -> Void) -> [() -> Void] { [line] }
    static func buildBlock(_ lines: [() -> Void]...) -> [() -> Void] { lines.flatMap { $0 } }
}

/// The lines of `block`, unrun (see ``ReadmeSteps``).
func readmeSteps(@ReadmeSteps _ block: () -> [() -> Void]) -> [() -> Void] {
    block()
}
