import RelativeViewEngine
import RelativeViewCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read in chunks with `read(2)`, so documents of any size stream through a fixed
/// buffer. Errors name the path and the system's reason.
struct _FileReader: ~Copyable {
    let path: String
    private let fd: Int32

    init(path: String) throws(ImportError) {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw _FileReader.systemError(path, "cannot open") }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            // Not closed here: a noncopyable value whose initializer throws once it is
            // whole is destroyed, so `deinit` closes it (closing twice would close whatever
            // file another thread opened under the same number in between).
            throw ImportError(path: path, message: "is a directory, not a file")
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// The open file's descriptor, valid while the reader lives.
    var descriptor: Int32 { fd }

    /// The file's size, if the system tells (a regular file).
    var size: Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        try Self.readBytes(fd, path: path, into: buffer)
    }

    /// Reads up to `buffer.count` bytes from `fd` (the file `path`): at its current offset,
    /// or with `pread(2)` at `offset` (which leaves the descriptor's own offset, so that two
    /// threads can read one file); 0 at its end.
    static func readBytes(_ fd: Int32, path: String, into buffer: UnsafeMutableRawBufferPointer, at offset: Int? = nil) throws(ImportError) -> Int {
        while true {
            let n = if let offset { pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) } else { read(fd, buffer.baseAddress, buffer.count) }
            if n >= 0 { return n }
            if errno != EINTR { throw _FileReader.systemError(path, "cannot read") }
        }
    }

    /// The sum of `count` over the file's bytes, chunk by chunk (1 MiB): a first pass that
    /// sizes a builder. A regular file of 16 MiB or more is read in two halves at once, the
    /// second on a thread of its own (`_SideTask`; one half after the other on one CPU):
    /// copying the page cache out is most of the pass, and the second CPU is idle before
    /// the parse starts. `count` must not depend on where a chunk starts.
    func sum(_ count: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Int) throws(ImportError) -> Int {
        let end = size ?? -1
        guard end >= 16 << 20 else { return try Self.sum(fd, path: path, from: 0, to: nil, count) }
        let half = end / 2
        let (fd, path) = (self.fd, self.path)
        let side = _SideTask { () -> Result<Int, ImportError> in
            Result { () throws(ImportError) -> Int in try Self.sum(fd, path: path, from: half, to: end, count) }
        }
        let first = try Self.sum(fd, path: path, from: 0, to: half, count)
        return try first + side.wait().get()
    }

    /// The sum of `count` over the bytes of file `fd` from `from` to `to` (its end if
    /// `nil`), read at offsets (so two of them can share the descriptor).
    private static func sum(
        _ fd: Int32, path: String, from: Int, to: Int?, _ count: (UnsafeBufferPointer<UInt8>) -> Int
    ) throws(ImportError) -> Int {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        var total = 0
        var at = from
        while to.map({ at < $0 }) ?? true {
            let want = min(chunk.count, to.map { $0 - at } ?? chunk.count)
            let n = try readBytes(fd, path: path, into: UnsafeMutableRawBufferPointer(rebasing: chunk[..<want]), at: at)
            if n == 0 { break }
            total += count(UnsafeBufferPointer(start: chunk.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n))
            at += n
        }
        return total
    }

    /// Goes back to the start of the file, for a second pass.
    func rewind() throws(ImportError) {
        if lseek(fd, 0, SEEK_SET) != 0 { throw _FileReader.systemError(path, "cannot seek") }
    }

    /// The first `count` bytes (fewer if the file is shorter).
    func readPrefix(_ count: Int) throws(ImportError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        let n = try readChunk(into: buffer)
        return Array(buffer.prefix(n))
    }

    /// What `path` is, as far as reading it goes; `nil` if the system cannot say (the
    /// open that follows reports why).
    enum Kind { case file, directory, stream }

    /// Whether `path` is a regular file, a directory or a pipe (read once, to its end);
    /// a device or a socket is an error: reading one may never end, or means nothing.
    static func kind(of path: String) throws(ImportError) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFIFO: return .stream
        case S_IFCHR: throw ImportError(path: path, message: "is a character device (a terminal, or a device such as /dev/zero), not a file, a pipe or a directory")
        case S_IFBLK: throw ImportError(path: path, message: "is a block device, not a file, a pipe or a directory")
        case S_IFSOCK: throw ImportError(path: path, message: "is a socket, not a file, a pipe or a directory")
        default: return nil
        }
    }

    /// The rest of the stream, to its end, with `progress` called with the bytes read
    /// after each chunk of 1 MiB.
    func readToEnd(progress: (Int) -> Void) throws(ImportError) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = try readChunk(into: chunk)
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk.prefix(n))
            progress(bytes.count)
        }
    }

    static func systemError(_ path: String, _ what: String) -> ImportError {
        ImportError(path: path, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
