import Foundation

/// `--input` that is not a file or a directory. A pipe (a FIFO, or standard input piped in,
/// given as `-` or `/dev/stdin`) is read once, to its end, into a file of the run's scratch
/// directory, which every later step reads as a regular file: the format is told from its
/// first bytes, and the naive worker reads the same bytes. Reading a pipe twice would hang
/// (the second open waits for a writer that is gone) or lose what the first read took. A
/// terminal, another device or a socket is refused with a message.
enum StreamInput {
    /// `-` means standard input.
    static func path(of input: String) -> String { input == "-" ? "/dev/stdin" : input }

    /// How reports name `input`.
    static func name(of input: String) -> String { input == "-" ? "standard input" : input }

    /// The file to read in place of `input`: a copy of the stream in `scratch`, or `input`
    /// itself (`/dev/stdin` for `-`) when it is a regular file or a directory, or cannot be
    /// looked at (the import then says why).
    static func resolve(_ input: String, scratch: ScratchDirectory, progress: Progress) throws(BenchError) -> String {
        let path = path(of: input)
        var info = stat()
        guard stat(path, &info) == 0 else { return path }
        switch info.st_mode & S_IFMT {
        case S_IFIFO:
            return try spool(path, name: name(of: input), to: scratch.file("input"), progress: progress)
        case S_IFCHR:
            throw BenchError(input == "-" || isatty(STDIN_FILENO) != 0 && path == "/dev/stdin"
                ? "--input \(input): standard input is a terminal, not a document: pipe one in (cat doc.xml | relative-view-bench --input -) or give a file"
                : "--input \(input): is a character device, not a file, a pipe or a directory")
        case S_IFBLK:
            throw BenchError("--input \(input): is a block device, not a file, a pipe or a directory")
        case S_IFSOCK:
            throw BenchError("--input \(input): is a socket, not a file, a pipe or a directory")
        default:
            return path
        }
    }

    /// Copies the pipe at `path` to the file `copy`, to the pipe's end; notes progress
    /// every half second once it has taken a second (a pipe has no size to give a share of).
    private static func spool(_ path: String, name: String, to copy: String, progress: Progress) throws(BenchError) -> String {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw BenchError("--input \(name): cannot open: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw BenchError("cannot create \(copy) for a copy of \(name): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        let clock = ContinuousClock()
        let start = clock.now
        var lastNote = start
        var total = 0
        while true {
            let n = read(input, chunk.baseAddress, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw BenchError("--input \(name): cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = write(output, chunk.baseAddress! + written, n - written)
                if w < 0 {
                    if errno == EINTR { continue }
                    throw BenchError("cannot write the copy of \(name) to \(copy): \(String(cString: strerror(errno)))")
                }
                written += w
            }
            total += n
            let now = clock.now
            if now - start > .seconds(1) && now - lastNote > .milliseconds(500) {
                lastNote = now
                progress.note("reading \(name): \(megabytes(total)) so far")
            }
        }
        return copy
    }
}

