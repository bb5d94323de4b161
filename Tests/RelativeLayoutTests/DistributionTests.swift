import Foundation
import RelativeLayout
import RelativeView
import Testing

/// Subview distribution: the seed's examples and mixed spacers, horizontal and vertical.
@Suite struct DistributionTests {
    /// A 300×100 superview with a (40 wide), b (60) and c (20), all 20 tall.
    func row() -> (superview: View, a: View, b: View, c: View) {
        let superview = View(frame: CGRect(x: 0, y: 0, width: 300, height: 100))
        let a = subview(of: superview, CGRect(x: 0, y: 0, width: 40, height: 20))
        let b = subview(of: superview, CGRect(x: 0, y: 0, width: 60, height: 20))
        let c = subview(of: superview, CGRect(x: 0, y: 0, width: 20, height: 20))
        return (superview, a, b, c)
    }

    /// Relativity's spellings: the labelled closure, `within: .zero` for the whole bounds,
    /// the public `SubviewDistributor`, optional items and `nil`s in a line, all placing
    /// the views where the equal-spacing example does (45, 130, 235).
    @Test(arguments: screenScales)
    func relativitySpellingsPlaceAsTheUsualOnes(scale: CGFloat) {
        atScale(scale) {
            let expected = [CGPoint(x: 45, y: 40), CGPoint(x: 130, y: 40), CGPoint(x: 235, y: 40)]
            var (superview, a, b, c) = row()
            superview.distributeSubviewsHorizontally(within: .zero, subviewDistributionCreationBlock: { a <> ~1~ <> b <> ~1~ <> c })
            #expect([a, b, c].map(\.frame.origin) == expected)

            (superview, a, b, c) = row()
            SubviewDistributor.newHorizontalSubviewDistributor(with: superview).distribute(subviewDistribution: a <> ~1~ <> b <> ~1~ <> c)
            #expect([a, b, c].map(\.frame.origin) == expected)

            (superview, a, b, c) = row()
            let missing: DistributionItem? = nil
            let present: DistributionItem? = .view(b)
            superview.distributeSubviewsHorizontally {
                DistributionItem.view(a)
                missing
                ~1~
                present
                [nil, ~1~, nil] as [DistributionItem?]
                c
            }
            #expect([a, b, c].map(\.frame.origin) == expected)

            // Vertically, in the left half: 100 - 40 = 60 points for the two ~1~ spacers added
            // at the ends (30 each); centered across x 0...150.
            (superview, a, b, c) = row()
            SubviewDistributor.newVerticalSubviewDistributor(with: superview)
                .distribute(subviewDistribution: [.view(a), .view(b)], within: CGRect(x: 0, y: 0, width: 150, height: 100))
            #expect(a.frame.origin == CGPoint(x: 55, y: 30) && b.frame.origin == CGPoint(x: 45, y: 50))
        }
    }

    /// The builder's partial blocks and the taken `if` build the same list a direct call
    /// of Relativity's overloads does.
    @Test func theBuilderOverloadsOfRelativity() {
        let v = View()
        typealias B = DistributionItemsBuilder
        let one = B.buildPartialBlock(first: .fixed(1))
        let two = B.buildPartialBlock(accumulated: .fixed(1), next: .view(v))
        let three = B.buildPartialBlock(accumulated: two, next: [.flexible(2)])
        #expect(one.count == 1 && two.count == 2 && three.count == 3)
        #expect(B.buildPartialBlock(accumulated: .fixed(1), next: [.fixed(2), .fixed(3)]).count == 3)
        #expect(B.buildPartialBlock(accumulated: [.fixed(1)], next: .fixed(2)).count == 2)
        #expect(B.buildPartialBlock(first: [.fixed(1), .fixed(2)]).count == 2)
        #expect(B.buildOptional([.fixed(1)]).count == 1)
        #expect(B.buildOptional(nil as [DistributionItem]?).isEmpty)
        if case .flexible(2) = three[2] {} else { Issue.record("the last item is ~2~: \(three)") }
    }

