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

/// Serializes the tests that set the process-wide assert body (see ``misuses(in:)``).
let assertBodyLock = Mutex<Void>(())

/// The messages of the misuses reported while `body` ran, through a custom assert body set
/// for the time of `body` and then put back, as a Relativity user's test does. The body is
/// process-wide: tests that set it take turns.
func misuses(in body: () throws -> Void) rethrows -> [String] {
    try assertBodyLock.withLock { _ in
        let calls = Mutex<[String]>([])
        let previous = ErrorHandler.customAssertBody
        ErrorHandler.customAssertBody = { condition, message, _, _ in
            if !condition { calls.withLock { $0.append(message) } }
        }
        defer { ErrorHandler.customAssertBody = previous }
        try body()
        return calls.withLock { $0 }
    }
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
