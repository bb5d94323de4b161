import Foundation
import RelativeLayout
import RelativeView
import Synchronization
import Testing

/// Misuse goes through the replaceable assert hook; its default traps in debug builds.
@Suite struct MisuseTests {
    /// The hook as a Relativity user sets it: assigned, called by every check with its
    /// condition (true for a check that holds, as Relativity's are), then put back. The same
    /// test runs under `swift test -c release` in CI: a task-local hook crashed there.
    @Test func theAssertBodyIsAssignedSeesEveryCheckAndIsPutBack() {
        assertBodyLock.withLock { _ in
            #expect(ErrorHandler.customAssertBody == nil)
            let calls = Mutex<[(Bool, String)]>([])
            ErrorHandler.customAssertBody = { condition, message, _, _ in calls.withLock { $0.append((condition, message)) } }
            let superview = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            let a = subview(of: superview, CGRect(x: 10, y: 10, width: 20, height: 20))
            let b = subview(of: superview, CGRect(x: 50, y: 50, width: 20, height: 20))
            #expect(a.topLeft |--| b.topLeft == CGSize(width: 40, height: 40))
            let afterHolding = calls.withLock { $0 }
            #expect(!afterHolding.isEmpty && afterHolding.allSatisfy { $0.0 }, "a check that holds calls the body with true: \(afterHolding)")
            View().top --> .top
            let failed = calls.withLock { $0 }.filter { !$0.0 }
            #expect(failed.count == 1 && failed.first?.1.contains("no superview") == true, "\(failed)")
            ErrorHandler.customAssertBody = nil
            #expect(ErrorHandler.customAssertBody == nil)
            let count = calls.withLock { $0.count }
            _ = a.topLeft |--| b.topLeft
            #expect(calls.withLock { $0.count } == count, "the body was put back: nothing more is recorded")
        }
    }

    @Test func aligningAViewWithoutASuperviewToASuperviewAnchor() {
        let lone = View(frame: CGRect(x: 1, y: 2, width: 3, height: 4))
        let messages = misuses {
            lone.top --> .top
            lone.top --> 10.verticalOffset + .top
            ViewPosition.Anchor.bottom <-- lone.bottom
        }
        #expect(messages.count == 3)
        #expect(messages.allSatisfy { $0.contains("no superview") })
        #expect(lone.frame == CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    /// As in Relativity, measuring needs the measured view's superview: from a root it is a
    /// misuse that measures `.zero`; the messages are Relativity's.
    @Test func measuringFromAViewWithoutASuperview() {
        let root = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let a = subview(of: root, CGRect(x: 10, y: 10, width: 20, height: 20))
        var size = CGSize(width: -1, height: -1)
        #expect(misuses { size = root.topLeft |--| a.topLeft } == ["Attempting to measure view but no superview exists! \(root)"])
        #expect(size == .zero)
        #expect(misuses { size = root.topLeft |--| .bottomRight } == ["Trying to measure to \(root)'s superview but no superview exists"])
        #expect(misuses { root.topLeft --> .topLeft } == ["Trying to align to \(root)'s superview but no superview exists"])
        #expect(misuses { root.topLeft --> a.bottomRight } == ["Attempting to align view but no superview exists! \(root)"])
        // From the subview it is fine, and the root's own anchors are measured to.
        #expect(misuses { size = a.topLeft |--| root.bottomRight }.isEmpty)
        #expect(size == CGSize(width: 90, height: 90))
    }

    @Test func measuringFromAPositionOffThePixelGrid() {
        atScale(2) {
            let superview = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            let a = subview(of: superview, CGRect(x: 10.25, y: 10, width: 20, height: 20))
            let b = subview(of: superview, CGRect(x: 50, y: 50, width: 20, height: 20))
            var size = CGSize.zero
            let messages = misuses { size = a.topLeft |--| b.topLeft }
            #expect(messages.count == 1)
            #expect(messages == ["Measuring distance with a ViewPosition whose origin is not pixel aligned!"])
            #expect(size == CGSize(width: 39.75, height: 40))
            // On the grid, nothing is reported.
            a.frame.origin.x = 10.5
            #expect(misuses { size = a.topLeft |--| b.topLeft }.isEmpty)
            #expect(size == CGSize(width: 39.5, height: 40))
        }
    }

    @Test func distributingViewsThatAreNotSubviews() {
        let superview = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let child = subview(of: superview, CGRect(x: 0, y: 0, width: 10, height: 10))
        let grandchild = subview(of: child, CGRect(x: 1, y: 1, width: 2, height: 2))
        let stranger = View(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
        let messages = misuses {
            superview.distributeSubviewsHorizontally { grandchild <> ~1~ <> child <> ~0~ <> stranger }
        }
        #expect(messages == [
            "Attempting to distribute a view \(grandchild) that is not a subview of \(superview)!",
            "Attempting to distribute a flexible spacer 0, which is less than 1!",
            "Attempting to distribute a view \(stranger) that is not a subview of \(superview)!",
        ])
        #expect(grandchild.frame.origin == CGPoint(x: 1, y: 1))
        #expect(stranger.frame.origin == CGPoint(x: 5, y: 5))
        // The child is still distributed: ~1~ before it and one added after, 45 each.
        #expect(child.frame.origin == CGPoint(x: 45, y: 45))
    }

    @Test func viewsInDifferentTreesAndStalePositions() {
        let one = View(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let a = subview(of: one, CGRect(x: 0, y: 0, width: 10, height: 10))
        let other = View(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let b = subview(of: other, CGRect(x: 20, y: 20, width: 10, height: 10))
        var size = CGSize(width: -1, height: -1)
        var messages = misuses {
            a.left --> b.right
            size = a.left |--| b.right
        }
        #expect(messages.count == 2)
        #expect(messages.allSatisfy { $0.contains("another view tree") })
        #expect(a.frame.origin == .zero)
        #expect(size == .zero)
        let position = a.right
        a.bounds.size = CGSize(width: 20, height: 20)
        messages = misuses { position --> .middle }
        #expect(messages.count == 1)
        #expect(messages == ["Bounds of view to align have changed since ViewPosition was created! (0.0, 0.0, 10.0, 10.0) -> (0.0, 0.0, 20.0, 20.0)"])
        // `offset(by:)` keeps the stale bounds, so the check still fires; `+` and `-` make a
        // new position with the bounds of now, as Relativity's do, so it passes.
        messages = misuses { position.offset(by: 2.horizontalOffset) --> .middle }
        #expect(messages.count == 1)
        messages = misuses {
            position + 2.horizontalOffset --> .middle
            position - 2.horizontalOffset --> .middle
            2.horizontalOffset + position --> .middle
        }
        #expect(messages == [])
        // The new position's point is the old one moved: x = 10 + 2 on a, now 20 wide, so
        // putting it on the middle of `one` (x = 25) puts a's left edge at 13.
        #expect(abs(a.frame.minX - 13) < 1e-9, "\(a.frame)")
    }

    @Test func badScreenScalesAreReportedAndRounded() {
        var rounder = PixelRounder()
        let messages = misuses {
            rounder = PixelRounder(withScreenScale: 2.5)
            _ = PixelRounder(withScreenScale: 0)
        }
        #expect(messages == [
            "Initializing a PixelRounder with a screenScale that isn't integral.",
            "A PixelRounder needs a whole, positive screen scale, not 0.0",
        ])
        #expect(rounder.screenScale == 3)
    }

    @Test func theDefaultHookTrapsInDebugBuilds() async {
        #if DEBUG
        await #expect(processExitsWith: .failure) {
            let lone = View()
            lone.top --> .top
        }
        #endif
    }
}