    @Test(arguments: screenScales)
    func equalSpacing(scale: CGFloat) {
        atScale(scale) {
            let (superview, a, b, c) = row()
            // 300 - 120 = 180 points shared by four ~1~ spacers (one added at each end): 45.
            superview.distributeSubviewsHorizontally {
                a <> ~1~ <> b <> ~1~ <> c
            }
            #expect([a, b, c].map(\.frame.origin) == [CGPoint(x: 45, y: 40), CGPoint(x: 130, y: 40), CGPoint(x: 235, y: 40)])
        }
    }

    @Test(arguments: screenScales)
    func twiceTheSpaceBetweenAAndB(scale: CGFloat) {
        atScale(scale) {
            let (superview, a, b, c) = row()
            // Weights 1, 2, 1, 1: 180 / 5 = 36 a share.
            superview.distributeSubviewsHorizontally {
                a <> ~2~ <> b <> ~1~ <> c
            }
            #expect([a, b, c].map(\.frame.minX) == [36, 148, 244])
        }
    }

    @Test func pinnedEightFromTheLeftThenEqualSpacing() {
        // 8 <> a <> ~1~ <> b <> ~1~ <> c <> ~1~: 172 / 3 = 57.33 a share. b goes to
        // 48 + 57.33 = 105.33 and c to b's rounded right edge + 57.33, each on its scale's grid.
        let expected: [CGFloat: [CGFloat]] = [
            1: [8, 105, 222],             // 105.33 -> 105; 165 + 57.33 = 222.33 -> 222
            2: [8, 105.5, 223],           // 210.67 -> 211; 165.5 + 57.33 = 222.83 -> 445.67 -> 446
            3: [8, 316.0 / 3, 668.0 / 3], // 316 / 3; 165.33 + 57.33 = 222.67 -> 668 / 3
        ]
        for scale in screenScales {
            atScale(scale) {
                let (superview, a, b, c) = row()
                superview.distributeSubviewsHorizontally {
                    8 <> a <> ~1~ <> b <> ~1~ <> c
                }
                let xs = [a, b, c].map(\.frame.minX)
                for (x, want) in zip(xs, expected[scale] ?? []) {
                    #expect(abs(x - want) < 1e-9, "scale \(scale): \(xs)")
                    #expect(onGrid(x, scale))
                }
            }
        }
    }

    @Test(arguments: screenScales)
    func verticallyInTheLeftHalf(scale: CGFloat) {
        atScale(scale) {
            let superview = View(frame: CGRect(x: 0, y: 0, width: 300, height: 600))
            let views = (0 ..< 3).map { _ in subview(of: superview, CGRect(x: 0, y: 0, width: 40, height: 100)) }
            let (a, b, c) = (views[0], views[1], views[2])
            // 600 - 300 = 300 shared by four spacers: 75; centered on x = 75 in the left half.
            superview.distributeSubviewsVertically(within: CGRect(x: 0, y: 0, width: superview.bounds.midX, height: superview.bounds.height)) {
                a <> ~1~ <> b <> ~1~ <> c
            }
            #expect(views.map(\.frame.origin) == [CGPoint(x: 55, y: 75), CGPoint(x: 55, y: 250), CGPoint(x: 55, y: 425)])
        }
    }

    @Test func mixedFixedAndFlexibleSpacersWithinASubRect() {
        let (superview, a, b, c) = row()
        // In (50, 10, 200, 80): 200 - 10 - 5 - 5 - 120 = 60 for the single ~1~; no spacer is
        // added at the ends, which are fixed already.
        superview.distributeSubviewsHorizontally(within: CGRect(x: 50, y: 10, width: 200, height: 80)) {
            .fixed(10) <> a <> ~1~ <> b <> 5.0 <> c <> Float(5)
        }
        #expect([a, b, c].map(\.frame.origin) == [CGPoint(x: 60, y: 40), CGPoint(x: 160, y: 40), CGPoint(x: 225, y: 40)])
        // The same items, one per line, with .flexible and CGFloat.
        superview.distributeSubviewsHorizontally(within: CGRect(x: 50, y: 10, width: 200, height: 80)) {
            CGFloat(10)
            a
            DistributionItem.flexible(1)
            b
            5
            c
            Double(5)
        }
        #expect([a, b, c].map(\.frame.minX) == [60, 160, 225])
    }

