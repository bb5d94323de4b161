import Foundation
import RelativeLayout
import RelativeView
import Synchronization
import XCTest

// Layout code as a Relativity user writes it, in XCTest as Relativity's own tests are, with
// UIKit's type names standing for ours: the only changes a port needs. A window is a root
// view whose `screenScale` is the screen's. The expected frames are worked out by hand
// from Relativity 3's algorithm (each step noted), at screen scales 1, 2 and 3.
private typealias UIView = View
private typealias UIWindow = View
private typealias UIOffset = Offset

final class RelativityAdopterTests: XCTestCase {
    /// What the assert hook saw: (condition, message) for every check made.
    private final class Checks: Sendable {
        private let list = Mutex<[(Bool, String)]>([])
        func withLock<R>(_ body: (inout [(Bool, String)]) -> R) -> R { list.withLock { body(&$0) } }
    }

    private let checks = Checks()

    override func setUp() {
        super.setUp()
        let checks = checks
        // An adopting project assigns the hook once; its tests set it and reset it.
        ErrorHandler.customAssertBody = { condition, message, _, _ in
            checks.withLock { $0.append((condition, message)) }
        }
    }

    /// The windows made by the test, kept as a UIKit app keeps its window: a view tree
    /// lives as long as its root, and a subview does not keep its superview alive.
    private var windows: [UIWindow] = []

    override func tearDown() {
        windows.removeAll()
        ErrorHandler.customAssertBody = nil
        super.tearDown()
    }

    /// The messages of the checks that failed.
    private var failures: [String] {
        checks.withLock { $0.filter { !$0.0 }.map(\.1) }
    }

