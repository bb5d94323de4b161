import Foundation
import RelativeViewCore
import RelativeViewImport

/// Removes the file at `path`, if there is one (for a file such as the README's
/// examples', which import no Foundation).
func removeFile(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// A tree written out as `name[tag](child, child)` (the tag only when it is not 0), roots
/// joined by spaces: short to compare against the expected structure.
func outline(_ tree: ViewTree) -> String {
    tree.roots.map { outline(tree, $0) }.joined(separator: " ")
}

/// Recursive: for the small trees of these tests (deep ones are checked with `depth(of:)`).
private func outline(_ tree: ViewTree, _ node: NodeID) -> String {
    var out = TypeRegistry.shared.name(of: tree.typeID(of: node))
    let tag = tree.tag(of: node)
    if tag != 0 { out += "[\(tag)]" }
    let children = tree.children(of: node).map { outline(tree, $0) }
    if !children.isEmpty { out += "(" + children.joined(separator: ",") + ")" }
    return out
}

/// Imports a document given as text.
func importing(_ text: String, as format: ImportFormat, path: String = "doc") throws(ImportError) -> ViewTree {
    try TreeImporter(content: .skeleton).importTree(Array(text.utf8), format: format, path: path)
}

/// The error importing `text` throws, or `nil` if it imports.
func importError(_ text: String, as format: ImportFormat, path: String = "doc") -> ImportError? {
    do {
        _ = try importing(text, as: format, path: path)
        return nil
    } catch {
        return error
    }
}

/// A fresh temporary directory, removed by `body`'s caller when done.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("relative-view-import-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// Whether a file exists at `path` (for tests enabled only where a system file is present).
func fileExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}
