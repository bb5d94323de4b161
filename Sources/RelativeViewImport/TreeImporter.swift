import RelativeViewCore

/// Imports a tree that nobody generated (an XML, HTML or JSON document, or a directory)
/// into a `ViewTree` with its index ready, streaming it into a `ViewTreeBuilder`.
///
/// ```swift
/// let tree = try TreeImporter().importTree(contentsOf: "/usr/share/mime/packages/freedesktop.org.xml")
/// let root = tree.roots[0]
/// tree.groupDescendants(of: root, keyingTypes: [TypeRegistry.shared.typeID(named: "glob"): "glob"])
/// ```
///
/// Bad input never traps: every failure is an ``ImportError`` naming the file, and the
/// line and column where the reader knows them.
public struct TreeImporter: Sendable {
    /// The registry that the imported type names are registered in.
    ///
    /// - Complexity: O(1)
    public let registry: TypeRegistry

    /// An importer registering type names in `registry`.
    ///
    /// - Complexity: O(1)
    public init(registry: TypeRegistry = .shared) {
        self.registry = registry
    }

    /// The tree at `path`, read as `format`, or as ``ImportFormat/detect(path:)`` says.
    ///
    /// - Throws: ``ImportError`` if the format cannot be told, the input cannot be read,
    ///   is malformed (XML, JSON), or holds no node.
    /// - Complexity: O(size of the input)
    public func importTree(contentsOf path: String, format: ImportFormat? = nil) throws(ImportError) -> ViewTree {
        guard let format = format ?? ImportFormat.detect(path: path) else {
            throw ImportError(path: path, message: "cannot tell the format (not a directory, no known extension, and the first bytes are not '<', '{' or '['); give it explicitly")
        }
        var builder = ViewTreeBuilder()
        switch format {
        case .xml: try MarkupTreeReader(registry: registry).read(contentsOf: path, dialect: .xml, into: &builder)
        case .html: try MarkupTreeReader(registry: registry).read(contentsOf: path, dialect: .html, into: &builder)
        case .json: try JSONTreeReader(registry: registry).read(try _FileReader(path: path).readAll(), path: path, into: &builder)
        case .directory: try DirectoryTreeReader(registry: registry).read(contentsOf: path, into: &builder)
        }
        return try finish(builder, path: path)
    }

    /// The tree of the document in `bytes`, read as `format` (not ``ImportFormat/directory``);
    /// `path` names the document in errors.
    ///
    /// - Throws: ``ImportError`` if the document is malformed (XML, JSON) or holds no node.
    /// - Complexity: O(bytes.count)
    public func importTree(_ bytes: [UInt8], format: ImportFormat, path: String = "<input>") throws(ImportError) -> ViewTree {
        var builder = ViewTreeBuilder()
        switch format {
        case .xml: try MarkupTreeReader(registry: registry).read(bytes, path: path, dialect: .xml, into: &builder)
        case .html: try MarkupTreeReader(registry: registry).read(bytes, path: path, dialect: .html, into: &builder)
        case .json: try JSONTreeReader(registry: registry).read(bytes, path: path, into: &builder)
        case .directory: preconditionFailure("a directory tree is read from the file system: use importTree(contentsOf:format:)")
        }
        return try finish(builder, path: path)
    }

    private func finish(_ builder: consuming ViewTreeBuilder, path: String) throws(ImportError) -> ViewTree {
        if builder.count == 0 { throw ImportError(path: path, message: "the input holds no element or value") }
        return builder.finish()
    }
}
