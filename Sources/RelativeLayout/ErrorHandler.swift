import Dispatch
import Foundation
import Synchronization

/// The hook through which layout reports misuse: aligning a view that has no superview to a
/// superview anchor, measuring from a position off the pixel grid, distributing views that
/// are not subviews, and the like. The layout call then does the least surprising thing
/// (usually nothing) and returns.
///
/// By default a misuse fails loudly in debug builds (`assertionFailure`, which traps) and is
/// ignored in release builds. As in Relativity, a program replaces the body once, for its
/// whole run, and a test sets it and puts it back:
///
/// ```swift
/// ErrorHandler.customAssertBody = { condition, message, file, line in
///     if !condition { log(message) }
/// }
/// ```
///
/// While a custom body is set, every check calls it, with its condition, as Relativity's
/// do (a check that holds passes `true`); with none, a check that holds costs one atomic
/// load and calls nothing. The body is process-wide state behind a `Mutex`, so setting it
/// from any thread is safe. Being process-wide, it sees the checks of every thread: a test
/// that sets it must not run in parallel with another test that sets it, or with one whose
/// checks fail.
///
/// A custom body runs on the main actor, as Relativity's does, so it may capture and change
/// the state of the main-actor code that set it (a test's local `var`, as Relativity's own
/// tests do). A check made on the main thread calls it directly; a check made on another
/// thread waits while the main queue runs it (`DispatchQueue.main.sync`). So a program whose
/// main thread blocks, waiting for layout that runs on another thread, must not set a custom
/// body: that wait would never end. The default body runs on the thread of the check.
public final class ErrorHandler {
    /// The signature of a custom assertion body: the condition, its message, and where it
    /// was checked. It runs on the main actor.
    public typealias AssertBody = @MainActor (_ condition: Bool, _ message: String, _ file: StaticString, _ line: UInt) -> Void

    /// The custom body, if any.
    private static let custom = Mutex<AssertBody?>(nil)
    /// Whether a custom body is set: read without the lock by checks that hold.
    private static let isCustomized = Atomic<Bool>(false)

    /// The body that replaces ``defaultAssertBody``, or `nil` for the default.
    ///
    /// - Complexity: O(1)
    public static var customAssertBody: AssertBody? {
        get { custom.withLock { $0 } }
        set {
            let replaced = custom.withLock { body in
                let old = body
                body = newValue
                isCustomized.store(newValue != nil, ordering: .releasing)
                return old
            }
            // The replaced body is released here, outside the lock: releasing what it captured
            // may run code that makes a check, which takes the lock.
            _ = replaced
        }
    }

    /// The default body: `assertionFailure` when the condition is false (it traps in debug
    /// builds and does nothing in release builds).
    ///
    /// - Complexity: O(1)
    public static let defaultAssertBody: @Sendable (_ condition: Bool, _ message: String, _ file: StaticString, _ line: UInt) -> Void = { condition, message, file, line in
        guard !condition else { return }
        Swift.assertionFailure(message, file: file, line: line)
    }

    /// Checks `condition` through the body in force: the custom body is called whatever the
    /// condition; the default one only matters when it is false. The message is made only
    /// when a body is called.
    ///
    /// - Complexity: O(1), plus the body's cost.
    @inlinable
    public static func assert(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
        guard !condition || hasCustomBody else { return }
        report(condition, message(), file: file, line: line)
    }

    /// Reports a misuse through the body in force.
    ///
    /// - Complexity: O(1), plus the body's cost.
    public static func assertionFailure(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
        assert(false, message(), file: file, line: line)
    }

    /// Whether a custom body is set (one atomic load).
    @usableFromInline
    static var hasCustomBody: Bool { isCustomized.load(ordering: .acquiring) }

    @usableFromInline @inline(never)
    static func report(_ condition: Bool, _ message: String, file: StaticString, line: UInt) {
        // The body is called outside the lock, so that it may itself set the body.
        guard let body = custom.withLock({ $0 }) else {
            defaultAssertBody(condition, message, file, line)
            return
        }
        if Thread.isMainThread {
            MainActor.assumeIsolated { body(condition, message, file, line) }
        } else {
            DispatchQueue.main.sync {
                MainActor.assumeIsolated { body(condition, message, file, line) }
            }
        }
    }
}
