import Foundation
import RelativeLayout
import RelativeView
import Synchronization

/// The screen scales every layout test runs at.
let screenScales: [CGFloat] = [1, 2, 3]

/// Runs `body` with `scale` as the default screen scale of the current task.
func atScale<R>(_ scale: CGFloat, _ body: () throws -> R) rethrows -> R {
    try PixelRounder.$defaultScreenScale.withValue(scale, operation: body)
}

/// The messages of the misuses reported while `body` ran (through a replaced assert body).
func misuses(in body: () throws -> Void) rethrows -> [String] {
    let calls = Mutex<[String]>([])
    try ErrorHandler.$customAssertBody.withValue({ condition, message, _, _ in
        if !condition { calls.withLock { $0.append(message) } }
    }, operation: body)
    return calls.withLock { $0 }
}

/// A view with the given frame, added to `superview`.
@discardableResult
func subview<V: View>(_ view: V = View(), of superview: View, _ frame: CGRect) -> V {
    view.frame = frame
    superview.addSubview(view)
    return view
}

/// Whether `value` is on the pixel grid of `scale` (within floating-point slack).
func onGrid(_ value: CGFloat, _ scale: CGFloat) -> Bool {
    abs(value * scale - (value * scale).rounded()) < 1e-6
}
