/// Why a snapshot could not be read or written: the byte offset in the file where the
/// problem was found, and what it is.
///
/// Loading treats a snapshot as untrusted input: any defect (truncation, a flipped bit, a
/// wrong version or byte order, counts that do not match the length, links that do not
/// make a tree) is one of these, never a trap, and no tree is handed back.
public struct SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, when the snapshot came from one.
    public var path: String?
    /// The byte offset in the snapshot where the problem lies (for I/O failures, 0).
    public var offset: Int
    /// What is wrong, in words.
    public var reason: String

    /// An error at `offset` of the snapshot at `path`.
    ///
    /// - Complexity: O(1)
    public init(path: String? = nil, offset: Int, reason: String) {
        self.path = path
        self.offset = offset
        self.reason = reason
    }

    /// `path: byte offset: reason` (`snapshot` stands for the path of bytes in memory).
    ///
    /// - Complexity: O(length of the text)
    public var description: String {
        "\(path ?? "snapshot"): byte \(offset): \(reason)"
    }
}
