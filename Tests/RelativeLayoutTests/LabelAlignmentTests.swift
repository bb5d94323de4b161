import Foundation
import RelativeLayout
import RelativeView
import Testing

/// Labels align by cap height and baseline, as the seed describes.
@Suite struct LabelAlignmentTests {
    /// ascender 16.4, descender -3.3, cap height 12: the cap inset is floor(4.4) and the
    /// baseline inset ceil(3.3), on each scale's pixel grid.
    let font = Font(pointSize: 17, ascender: 16.4, descender: -3.3, capHeight: 12)
    let insets: [CGFloat: (cap: CGFloat, baseline: CGFloat)] = [
        1: (4, 4),                   // floor(4.4), ceil(3.3)
        2: (4, 3.5),                 // floor(8.8) / 2, ceil(6.6) / 2
        3: (13.0 / 3, 10.0 / 3),     // floor(13.2) / 3, ceil(9.9) / 3
    ]

    @Test(arguments: screenScales)
    func metricsRoundToThePixelGrid(scale: CGFloat) {
        let rounder = PixelRounder(withScreenScale: scale)
        #expect(font.capInset(with: rounder) == insets[scale]?.cap)
        #expect(font.baselineInset(with: rounder) == insets[scale]?.baseline)
        #expect(font.lineHeight == font.ascender - font.descender)
    }

    /// Relativity 3's six label anchors: on the cap-height line and the baseline with a font,
    /// on the bounds' top and bottom edges without one.
    @Test(arguments: screenScales)
    func capAndBaselineAnchorsOfALabel(scale: CGFloat) {
        atScale(scale) {
            let superview = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
            let label = subview(Label(), of: superview, CGRect(x: 20, y: 100, width: 100, height: 20))
            #expect(label.cap.anchorPoint == CGPoint(x: 50, y: 0), "no font: the top edge")
            #expect(label.baselineRight.anchorPoint == CGPoint(x: 100, y: 20), "no font: the bottom edge")
            label.font = font
            guard let (cap, baseline) = insets[scale] else { return }
            #expect(label.capLeft.anchorPoint == CGPoint(x: 0, y: cap))
            #expect(label.cap.anchorPoint == CGPoint(x: 50, y: cap))
            #expect(label.capRight.anchorPoint == CGPoint(x: 100, y: cap))
            #expect(label.baselineLeft.anchorPoint == CGPoint(x: 0, y: 20 - baseline))
            #expect(label.baseline.anchorPoint == CGPoint(x: 50, y: 20 - baseline))
            #expect(label.baselineRight.anchorPoint == CGPoint(x: 100, y: 20 - baseline))
            // A view aligned 8 below the label's baseline: y = 100 + 20 - baseline + 8.
            let below = subview(of: superview, CGRect(x: 0, y: 0, width: 10, height: 10))
            below.top --> 8.verticalOffset + label.baseline
            #expect(abs(below.frame.origin.y - (128 - baseline)) < 1e-9)
            #expect(below.frame.origin.x == 65)
        }
    }

    @Test(arguments: screenScales)
    func baselineOfAEightBelowCapLineOfB(scale: CGFloat) {
        atScale(scale) {
            let superview = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
            let a = subview(Label(), of: superview, CGRect(x: 0, y: 0, width: 80, height: 20))
            let b = subview(Label(), of: superview, CGRect(x: 20, y: 100, width: 100, height: 20))
            a.font = font
            b.font = font
            guard let (cap, baseline) = insets[scale] else { return }
            // b's top anchor is its cap line: (50, cap) in b, (70, 100 + cap) in the superview.
            #expect(b.top.anchorPoint == CGPoint(x: 50, y: cap))
            #expect(b.bottom.anchorPoint == CGPoint(x: 50, y: 20 - baseline))
            // a's bottom anchor, its baseline (40, 20 - baseline), goes 8 below that.
            a.bottom --> 8.verticalOffset + b.top
            let expectedY = 100 + cap + 8 - (20 - baseline)
            #expect(abs(a.frame.origin.y - expectedY) < 1e-9)
            #expect(a.frame.origin.x == 30)
            // The gap from b's cap line to a's baseline measures 8.
            let gap = a.bottom |--| b.top
            #expect(gap.width == 0 && abs(gap.height - 8) < 1e-9)
        }
    }

    @Test func aLabelWithoutAFontUsesItsBounds() {
        let label = Label(frame: CGRect(x: 0, y: 0, width: 30, height: 10))
        #expect(label.top.anchorPoint == CGPoint(x: 15, y: 0))
        #expect(label.bottomRight.anchorPoint == CGPoint(x: 30, y: 10))
    }

    @Test func fontTrapsOnImpossibleMetrics() async {
        await #expect(processExitsWith: .failure) {
            _ = Font(pointSize: 10, ascender: 8, descender: -2, capHeight: 9)
        }
    }
}
