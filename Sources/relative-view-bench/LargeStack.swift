import Foundation

/// The stack size of the thread the benchmark runs on: address space reserved, touched only
/// as deep recursion needs it.
let largeStackBytes = 4 << 30

/// Runs `body` on a new thread with a ``largeStackBytes`` stack and waits for it.
func onLargeStack(_ body: @escaping @Sendable () throws -> Void) throws {
    // Written by the thread before it signals, read after the wait: never at the same time.
    final class Outcome: @unchecked Sendable {
        var error: (any Error)?
    }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do { try body() } catch { outcome.error = error }
        done.signal()
    }
    thread.stackSize = largeStackBytes
    thread.start()
    done.wait()
    if let error = outcome.error { throw error }
}
