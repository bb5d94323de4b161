/// Why a document or directory could not be imported: what was wrong and where.
///
/// Imports never trap on bad input; they throw this, naming the file and, where the
/// reader knows it, the line and column (both counted from 1).
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or directory the error is about (for a directory tree, the entry that failed).
    ///
    /// - Complexity: O(1)
    public var path: String
    /// The line of the error, counted from 1, where known.
    ///
    /// - Complexity: O(1)
    public var line: Int?
    /// The column of the error, counted from 1 in bytes, where known.
    ///
    /// - Complexity: O(1)
    public var column: Int?
    /// What was wrong, without the position.
    ///
    /// - Complexity: O(1)
    public var message: String

    /// An error about `path`, at `line` and `column` where known.
    ///
    /// - Complexity: O(1)
    public init(path: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `path:line:column: message`, the form compilers use, with the parts that are known.
    ///
    /// - Complexity: O(length of the message)
    public var description: String {
        var position = path
        if let line {
            position += ":\(line)"
            if let column { position += ":\(column)" }
        }
        return "\(position): \(message)"
    }
}
