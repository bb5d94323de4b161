/// The hook through which layout reports misuse: aligning a view that has no superview to a
/// superview anchor, measuring from a position off the pixel grid, distributing views that
/// are not subviews, and the like. The layout call then does the least surprising thing
/// (usually nothing) and returns.
///
/// By default a misuse fails loudly in debug builds (`assertionFailure`, which traps) and is
/// ignored in release builds. Replace the body for the current task, as a test does to observe
/// the calls, or as a program does for its whole run from `main`:
///
/// ```swift
/// ErrorHandler.$customAssertBody.withValue({ condition, message, _, _ in
///     if !condition { log(message) }
/// }) {
///     a.top --> .top
/// }
/// ```
///
/// It is a task-local value rather than a global variable, so there is no shared mutable
/// state, and tests that run in parallel each see their own.
public enum ErrorHandler {
    /// The signature of an assertion body: the condition, its message, and where it was checked.
    public typealias AssertBody = @Sendable (_ condition: Bool, _ message: String, _ file: StaticString, _ line: UInt) -> Void

    /// The body that replaces ``defaultAssertBody`` for the current task, or `nil`.
    ///
    /// - Complexity: O(1)
    @TaskLocal public static var customAssertBody: AssertBody?

    /// The default body: `assertionFailure` when the condition is false (it traps in debug
    /// builds and does nothing in release builds).
    ///
    /// - Complexity: O(1)
    public static let defaultAssertBody: AssertBody = { condition, message, file, line in
        guard !condition else { return }
        Swift.assertionFailure(message, file: file, line: line)
    }

    /// Checks `condition`: when it is false, calls the body in force with the message
    /// (a true condition costs nothing, and calls no body).
    ///
    /// - Complexity: O(1), plus the body's cost.
    @inlinable
    public static func assert(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) {
        guard !condition else { return }
        report(message(), file: file, line: line)
    }

    @usableFromInline @inline(never)
    static func report(_ message: String, file: StaticString, line: UInt) {
        (customAssertBody ?? defaultAssertBody)(false, message, file, line)
    }

    /// Reports a misuse through the body in force.
    ///
    /// - Complexity: O(1), plus the body's cost.
    public static func assertionFailure(_ message: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) {
        assert(false, message(), file: file, line: line)
    }
}
