#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a scanner's bytes come from.
enum _ByteSource {
    case memory(UnsafeBufferPointer<UInt8>)
    case file(Int32, path: String)
}

/// A window on a document's bytes for the importers' scanners: a buffer that holds the
/// bytes from the start of the token being scanned on, with a NUL byte after the last (a
/// sentinel that no scanning loop goes past: NUL is never valid where they look). A token
/// cut by the buffer's end is scanned again after ``refill(keep:)``; a token longer than
/// the buffer doubles it. The sentinel is the first of ``padding`` zero bytes, so a
/// scanner may look that far past the end without a check. Line and column are worked out only when an error needs them,
/// from the document itself.
struct _ByteWindow: ~Copyable {
    let source: _ByteSource
    /// Bytes read from the source so far.
    private(set) var sourceOffset = 0
    private(set) var buffer: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// Bytes in the buffer (the sentinel is at `buffer[count]`).
    private(set) var count = 0
    /// The document offset of `buffer[0]`.
    private(set) var base = 0
    /// Whether the source has no more bytes.
    private(set) var atEnd = false
    /// Why the source could not be read, if it could not (the window then ends there).
    private(set) var readError: ImportError?

    /// Zero bytes after the last byte read: the sentinel and what a scanner may peek at.
    static let padding = 16

    /// The buffer's size unless a test asks for another: 1 MiB.
    static let defaultCapacity = 1 << 20

    init(source: _ByteSource, capacity: Int = defaultCapacity) {
        self.source = source
        self.capacity = capacity
        buffer = .allocate(capacity: capacity + Self.padding)
        buffer.initialize(repeating: 0, count: Self.padding)
    }

    deinit { buffer.deallocate() }

    /// Moves the bytes from `keep` on to the front (indices into the buffer go down by
    /// `keep`, unless the document had already ended: then nothing moves) and reads more
    /// after them: false at the end of the document. `progress` gets the bytes read so far
    /// when more were.
    mutating func refill(keep: Int, progress: (Int) -> Void) -> Bool {
        if atEnd { return false }
        let kept = count - keep
        if keep > 0 { buffer.update(from: buffer + keep, count: kept) }
        base += keep
        count = kept
        if kept == capacity {
            // One token fills the buffer: make room for more of it.
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * capacity + Self.padding)
            bigger.initialize(from: buffer, count: count)
            buffer.deallocate()
            (buffer, capacity) = (bigger, 2 * capacity)
        }
        let n: Int
        switch source {
        case .memory(let memory):
            n = min(capacity - count, memory.count - sourceOffset)
            if n > 0 { (buffer + count).update(from: memory.baseAddress! + sourceOffset, count: n) }
        case .file(let fd, let path):
            do {
                n = try _FileReader.readBytes(fd, path: path, into: UnsafeMutableRawBufferPointer(start: buffer + count, count: capacity - count))
            } catch {
                readError = error
                n = 0
            }
        }
        sourceOffset += n
        count += n
        (buffer + count).update(repeating: 0, count: Self.padding)
        if n == 0 {
            atEnd = true
            return false
        }
        progress(sourceOffset)
        return true
    }

    /// The line and column (from 1; the column in bytes) of a document offset, counting
    /// the newlines before it in the document (a file is read again up to the offset).
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        func count(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
            for (j, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
                line += 1
                lineStart = start + j + 1
            }
        }
        switch source {
        case .memory(let memory):
            count(UnsafeBufferPointer(rebasing: memory[..<min(offset, memory.count)]), from: 0)
        case .file(let fd, _):
            let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
            defer { chunk.deallocate() }
            var at = 0
            while at < offset {
                let n = pread(fd, chunk.baseAddress, min(chunk.count, offset - at), off_t(at))
                if n <= 0 { break }
                count(UnsafeBufferPointer(rebasing: chunk[..<n]), from: at)
                at += n
            }
        }
        return (line, offset - lineStart + 1)
    }
}

/// What the UTF-8 sequence at an index turned out to be.
enum _UTF8Sequence {
    /// Well-formed; the index after it.
    case wellFormed(end: Int)
    /// Not well-formed; the index of the first byte that is wrong.
    case illFormed(at: Int)
    /// Cut by the end of the bytes at hand; the index where they end.
    case cut(at: Int)
}

/// The length of the well-formed two- or three-byte UTF-8 sequence at `p` (a byte from
/// 0x80 on), or 0 for anything else: a four-byte sequence, an ill-formed or a cut one, which
/// ``_utf8Sequence(in:at:count:)`` then tells apart. Reads three bytes: a cut sequence ends
/// at the sentinel's zero padding, which is no continuation byte. The scanners' fast path
/// for text past ASCII, with no call and no table.
@inline(always)
func _shortUTF8Length(_ p: UnsafePointer<UInt8>) -> Int {
    let b0 = p[0]
    let b1 = p[1]
    if b0 &- 0xC2 < 0x1E { return b1 & 0xC0 == 0x80 ? 2 : 0 }
    guard b0 & 0xF0 == 0xE0, p[2] & 0xC0 == 0x80 else { return 0 }
    // E0 takes A0...BF second (no overlong form), ED 80...9F (no surrogate).
    let low: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80
    let high: UInt8 = b0 == 0xED ? 0x9F : 0xBF
    return b1 >= low && b1 <= high ? 3 : 0
}

/// The UTF-8 sequence at `k` in `bytes` (which holds `count` bytes), a byte from 0x80 on,
/// checked as Unicode's table 3-7 has it: no overlong form, no surrogate, nothing past
/// U+10FFFF. Shared by the JSON and XML scanners, each of which says what a bad or cut
/// sequence means to it.
@inline(always)
func _utf8Sequence(in bytes: UnsafePointer<UInt8>, at k: Int, count: Int) -> _UTF8Sequence {
    let length: Int
    let second: ClosedRange<UInt8>
    switch bytes[k] {
    case 0xC2 ... 0xDF: (length, second) = (2, 0x80 ... 0xBF)
    case 0xE0: (length, second) = (3, 0xA0 ... 0xBF)
    case 0xE1 ... 0xEC, 0xEE ... 0xEF: (length, second) = (3, 0x80 ... 0xBF)
    case 0xED: (length, second) = (3, 0x80 ... 0x9F)
    case 0xF0: (length, second) = (4, 0x90 ... 0xBF)
    case 0xF1 ... 0xF3: (length, second) = (4, 0x80 ... 0xBF)
    case 0xF4: (length, second) = (4, 0x80 ... 0x8F)
    default: return .illFormed(at: k)
    }
    for n in 1 ..< length {
        if k + n >= count { return .cut(at: k + n) }
        guard (n == 1 ? second : 0x80 ... 0xBF).contains(bytes[k + n]) else { return .illFormed(at: k + n) }
    }
    return .wellFormed(end: k + length)
}