    @Test func verticalMixedWithWeights() {
        let superview = View(frame: CGRect(x: 0, y: 0, width: 100, height: 400))
        let a = subview(of: superview, CGRect(x: 0, y: 0, width: 10, height: 50))
        let b = subview(of: superview, CGRect(x: 0, y: 0, width: 20, height: 50))
        // 400 - 100 - 20 = 280 for weights 1 (added at the start), 3: 70 and 210.
        superview.distributeSubviewsVertically {
            a <> 20 <> b <> .flexible(3)
        }
        #expect(a.frame.origin == CGPoint(x: 45, y: 70))
        #expect(b.frame.origin == CGPoint(x: 40, y: 140))
    }

    /// A superview whose bounds origin is not zero: the rectangle is in its bounds space,
    /// where its subviews' frames are.
    @Test func respectsTheSuperviewsBoundsOrigin() {
        let (superview, a, b, c) = row()
        superview.bounds.origin = CGPoint(x: 100, y: 50)
        superview.distributeSubviewsHorizontally { a <> ~1~ <> b <> ~1~ <> c }
        #expect([a, b, c].map(\.frame.origin) == [CGPoint(x: 145, y: 90), CGPoint(x: 230, y: 90), CGPoint(x: 335, y: 90)])
    }

    @Test func tooLongForTheSpaceIsReported() {
        let (superview, a, b, c) = row()
        var messages: [String] = []
        messages = misuses {
            superview.distributeSubviewsHorizontally { a <> 200 <> b <> c }
        }
        #expect(messages.count == 1)
        #expect(messages == ["Views are too large to fit in distribution."])
        // Placed as Relativity places them: 320 points of views and spacers in 300 leave
        // -20 of flexible space. The area is widened by 20 on both sides (it starts at -20)
        // and each of the two added `~1~` spacers takes -10, so a starts at -30.
        #expect([a, b, c].map(\.frame.minX) == [-30, 210, 270])
    }

    /// A 140-point view in a 100-point superview: Relativity widens the area by the -40 of
    /// flexible space on both sides (it starts at -40), and the added leading `~1~` spacer
    /// takes half of -40, so the view starts at -60.
    @Test func anOverlongViewLandsWhereRelativityPutsIt() {
        let superview = View(frame: CGRect(x: 0, y: 0, width: 100, height: 40))
        let wide = subview(of: superview, CGRect(x: 0, y: 0, width: 140, height: 20))
        let messages = misuses {
            superview.distributeSubviewsHorizontally { wide }
        }
        #expect(messages == ["Views are too large to fit in distribution."])
        #expect(wide.frame == CGRect(x: -60, y: 10, width: 140, height: 20))
    }

    /// The running position is rounded to the pixel grid after every spacer, as
    /// Relativity's `ViewPosition + UIOffset` does, not once per view: two half-point
    /// spacers at scale 1 round to 1, then 1.5 rounds to 2 (half away from zero), so the
    /// view starts at 2, not at 1.
    @Test func roundsAfterEverySpacer() {
        let superview = View(frame: CGRect(x: 0, y: 0, width: 11, height: 10))
        let a = subview(of: superview, CGRect(x: 0, y: 0, width: 10, height: 4))
        atScale(1) {
            superview.distributeSubviewsHorizontally {
                0.5
                0.5
                a
            }
        }
        #expect(a.frame == CGRect(x: 2, y: 3, width: 10, height: 4))
    }
}
