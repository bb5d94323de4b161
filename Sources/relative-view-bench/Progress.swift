import Foundation

/// Progress on standard error: rewritten in place on a terminal, plain lines otherwise.
/// Results go to standard output only.
struct Progress {
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let total: Int
    private var step = 0
    /// Writes nothing (the naive worker, whose parent reports progress).
    private let quiet: Bool
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    init(total: Int, quiet: Bool = false) {
        self.total = total
        self.quiet = quiet
        start = clock.now
    }

    /// What is left, estimated from the time the steps so far took on average: "about
    /// 40 s left"; nothing before the first step is done. Steps differ in cost (a naive
    /// whole-tree grouping may take its whole budget), so it is a rough guide.
    private var remaining: String {
        let done = step - 1
        guard done > 0, total > step else { return "" }
        let seconds = nanoseconds(clock.now - start) / 1e9 / Double(done) * Double(total - done)
        let text = seconds < 90 ? "\(Int(seconds.rounded())) s" : seconds < 5400 ? "\(Int((seconds / 60).rounded())) min" : "\(fixed(seconds / 3600, 1)) h"
        return ", about \(text) left"
    }

    mutating func advance(_ what: String) {
        step += 1
        if quiet { return }
        let line = "[\(step)/\(total)\(remaining)] \(what)"
        if isTerminal {
            FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
        } else {
            FileHandle.standardError.write(Data("\(line)\n".utf8))
        }
    }

    func note(_ text: String) {
        if quiet { return }
        if isTerminal {
            FileHandle.standardError.write(Data("\r\u{1B}[2K\(text)".utf8))
        } else {
            FileHandle.standardError.write(Data("\(text)\n".utf8))
        }
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
