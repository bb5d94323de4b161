import Foundation
import RelativeView

extension Font {
    /// The distance from the top of a line of this font down to the top of a capital
    /// letter, rounded down to the pixel grid of `pixelRounder` (`PixelRounder()` when `nil`).
    ///
    /// - Complexity: O(1)
    public func capInset(with pixelRounder: PixelRounder? = nil) -> CGFloat {
        (pixelRounder ?? PixelRounder()).floorToPixel(ascender - capHeight)
    }

    /// The distance from the baseline down to the bottom of a line, rounded up to the pixel
    /// grid of `pixelRounder` (`PixelRounder()` when `nil`).
    ///
    /// - Complexity: O(1)
    public func baselineInset(with pixelRounder: PixelRounder? = nil) -> CGFloat {
        (pixelRounder ?? PixelRounder()).ceilToPixel(-descender)
    }
}

extension CGRect {
    /// This rectangle, as the box of a single line of `font` whose top is the line's top,
    /// with its top moved down to the cap-height line and its bottom up to the baseline, on
    /// the pixel grid of `pixelRounder` (`PixelRounder()` when `nil`).
    ///
    /// - Complexity: O(1)
    public func insetBy(capAndBaselineOf font: Font, with pixelRounder: PixelRounder? = nil) -> CGRect {
        let cap = font.capInset(with: pixelRounder)
        let baseline = font.baselineInset(with: pixelRounder)
        return CGRect(x: origin.x, y: origin.y + cap, width: size.width, height: size.height - cap - baseline)
    }
}
