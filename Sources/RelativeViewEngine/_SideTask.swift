#if canImport(Glibc)
import Glibc
#endif
import CColumnMemory

/// A computation run on a thread of its own while the caller does other work, then waited
/// for: how a snapshot load checks its checksum while it reads the tree. On one CPU, or
/// off Linux, no thread is started and ``wait()`` runs the computation itself.
///
/// The result is written by the thread before it ends and read only after
/// `pthread_join` returns, which orders the two.
package final class _SideTask<Result: Sendable> {
    /// What the thread runs and where it leaves the result: read by the caller only after
    /// the join (or with no thread at all), hence `@unchecked Sendable`.
    private final class Job: _SideJob, @unchecked Sendable {
        package let body: @Sendable () -> Result
        package var result: Result?

        package init(_ body: @escaping @Sendable () -> Result) {
            self.body = body
        }

        package override func run() {
            result = body()
        }
    }

    private let job: Job
    #if os(Linux)
    private var thread: pthread_t?
    #endif

    /// Starts `body` on a thread of its own if this process may use more than one CPU (its
    /// affinity mask and its cgroup's CPU quota: `taskset -c 0` or `docker --cpus 1` leave
    /// one) and `worthIt` (a small job costs less than a thread); else it runs in ``wait()``.
    package init(worthIt: Bool = true, _ body: @escaping @Sendable () -> Result) {
        job = Job(body)
        #if os(Linux)
        thread = nil
        guard worthIt, rv_usable_processors() > 1 else { return }
        var t = pthread_t()
        let context = Unmanaged<_SideJob>.passRetained(job).toOpaque()
        let started = pthread_create(&t, nil, _SideJob.start, context)
        if started == 0 { (thread, hasThread) = (t, true) } else { Unmanaged<_SideJob>.fromOpaque(context).release() }
        #endif
    }

    /// Whether `body` runs (or ran) on a thread of its own; else ``wait()`` runs it.
    package private(set) var hasThread = false

    /// The result: waits for the thread, or runs `body` here if none was started. Call it
    /// from the thread that made the task.
    package func wait() -> Result {
        #if os(Linux)
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
        #endif
        if let result = job.result { return result }
        job.run()
        return job.result!
    }

    deinit {
        #if os(Linux)
        // Never leave a thread running on memory the caller may free.
        if let t = thread { pthread_join(t, nil) }
        #endif
    }
}

/// The thread's entry point and what it runs, not generic: a C function pointer cannot
/// capture a generic context.
package class _SideJob: @unchecked Sendable {
    package func run() {}

    #if os(Linux)
    package static let start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        Unmanaged<_SideJob>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }
    #endif
}
