import FuzzSupport
import RelativeViewCore
import RelativeViewImport
#if canImport(Glibc)
import Glibc
#endif

// Each input: up to 32 entry names (the input split at NUL and '/', the two bytes a name
// cannot hold; ".", ".." and names over 255 bytes dropped), each made a file or (when its
// first byte is odd) a directory in a fresh directory, which is then imported. The tree
// must hold every entry once, in byte order of the names, with its kind; the walker must
// not fail on any name the file system accepted.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    checkNames(UnsafeRawBufferPointer(start: data, count: count))
    return 0
}

runFuzzer(fuzzOne)

func checkNames(_ bytes: UnsafeRawBufferPointer) {
    var names = Set<[UInt8]>()
    for part in bytes.split(whereSeparator: { $0 == 0 || $0 == UInt8(ascii: "/") }) where names.count < 32 {
        let name = Array(part)
        if name != Array(".".utf8) && name != Array("..".utf8) && name.count <= 255 { names.insert(name) }
    }
    var template = Array((FuzzScratch.root + "/names-XXXXXX").utf8CString)
    guard let temporary = mkdtemp(&template) else { fatalError("mkdtemp failed: \(errno)") }
    let dir = Array(String(cString: temporary).utf8)
    var made: [([UInt8], Bool)] = []
    for name in names {
        let path = dir + [UInt8(ascii: "/")] + name
        let isDirectory = name[0] & 1 == 1
        let ok = withCPath(path) { p in
            if isDirectory { return mkdir(p, 0o700) == 0 }
            let fd = open(p, O_CREAT | O_WRONLY | O_EXCL, 0o600)
            if fd >= 0 { close(fd) }
            return fd >= 0
        }
        if ok { made.append((name, isDirectory)) }
    }
    defer {
        for (name, isDirectory) in made {
            _ = withCPath(dir + [UInt8(ascii: "/")] + name) { isDirectory ? rmdir($0) : unlink($0) }
        }
        _ = withCPath(dir) { rmdir($0) }
    }
    let tree: ViewTree
    do {
        tree = try TreeImporter(content: .skeleton).importTree(contentsOf: String(decoding: dir, as: UTF8.self), format: .directory)
    } catch {
        fatalError("the walker failed on names \(made.map(\.0)): \(error)")
    }
    let expected = made.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map { $0.1 ? "directory" : "file" }
    let root = tree.roots[0]
    let kinds = tree.children(of: root).map { TypeRegistry.shared.name(of: tree.typeID(of: $0)) }
    guard tree.count == made.count + 1, kinds == expected else {
        fatalError("names \(made.map(\.0)): \(tree.count) nodes, kinds \(kinds), expected \(expected)")
    }
}

private func withCPath<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
    (path + [0]).withUnsafeBufferPointer { $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: $0.count, body) }
}

/// Where the harness makes its directories: memory-backed /dev/shm when there is one.
enum FuzzScratch {
    static let root: String = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
}
