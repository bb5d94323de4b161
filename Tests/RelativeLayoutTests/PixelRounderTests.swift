import Foundation
import RelativeLayout
import RelativeView
import Testing

@Suite struct PixelRounderTests {
    @Test func roundsValuesAtEachScale() {
        let one = PixelRounder(withScreenScale: 1)
        let two = PixelRounder(withScreenScale: 2)
        let three = PixelRounder(withScreenScale: 3)
        #expect([one.roundToPixel(1.5), one.ceilToPixel(1.1), one.floorToPixel(1.9), one.roundToPixel(-1.5)] == [2, 2, 1, -2])
        #expect([two.roundToPixel(1.3), two.ceilToPixel(1.1), two.floorToPixel(1.9), two.roundToPixel(1.2)] == [1.5, 1.5, 1.5, 1])
        let fourThirds: CGFloat = 4.0 / 3
        #expect([three.roundToPixel(1.2), three.ceilToPixel(1.01), three.floorToPixel(1.5)] == [fourThirds, fourThirds, fourThirds])
        #expect(three.floorToPixel(1.0 / 3) == 1.0 / 3)
    }

    @Test func roundsPointsSizesAndRects() {
        let two = PixelRounder(withScreenScale: 2)
        #expect(two.roundToPixel(CGPoint(x: 0.3, y: 0.8)) == CGPoint(x: 0.5, y: 1))
        #expect(two.ceilToPixel(CGPoint(x: 0.1, y: 0.6)) == CGPoint(x: 0.5, y: 1))
        #expect(two.floorToPixel(CGPoint(x: 0.4, y: 0.9)) == CGPoint(x: 0, y: 0.5))
        #expect(two.roundToPixel(CGSize(width: 10.2, height: 3.3)) == CGSize(width: 10, height: 3.5))
        #expect(two.ceilToPixel(CGSize(width: 10.2, height: 3.3)) == CGSize(width: 10.5, height: 3.5))
        #expect(two.floorToPixel(CGSize(width: 10.2, height: 3.3)) == CGSize(width: 10, height: 3))
        #expect(two.roundToPixel(CGRect(x: 0.3, y: 0.2, width: 9.8, height: 1.1)) == CGRect(x: 0.5, y: 0, width: 10, height: 1))
        // Ceil grows the rectangle outward to the grid, floor shrinks it inward.
        #expect(two.ceilToPixel(CGRect(x: 0.3, y: 0.2, width: 1, height: 1)) == CGRect(x: 0, y: 0, width: 1.5, height: 1.5))
        #expect(two.floorToPixel(CGRect(x: 0.3, y: 0.2, width: 1, height: 1)) == CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5))
        #expect(two.floorToPixel(CGRect(x: 0.1, y: 0.1, width: 0.2, height: 0.2)).size == .zero)
    }

    @Test func recognisesTheGrid() {
        let three = PixelRounder(withScreenScale: 3)
        #expect(three.isRoundedToPixel(2.0 / 3))
        #expect(!three.isRoundedToPixel(0.5))
        #expect(three.isRoundedToPixel(CGPoint(x: 1.0 / 3, y: 5)))
        #expect(!three.isRoundedToPixel(CGPoint(x: 1.0 / 3, y: 0.25)))
    }

    @Test func theDefaultScaleIsTaskLocal() {
        #expect(PixelRounder().screenScale == 1)
        PixelRounder.$defaultScreenScale.withValue(3) {
            #expect(PixelRounder().screenScale == 3)
        }
        #expect(PixelRounder().screenScale == 1)
    }

    /// Relativity's screen spellings: `PixelRounder(for: nil)`, `PixelRounder(for:
    /// UIScreen.main)` (here `Screen.main`, the task's default scale), a given screen, and a
    /// window (a root view) whose scale is its `screenScale`; the font insets take an
    /// optional rounder, `nil` meaning `PixelRounder()`.
    @Test func screensWindowsAndOptionalRounders() {
        PixelRounder.$defaultScreenScale.withValue(3) {
            #expect(PixelRounder(for: nil).screenScale == 3)
            #expect(PixelRounder(for: Screen.main).screenScale == 3)
            #expect(PixelRounder(for: Screen(scale: 2)).screenScale == 2)
            let window = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            window.screenScale = 2
            #expect(PixelRounder(for: window).screenScale == 2)
            // At scale 3 the insets are 13/3 and 10/3; at 1 they would be 4 and 4.
            let font = Font(pointSize: 17, ascender: 16.4, descender: -3.3, capHeight: 12)
            #expect(abs(font.capInset(with: nil) - 13.0 / 3) < 1e-9)
            #expect(abs(font.baselineInset() - 10.0 / 3) < 1e-9)
            #expect(font.capInset(with: nil) == font.capInset(with: PixelRounder(withScreenScale: 3)))
            #expect(font.baselineInset() == font.baselineInset(with: PixelRounder(withScreenScale: 3)))
            let rect = CGRect(x: 0, y: 0, width: 50, height: 30)
            #expect(rect.insetBy(capAndBaselineOf: font, with: nil) == rect.insetBy(capAndBaselineOf: font, with: PixelRounder(withScreenScale: 3)))
        }
    }
}
