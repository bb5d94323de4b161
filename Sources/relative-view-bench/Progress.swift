import Foundation

/// Progress on standard error: rewritten in place on a terminal, plain lines otherwise.
/// Results go to standard output only.
struct Progress {
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let total: Int
    private var step = 0
    /// Writes nothing (the naive worker, whose parent reports progress).
    private let quiet: Bool

    init(total: Int, quiet: Bool = false) {
        self.total = total
        self.quiet = quiet
    }

    mutating func advance(_ what: String) {
        step += 1
        if quiet { return }
        let line = "[\(step)/\(total)] \(what)"
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
