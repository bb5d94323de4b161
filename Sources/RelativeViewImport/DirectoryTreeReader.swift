import RelativeViewCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams a directory tree into a `ViewTreeBuilder`: the directory and every entry
/// below it become nodes, typed `directory`, `file`, `symlink` or `other` (devices,
/// sockets, FIFOs). Symlinks are nodes of their own and never followed, so a link cycle
/// cannot loop. Children are sorted by name (byte order), so the tree is the same on
/// every run. Iterative, with one open directory listing at a time; tags are 0.
public struct DirectoryTreeReader: Sendable {
    private let directory: TypeID
    private let file: TypeID
    private let symlink: TypeID
    private let other: TypeID

    /// A reader registering its four type names in `registry`.
    ///
    /// - Complexity: O(1)
    public init(registry: TypeRegistry = .shared) {
        directory = registry.typeID(named: "directory")
        file = registry.typeID(named: "file")
        symlink = registry.typeID(named: "symlink")
        other = registry.typeID(named: "other")
    }

    /// Reads the tree at `path` (a directory, or a single file or symlink) into `builder`.
    ///
    /// - Throws: ``ImportError`` naming the entry that could not be examined or listed,
    ///   with the system's reason.
    /// - Complexity: O(number of entries · log of the largest directory's size)
    public func read(contentsOf path: String, into builder: inout ViewTreeBuilder) throws(ImportError) {
        // Each open directory: its path and its entries' names still to visit, reversed.
        var stack: [(path: String, pending: [String])] = []
        var next: String? = path
        while true {
            if let entry = next {
                next = nil
                let type = try kind(of: entry)
                builder.open(type: type)
                if type == directory {
                    stack.append((entry, try names(in: entry).reversed()))
                } else {
                    builder.close()
                }
            }
            guard let top = stack.indices.last else { return }
            if let name = stack[top].pending.popLast() {
                next = stack[top].path == "/" ? "/" + name : stack[top].path + "/" + name
            } else {
                stack.removeLast()
                builder.close()
            }
        }
    }

    private func kind(of path: String) throws(ImportError) -> TypeID {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw _FileReader.systemError(path, "cannot examine") }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return directory
        case S_IFREG: return file
        case S_IFLNK: return symlink
        default: return other
        }
    }

    private func names(in path: String) throws(ImportError) -> [String] {
        guard let listing = opendir(path) else { throw _FileReader.systemError(path, "cannot list the directory") }
        defer { closedir(listing) }
        var names: [String] = []
        errno = 0
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        if errno != 0 { throw _FileReader.systemError(path, "cannot list the directory") }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
