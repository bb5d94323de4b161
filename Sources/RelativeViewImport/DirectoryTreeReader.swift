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

    /// A reader registering its four type names in the process's registry.
    ///
    /// - Complexity: O(1)
    public init() {
        let registry = TypeRegistry.shared
        directory = registry.typeID(named: "directory")
        file = registry.typeID(named: "file")
        symlink = registry.typeID(named: "symlink")
        other = registry.typeID(named: "other")
    }

    /// Reads the tree at `path` (a directory, or a single file or symlink) into `builder`.
    ///
    /// Names are handled as the bytes the file system holds, so a name that is not UTF-8
    /// is an entry like any other; errors show such a name with U+FFFD for its bad bytes.
    ///
    /// - Throws: ``ImportError`` naming the entry that could not be examined or listed,
    ///   with the system's reason.
    /// - Complexity: O(number of entries · log of the largest directory's size)
    public func read(contentsOf path: String, into builder: inout ViewTreeBuilder) throws(ImportError) {
        // Each open directory: its path and its entries still to visit, reversed, with the
        // type the directory listing gave (DT_UNKNOWN where the file system gives none).
        var stack: [(path: [UInt8], pending: [(name: [UInt8], type: UInt8)])] = []
        var next: (path: [UInt8], type: UInt8)? = (Array(path.utf8), UInt8(DT_UNKNOWN))
        while true {
            if let entry = next {
                next = nil
                let type = try kind(of: entry.path, listed: entry.type)
                builder.open(type: type)
                if type == directory {
                    stack.append((entry.path, try entries(in: entry.path).reversed()))
                } else {
                    builder.close()
                }
            }
            guard let top = stack.indices.last else { return }
            if let entry = stack[top].pending.popLast() {
                let parent = stack[top].path
                let name = entry.name
                next = (parent.last == UInt8(ascii: "/") ? parent + name : parent + [UInt8(ascii: "/")] + name, entry.type)
            } else {
                stack.removeLast()
                builder.close()
            }
        }
    }

    /// Calls `body` with `path` as a C string.
    private func withCString<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count, body)
        }
    }

    /// `path` for an error message.
    private func shown(_ path: [UInt8]) -> String { String(decoding: path, as: UTF8.self) }

    /// The type of the entry at `path`: from the directory listing's `d_type` when it gave
    /// one (no `lstat` then: what `find` does too), else from `lstat`.
    private func kind(of path: [UInt8], listed: UInt8) throws(ImportError) -> TypeID {
        switch Int32(listed) {
        case Int32(DT_DIR): return directory
        case Int32(DT_REG): return file
        case Int32(DT_LNK): return symlink
        case Int32(DT_UNKNOWN): break
        default: return other
        }
        var info = stat()
        guard withCString(path, { lstat($0, &info) }) == 0 else { throw _FileReader.systemError(shown(path), "cannot examine") }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return directory
        case S_IFREG: return file
        case S_IFLNK: return symlink
        default: return other
        }
    }

    private func entries(in path: [UInt8]) throws(ImportError) -> [(name: [UInt8], type: UInt8)] {
        guard let listing = withCString(path, { opendir($0) }) else { throw _FileReader.systemError(shown(path), "cannot list the directory") }
        defer { closedir(listing) }
        var entries: [(name: [UInt8], type: UInt8)] = []
        errno = 0
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] { entries.append((name, entry.pointee.d_type)) }
        }
        if errno != 0 { throw _FileReader.systemError(shown(path), "cannot list the directory") }
        return entries.sorted { $0.name.lexicographicallyPrecedes($1.name) }
    }
}
