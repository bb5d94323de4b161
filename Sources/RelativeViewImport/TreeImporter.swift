import RelativeViewCore

/// Imports a tree that nobody generated (an XML, HTML or JSON document, or a directory)
/// into a `ViewTree` with its index ready, streaming it into a `ViewTreeBuilder`.
///
/// ```swift
/// let tree = try TreeImporter().importTree(contentsOf: "/usr/share/mime/packages/freedesktop.org.xml")
/// let root = tree.documentElement!
/// tree.group(.descendants, of: root, keyingTypes: [TypeRegistry.shared.typeID(named: "glob"): "glob"])
/// ```
///
/// Bad input never traps: every failure is an ``ImportError`` naming the file, and the
/// line and column where the reader knows them.
public struct TreeImporter: Sendable {
    /// The registry that the imported type names are registered in: the process's one.
    let registry = TypeRegistry.shared

    /// What an import keeps of a document: all of it (the default), or its skeleton.
    ///
    /// - Complexity: O(1)
    public let content: ImportContent

    /// An importer registering type names in the process's registry (`TypeRegistry.shared`)
    /// and keeping `content` of each document.
    ///
    /// - Complexity: O(1)
    public init(content: ImportContent = .whole) {
        self.content = content
    }

    /// The tree at `path`, read as `format`, or as ``ImportFormat/detect(path:)`` says.
    ///
    /// A document file is read twice: a first pass counts an upper bound on its nodes (at
    /// memory speed), so that the tree's columns are allocated once, at their size, and
    /// never copied while they grow; the second pass parses it.
    ///
    /// - Parameters:
    ///   - path: the document or directory, or a pipe (a FIFO, `/dev/stdin` piped in), which
    ///     is read once, to its end, and parsed from memory. A device or a socket is an error.
    ///   - format: how to read it; `nil` to tell from the path and the first bytes.
    ///   - progress: called as the document is parsed (every 1 MiB for JSON, every 64 KiB
    ///     for markup, and for a whole XML import scanned on a thread of its own as each piece
    ///     of it is built, about every megabyte; not for a directory) with the bytes parsed so far and the file's
    ///     size (`nil` if it has none, as a pipe).
    /// - Throws: ``ImportError`` if the format cannot be told, the input cannot be read,
    ///   is malformed (XML, JSON), or holds no node.
    /// - Complexity: O(size of the input)
    public func importTree(
        contentsOf path: String, format: ImportFormat? = nil,
        progress: (_ bytesRead: Int, _ totalBytes: Int?) -> Void = { _, _ in }
    ) throws(ImportError) -> ViewTree {
        if format != .directory, try _FileReader.kind(of: path) == .stream {
            // A pipe can be read once: to its end, then parsed from memory.
            let bytes = try _FileReader(path: path).readToEnd { progress($0, nil) }
            guard let format = format ?? ImportFormat.detect(prefix: bytes.prefix(512)) else {
                throw ImportError(path: path, message: "cannot tell the format of a pipe from its first bytes (not '<', '{' or '['); give it explicitly")
            }
            return try importTree(bytes, format: format, path: path)
        }
        guard let format = format ?? ImportFormat.detect(path: path) else {
            throw ImportError(path: path, message: "cannot tell the format (not a directory, no known extension, and the first bytes are not '<', '{' or '['); give it explicitly")
        }
        var builder: ViewTreeBuilder
        switch format {
        case .xml, .html:
            let (bound, size) = try Self.nodeBound(path, content == .whole ? MarkupTreeReader.wholeNodeBound(of:) : MarkupTreeReader.nodeBound(of:))
            builder = ViewTreeBuilder(minimumCapacity: bound)
            if content == .whole, let size { builder.reserveContentBytes(size) }
            try MarkupTreeReader(content: content).read(
                contentsOf: path, dialect: format == .xml ? .xml : .html, into: &builder, progress: { progress($0, size) })
        case .json:
            let (bound, size) = try Self.nodeBound(path, JSONTreeReader.nodeBound(of:))
            builder = ViewTreeBuilder(minimumCapacity: bound)
            if content == .whole, let size { builder.reserveContentBytes(size) }
            try JSONTreeReader(content: content).read(contentsOf: path, into: &builder, progress: { progress($0, size) })
        case .directory:
            builder = ViewTreeBuilder()
            try DirectoryTreeReader().read(contentsOf: path, into: &builder)
        }
        return try finish(builder, path: path)
    }

    /// The tree of the document in `bytes`, read as `format` (not ``ImportFormat/directory``);
    /// `path` names the document in errors.
    ///
    /// - Throws: ``ImportError`` if the document is malformed (XML, JSON) or holds no node.
    /// - Complexity: O(bytes.count)
    public func importTree(_ bytes: [UInt8], format: ImportFormat, path: String = "<input>") throws(ImportError) -> ViewTree {
        var builder: ViewTreeBuilder
        switch format {
        case .xml, .html:
            builder = ViewTreeBuilder(minimumCapacity: bytes.withUnsafeBufferPointer(content == .whole ? MarkupTreeReader.wholeNodeBound(of:) : MarkupTreeReader.nodeBound(of:)))
            try MarkupTreeReader(content: content).read(bytes, path: path, dialect: format == .xml ? .xml : .html, into: &builder)
        case .json:
            builder = ViewTreeBuilder(minimumCapacity: bytes.withUnsafeBufferPointer(JSONTreeReader.nodeBound(of:)))
            try JSONTreeReader(content: content).read(bytes, path: path, into: &builder)
        case .directory: preconditionFailure("a directory tree is read from the file system: use importTree(contentsOf:format:)")
        }
        return try finish(builder, path: path)
    }

    /// An upper bound on the nodes of the document at `path`, by a first pass of `bound`
    /// over its bytes, and the file's size; no bound (0) for a file that cannot be read
    /// twice (a pipe), which the parse then reports on if it cannot be read at all.
    private static func nodeBound(_ path: String, _ bound: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Int) throws(ImportError) -> (Int, Int?) {
        let file = try _FileReader(path: path)
        guard let size = file.size else { return (0, nil) }
        return (try file.sum(bound), size)
    }

    private func finish(_ builder: consuming ViewTreeBuilder, path: String) throws(ImportError) -> ViewTree {
        if builder.count == 0 { throw ImportError(path: path, message: "the input holds no element or value") }
        return builder.finish()
    }
}
