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
            close(fd)
            throw ImportError(path: path, message: "is a directory, not a file")
        }
    }

    deinit { close(fd) }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw _FileReader.systemError(path, "cannot read") }
        }
    }

    /// The first `count` bytes (fewer if the file is shorter).
    func readPrefix(_ count: Int) throws(ImportError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        let n = try readChunk(into: buffer)
        return Array(buffer.prefix(n))
    }

    /// The whole file.
    func readAll() throws(ImportError) -> [UInt8] {
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(fd, &info) == 0 { bytes.reserveCapacity(Int(info.st_size)) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n = try readChunk(into: chunk)
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk.prefix(n))
        }
    }

    static func systemError(_ path: String, _ what: String) -> ImportError {
        ImportError(path: path, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
