import Foundation

/// A directory of the run's own under the system's temporary directory, for files that
/// must not outlive the run: the naive worker's error output, and a piped `--input` saved
/// so that the worker can read it too. It is removed when the run ends, and when the run is
/// interrupted (SIGINT, SIGTERM, SIGHUP): a handler removes it and exits with 128 plus the
/// signal's number, as the shell reports a process killed by that signal. A naive worker
/// dies with the run anyway (see `NaiveWorker.dieWithParent`).
final class ScratchDirectory {
    let path: String
    private let signalSources: [any DispatchSourceSignal]

    /// Signals that end a run from outside, handled so that the directory goes with it.
    static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// A new directory, and the signal handlers that remove it.
    init() throws(BenchError) {
        var template = Array((FileManager.default.temporaryDirectory.path + "/relative-view-bench.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchError("cannot create a temporary directory under \(FileManager.default.temporaryDirectory.path): \(String(cString: strerror(errno)))")
        }
        let path = String(cString: made)
        self.path = path
        signalSources = Self.endingSignals.map { signo in
            // The signal is ignored by default handling and delivered to the source instead.
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler {
                try? FileManager.default.removeItem(atPath: path)
                FileHandle.standardError.write(Data("\ninterrupted (\(String(cString: strsignal(signo)))): stopped\n".utf8))
                _exit(128 + signo)
            }
            source.resume()
            return source
        }
    }

    /// A path for a file named `name` in the directory.
    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        for source in signalSources { source.cancel() }
        for signo in Self.endingSignals { signal(signo, SIG_DFL) }
        try? FileManager.default.removeItem(atPath: path)
    }
}