    /// A 375 x 667 window at `scale` holding a full-size view, with three subviews of the
    /// given sizes added to it.
    private func screen(scale: CGFloat, sizes: [CGSize]) -> (view: UIView, subviews: [UIView]) {
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 375, height: 667))
        window.screenScale = scale
        windows.append(window)
        let view = UIView(frame: window.frame)
        window.addSubview(view)
        let subviews = sizes.map { UIView(frame: CGRect(origin: .zero, size: $0)) }
        subviews.forEach(view.addSubview)
        return (view, subviews)
    }

    private let squares = [CGSize(width: 100, height: 100), CGSize(width: 50, height: 50), CGSize(width: 25, height: 25)]

    private func assertOrigins(_ views: [UIView], _ expected: [CGPoint], scale: CGFloat, file: StaticString = #filePath, line: UInt = #line) {
        for (view, want) in zip(views, expected) {
            XCTAssertEqual(view.frame.minX, want.x, accuracy: 1e-9, "scale \(scale)", file: file, line: line)
            XCTAssertEqual(view.frame.minY, want.y, accuracy: 1e-9, "scale \(scale)", file: file, line: line)
        }
    }

    /// `a ~1~ b ~2~ c` down 667 points: 492 free, five weights (the implicit `~1~` at each
    /// end), 98.4 each. The running y is rounded after each spacer: 98.4; a's bottom + 98.4;
    /// b's bottom + 196.8. Each view is centered on x = 187.5, its top anchor's x rounded.
    func test_distributeSubviewsVertically_relativeSpacers() {
        let expected: [CGFloat: [CGPoint]] = [
            1: [CGPoint(x: 138, y: 98), CGPoint(x: 163, y: 296), CGPoint(x: 175, y: 543)],
            2: [CGPoint(x: 137.5, y: 98.5), CGPoint(x: 162.5, y: 297), CGPoint(x: 175, y: 544)],
            3: [CGPoint(x: 413.0 / 3, y: 295.0 / 3), CGPoint(x: 488.0 / 3, y: 890.0 / 3), CGPoint(x: 175, y: 1630.0 / 3)],
        ]
        for scale: CGFloat in [1, 2, 3] {
            let (view, subviews) = screen(scale: scale, sizes: squares)
            let (a, b, c) = (subviews[0], subviews[1], subviews[2])
            view.distributeSubviewsVertically {
                a
                ~1~
                b
                ~2~
                c
            }
            assertOrigins(subviews, expected[scale]!, scale: scale)
        }
        XCTAssertEqual(failures, [])
    }

    /// `a ~3~ b 8 c`: 484 free over weights 1 + 3 + 1, 96.8 each.
    func test_distributeSubviewsVertically_relativeAndFixedSpacers() {
        let expected: [CGFloat: [CGPoint]] = [
            1: [CGPoint(x: 138, y: 97), CGPoint(x: 163, y: 487), CGPoint(x: 175, y: 545)],
            2: [CGPoint(x: 137.5, y: 97), CGPoint(x: 162.5, y: 487.5), CGPoint(x: 175, y: 545.5)],
            3: [CGPoint(x: 413.0 / 3, y: 290.0 / 3), CGPoint(x: 488.0 / 3, y: 487), CGPoint(x: 175, y: 545)],
        ]
        for scale: CGFloat in [1, 2, 3] {
            let (view, subviews) = screen(scale: scale, sizes: squares)
            let (a, b, c) = (subviews[0], subviews[1], subviews[2])
            view.distributeSubviewsVertically {
                a
                ~3~
                b
                8
                c
            }
            assertOrigins(subviews, expected[scale]!, scale: scale)
        }
        XCTAssertEqual(failures, [])
    }

    /// `10 <> a <> ~1~ <> b <> ~1~ <> c <> 10` across 375 points: 180 free, 90 per spacer;
    /// each view centered on y = 333.5, which rounds to 334 at scale 1.
    func test_distributeSubviewsHorizontally_withOperators() {
        let expected: [CGFloat: [CGPoint]] = [
            1: [CGPoint(x: 10, y: 284), CGPoint(x: 200, y: 309), CGPoint(x: 340, y: 321)],
            2: [CGPoint(x: 10, y: 283.5), CGPoint(x: 200, y: 308.5), CGPoint(x: 340, y: 321)],
            3: [CGPoint(x: 10, y: 851.0 / 3), CGPoint(x: 200, y: 926.0 / 3), CGPoint(x: 340, y: 321)],
        ]
        for scale: CGFloat in [1, 2, 3] {
            let (view, subviews) = screen(scale: scale, sizes: squares)
            let (a, b, c) = (subviews[0], subviews[1], subviews[2])
            view.distributeSubviewsHorizontally {
                10 <> a <> ~1~ <> b <> ~1~ <> c <> 10
            }
            assertOrigins(subviews, expected[scale]!, scale: scale)
        }
        XCTAssertEqual(failures, [])
    }

    /// 70 + 50 points in a 100-point view: the hook hears of it, and the views are placed
    /// as Relativity places them: the area widened by 20 each side (from x = -20) and each
    /// implicit `~1~` taking -10, so a is at -30 and b right after it.
    func test_distribute_viewsTooLarge() {
        for scale: CGFloat in [1, 2, 3] {
            checks.withLock { $0.removeAll() }
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 40))
            window.screenScale = scale
            let a = UIView(frame: CGRect(x: 0, y: 0, width: 70, height: 20))
            let b = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 20))
            window.addSubview(a)
            window.addSubview(b)
            SubviewDistributor.newHorizontalSubviewDistributor(with: window).distribute(subviewDistribution: [.view(a), .view(b)])
            XCTAssertEqual(failures, ["Views are too large to fit in distribution."])
            assertOrigins([a, b], [CGPoint(x: -30, y: 10), CGPoint(x: 40, y: 10)], scale: scale)
        }
    }

    /// `a.left --> .left + 8.25.horizontalOffset` then `b.left --> a.right + UIOffset(…)`:
    /// a's origin is (8.25, 333.5 - 25) on the pixel grid, b 4 points right of a's right
    /// edge and centered on it; the measured gap is 4 at every scale.
    func test_alignAndMeasure() {
        let expected: [CGFloat: [CGPoint]] = [
            1: [CGPoint(x: 8, y: 309), CGPoint(x: 112, y: 319)],
            2: [CGPoint(x: 8.5, y: 308.5), CGPoint(x: 112.5, y: 318.5)],
            3: [CGPoint(x: 25.0 / 3, y: 926.0 / 3), CGPoint(x: 337.0 / 3, y: 956.0 / 3)],
        ]
        for scale: CGFloat in [1, 2, 3] {
            let (_, subviews) = screen(scale: scale, sizes: [CGSize(width: 100, height: 50), CGSize(width: 30, height: 30)])
            let (a, b) = (subviews[0], subviews[1])
            a.left --> .left + 8.25.horizontalOffset
            b.left --> a.right + UIOffset(horizontal: 4, vertical: 0)
            assertOrigins(subviews, expected[scale]!, scale: scale)
            XCTAssertEqual((a.right |--| b.left).width, 4, accuracy: 1e-9)
            XCTAssertEqual((a.right |--| b.left).height, 0, accuracy: 1e-9)
        }
        XCTAssertEqual(failures, [])
    }

    /// Measuring from a view whose origin is off the pixel grid: the hook gets Relativity's
    /// message with a false condition, and the hook is called for the checks that hold too.
    func test_measureDistance_assertsOriginIsOnPixelBoundary() {
        for scale: CGFloat in [1, 2, 3] {
            checks.withLock { $0.removeAll() }
            let (_, subviews) = screen(scale: scale, sizes: [CGSize(width: 100, height: 50), CGSize(width: 30, height: 30)])
            subviews[0].frame.origin.x += 0.54321
            _ = subviews[0].left |--| subviews[1].right
            XCTAssertEqual(failures, ["Measuring distance with a ViewPosition whose origin is not pixel aligned!"])
            XCTAssertTrue(checks.withLock { $0.contains { $0.0 } }, "a check that holds still calls the hook")
        }
    }

    /// The hook as Relativity's own tests write it: a main-actor test whose body changes a
    /// local `var`. It runs on the main actor, so this compiles and sees the message.
    @MainActor
    func test_hookCapturingLocalState() {
        let (_, subviews) = screen(scale: 2, sizes: [CGSize(width: 30, height: 30), CGSize(width: 30, height: 30)])
        subviews[0].frame.origin.y += 0.3
        subviews[1].frame.origin.x += 0.3
        let pixelAlignmentMessage = "Measuring distance with a ViewPosition whose origin is not pixel aligned!"
        var assertBodyCalledForPixelAlignment = false
        ErrorHandler.customAssertBody = { condition, message, _, _ in
            if message == pixelAlignmentMessage {
                XCTAssertFalse(condition)
                assertBodyCalledForPixelAlignment = true
            }
        }
        defer { ErrorHandler.customAssertBody = nil }
        _ = subviews[0].bottom |--| subviews[1].top
        XCTAssertTrue(assertBodyCalledForPixelAlignment)
    }

    /// A check made off the main thread still reaches a main-actor body, which runs on the
    /// main thread while the check waits.
    func test_hookCalledFromAnotherThread() {
        let onMain = Checks()
        ErrorHandler.customAssertBody = { condition, message, _, _ in
            onMain.withLock { $0.append((Thread.isMainThread, message)) }
        }
        let done = expectation(description: "layout on another thread")
        Thread.detachNewThread {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            let lone = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            lone.left --> .left  // no superview: reported
            withExtendedLifetime(window) {}
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(onMain.withLock { $0.map(\.0) }, [true])
        XCTAssertEqual(onMain.withLock { $0.map(\.1) }, ["Trying to align to <View tag=0>'s superview but no superview exists"])
    }

    /// A hook set to nil goes back to the default body, which stops at a failed check in
    /// debug builds: here only checks that hold run, and nothing is recorded.
    func test_resettingTheHook() {
        ErrorHandler.customAssertBody = nil
        let (_, subviews) = screen(scale: 2, sizes: [CGSize(width: 10, height: 10)])
        subviews[0].left --> .left
        XCTAssertEqual(checks.withLock { $0.count }, 0)
        XCTAssertEqual(subviews[0].frame.origin, CGPoint(x: 0, y: 328.5))
    }
}
