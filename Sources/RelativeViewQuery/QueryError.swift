/// Why a query could not be compiled or evaluated: where in the query (a character offset
/// from 0, in Unicode scalars), and what was wrong.
///
/// A query is data from outside (a command line, a user's input): a wrong one is an error,
/// never a trap.
public struct QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of query it was: `"XPath"`, `"CSS"`.
    ///
    /// - Complexity: O(1)
    public let language: String
    /// The offset in the query (Unicode scalars from 0) where the error was found; for an
    /// evaluation error, where the expression that failed starts.
    ///
    /// - Complexity: O(1)
    public let offset: Int
    /// What was wrong.
    ///
    /// - Complexity: O(1)
    public let message: String

    /// An error at `offset` of a `language` query.
    ///
    /// - Complexity: O(1)
    public init(language: String, offset: Int, message: String) {
        self.language = language
        self.offset = offset
        self.message = message
    }

    /// `<language> error at <offset + 1>: <message>`.
    ///
    /// - Complexity: O(message's length)
    public var description: String { "\(language) error at character \(offset + 1): \(message)" }
}
