import RelativeViewCore
internal import CByteCount

/// Streams a JSON document (RFC 8259) into a `ViewTreeBuilder`: every object, array and
/// value becomes a node as it is scanned, with no document tree in between. Iterative, so
/// nesting depth is bounded only by memory.
///
/// Node types are `object`, `array`, `string`, `number`, `bool` and `null`; an object's
/// members are its children in document order, each with its member name as its
/// `NodeAttribute.key` attribute (escapes decoded; an escaped lone surrogate becomes
/// U+FFFD); tags are 0.
///
/// The document must be UTF-8, as RFC 8259 requires of JSON exchanged between systems:
/// a string or member name holding a byte sequence that is not well-formed UTF-8 (an
/// overlong form, a surrogate, a code point past U+10FFFF, a cut sequence, a stray byte)
/// is an error at that byte. A `\u` escape of a lone surrogate is accepted, as RFC 8259
/// allows (its section 8.2).
///
/// A file is read through a 1 MiB buffer, whatever its size: memory is the tree's, plus
/// the buffer (more only for a single string longer than it).
public struct JSONTreeReader: Sendable {
    private let types: [TypeID]

    /// What the reader keeps: every value's text (``ImportContent/whole``), or types and
    /// member names only.
    ///
    /// - Complexity: O(1)
    public let content: ImportContent

    /// A reader that registers its six type names in the process's registry and keeps
    /// `content`.
    ///
    /// - Complexity: O(1)
    public init(content: ImportContent = .whole) {
        types = ["object", "array", "string", "number", "bool", "null"].map(TypeRegistry.shared.typeID(named:))
        self.content = content
    }

    /// Reads the JSON document in `bytes` into `builder`, as one root and its descendants.
    ///
    /// - Parameters:
    ///   - bytes: the document, UTF-8.
    ///   - path: the name errors give for the document.
    ///   - builder: receives the nodes; on error it may hold a partial tree.
    /// - Throws: ``ImportError`` with the line and column of the first syntax error.
    /// - Complexity: O(bytes.count)
    public func read(_ bytes: [UInt8], path: String, into builder: inout ViewTreeBuilder) throws(ImportError) {
        try read(bytes, path: path, into: &builder, bufferSize: _ByteWindow.defaultCapacity)
    }

    /// ``read(_:path:into:)`` through a buffer of `bufferSize` bytes: tests give a few, so
    /// that every token is cut by the buffer's end somewhere.
    package func read(_ bytes: [UInt8], path: String, into builder: inout ViewTreeBuilder, bufferSize: Int) throws(ImportError) {
        try bytes.withUnsafeBufferPointer { (memory) throws(ImportError) in
            var scanner = _JSONScanner(source: .memory(memory), types: types, bufferSize: bufferSize, whole: content == .whole)
            try scanner.run(path: path, into: &builder)
        }
    }

    /// Reads the JSON document at `path` into `builder`, streaming it through a fixed buffer.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - builder: receives the nodes; on error it may hold a partial tree.
    ///   - progress: called after each chunk read with the bytes read so far.
    /// - Throws: ``ImportError`` naming the file, with the line and column of the first
    ///   syntax error, or the system's reason when it cannot be read.
    /// - Complexity: O(size of the file)
    public func read(
        contentsOf path: String, into builder: inout ViewTreeBuilder, progress: (_ bytesRead: Int) -> Void = { _ in }
    ) throws(ImportError) {
        let file = try _FileReader(path: path)
        var scanner = _JSONScanner(source: .file(file.descriptor, path: path), types: types, whole: content == .whole)
        try scanner.run(path: path, into: &builder, progress: progress)
        _ = file.descriptor  // the file stays open until the scan is over
    }

    /// An upper bound on the nodes of the JSON document in `bytes` (one more than its
    /// commas and opening brackets, which strings may hold too), to size a builder: O(n),
    /// several bytes per nanosecond.
    ///
    /// - Complexity: O(bytes.count)
    public static func nodeBound(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let p = bytes.baseAddress else { return 1 }
        return rv_count_bytes3(p, bytes.count, UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "{")) + 1
    }
}

/// A syntax error at a byte offset in the document.
struct _JSONSyntaxError: Error {
    var offset: Int
    var message: String
}

@inline(__always)
func _isJSONWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}

/// The scanner proper: a loop over values with an explicit stack of open containers, over
/// a buffer that holds the document's bytes from the start of the token being scanned on,
/// with a NUL byte after the last (a sentinel no scanning loop goes past: NUL is never
/// valid where they look). A token cut by the buffer's end is scanned again after a refill.
struct _JSONScanner: ~Copyable {
    private var w: _ByteWindow
    private let t: (object: TypeID, array: TypeID, string: TypeID, number: TypeID, bool: TypeID, null: TypeID)
    private var i = 0
    /// The open containers, innermost last: true for an object.
    private var stack = _RawStack<Bool>(capacity: 256)
    private var depth: Int { stack.count }
    /// The last member name scanned (escapes decoded), waiting for its value to open.
    private var key: UnsafeMutablePointer<UInt8>
    private var keyCapacity = 256
    private var keyCount = 0
    private var keyPending = false
    /// A pending member name of at most 16 bytes without escapes is not copied into `key`:
    /// it is kept as its bytes read as two little-endian words (zero past its end).
    private var keyWords: (UInt64, UInt64) = (0, 0)
    private var keyIsWords = false
    /// Whether values keep their text (see ``ImportContent``).
    private let whole: Bool
    /// The last string scanned: its bytes in the buffer, between the quotes, and whether
    /// it holds escapes; and, when it does, its text decoded as it was scanned (the first
    /// `decodedCount` bytes of `decoded`).
    private var lastString: (from: Int, to: Int, escaped: Bool) = (0, 0, false)
    private var decoded: UnsafeMutablePointer<UInt8>
    private var decodedCapacity = 256
    private var decodedCount = 0

    init(source: _ByteSource, types: [TypeID], bufferSize: Int = _ByteWindow.defaultCapacity, whole: Bool = false) {
        w = _ByteWindow(source: source, capacity: bufferSize)
        t = (types[0], types[1], types[2], types[3], types[4], types[5])
        key = .allocate(capacity: keyCapacity)
        decoded = .allocate(capacity: decodedCapacity)
        self.whole = whole
    }

    deinit {
        key.deallocate()
        decoded.deallocate()
    }

    /// Scans the whole document into `builder`, or throws the first error with its position.
    mutating func run(path: String, into builder: inout ViewTreeBuilder, progress: (Int) -> Void = { _ in }) throws(ImportError) {
        do {
            try scanDocument(into: &builder, progress: progress)
        } catch {
            if let readError = w.readError { throw readError }
            let (line, column) = w.lineAndColumn(of: error.offset)
            throw ImportError(path: path, line: line, column: column, message: error.message)
        }
        if let readError = w.readError { throw readError }
    }

    /// Refills the window keeping the bytes from `keep` on (`i` follows them): false at
    /// the end of the document.
    private mutating func refill(keep: Int, progress: (Int) -> Void = { _ in }) -> Bool {
        // `i` is not handed over as `inout`: that kept it in memory in every scanning loop.
        guard !w.atEnd else { return false }
        i -= keep
        return w.refill(keep: keep, progress: progress)
    }

    /// The buffer, its byte count and the document offset of its first byte.
    private var buffer: UnsafeMutablePointer<UInt8> { w.buffer }
    private var count: Int { w.count }
    private var base: Int { w.base }
    private var atEnd: Bool { w.atEnd }

    private mutating func scanDocument(into builder: inout ViewTreeBuilder, progress: (Int) -> Void) throws(_JSONSyntaxError) {
        _ = refill(keep: 0, progress: progress)
        while count < 3 && refill(keep: 0) {}
        if count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { i = 3 }
        skipWhitespace(progress)
        if i == count { throw _JSONSyntaxError(offset: base + i, message: "empty document: expected a JSON value") }
        value: while true {
            // A value is expected at `i`.
            skipWhitespace(progress)
            guard i < count else { throw endOfInput("a value") }
            let c = buffer[i]
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let object = c == UInt8(ascii: "{")
                open(object ? t.object : t.array, &builder)
                stack.push(object)
                i += 1
                skipWhitespace(progress)
                if i < count && buffer[i] == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    stack.pop()
                    builder.close()
                } else {
                    if object { try scanMemberName(progress) }
                    continue value
                }
            case UInt8(ascii: "\""):
                // A string of printable ASCII (but `"` and `\`) closed in the buffer is
                // skipped here; anything else takes the general scan.
                let j = endOfPlainRun(from: i &+ 1)
                if buffer[j] == UInt8(ascii: "\"") {
                    lastString = (i &+ 1, j, false)
                    i = j &+ 1
                } else {
                    while try !scanString(asKey: false) { _ = refill(keep: i, progress: progress) }
                }
                leaf(t.string, &builder)
                if whole { giveStringValue(&builder) }
            case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
                // An integer without sign, fraction or exponent, ended in the buffer by a
                // byte that cannot continue a number, is taken here; anything else (and
                // every error) takes the general scan.
                let j = endOfDigits(from: i)
                let next = buffer[j]
                let start = base &+ i  // a document offset: a refill moves the bytes
                if c != UInt8(ascii: "-") && (c != UInt8(ascii: "0") || j == i &+ 1) && j < count
                    && next != UInt8(ascii: ".") && next != UInt8(ascii: "e") && next != UInt8(ascii: "E") {
                    i = j
                } else {
                    while try !scanNumber() { _ = refill(keep: i, progress: progress) }
                }
                leaf(t.number, &builder)
                if whole {
                    // As written (a refill keeps the number's bytes, from its start on).
                    let length = base &+ i &- start
                    builder.setValue(utf8: UnsafeBufferPointer(start: buffer + i - length, count: length))
                }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                while count - i < 5 && refill(keep: i, progress: progress) {}
                if count - i >= 4 && word(at: i) == Self.trueWord {
                    i += 4
                    leaf(t.bool, &builder)
                    if whole { builder.setValue(utf8: UnsafeBufferPointer(start: buffer + i - 4, count: 4)) }
                } else if count - i >= 5 && c == UInt8(ascii: "f") && word(at: i + 1) == Self.alseWord {
                    i += 5
                    leaf(t.bool, &builder)
                    if whole { builder.setValue(utf8: UnsafeBufferPointer(start: buffer + i - 5, count: 5)) }
                } else if count - i >= 4 && word(at: i) == Self.nullWord {
                    i += 4
                    leaf(t.null, &builder)
                } else {
                    let word = c == UInt8(ascii: "t") ? "true" : c == UInt8(ascii: "f") ? "false" : "null"
                    throw unexpected("a value ('\(word)'?)")
                }
            default:
                throw unexpected("a value")
            }
            // After a value: a separator, the end of containers, or the end of the document.
            while depth > 0 {
                let object = stack.top
                skipWhitespace(progress)
                guard i < count else { throw endOfInput(object ? "',' or '}'" : "',' or ']'") }
                let byte = buffer[i]
                if byte == UInt8(ascii: ",") {
                    i += 1
                    if object {
                        skipWhitespace(progress)
                        try scanMemberName(progress)
                    }
                    continue value
                }
                guard byte == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw unexpected(object ? "',' or '}' after an object member" : "',' or ']' after an array element")
                }
                i += 1
                stack.pop()
                builder.close()
            }
            skipWhitespace(progress)
            if i < count { throw unexpected("the end of the document after the top-level value") }
            return
        }
    }

    /// Opens a node of `type`, giving it the pending member name.
    @inline(__always)
    private mutating func open(_ type: TypeID, _ builder: inout ViewTreeBuilder) {
        builder.open(type: type)
        if keyPending { giveKey(&builder) }
    }

    /// A value that is not a container: opened and closed at once.
    @inline(__always)
    private mutating func leaf(_ type: TypeID, _ builder: inout ViewTreeBuilder) {
        builder.appendLeaf(type: type)
        if keyPending { giveKey(&builder) }
    }

    /// Gives the node opened last the pending member name.
    private mutating func giveKey(_ builder: inout ViewTreeBuilder) {
        if keyIsWords {
            builder.setAttribute(.key, words: keyWords, count: keyCount)
        } else {
            builder.setAttribute(.key, utf8: UnsafeBufferPointer(start: key, count: keyCount))
        }
        keyPending = false
    }

    /// "true", "alse" (of "false", after its "f") and "null" as little-endian words.
    private static let trueWord: UInt32 = 0x6575_7274
    private static let alseWord: UInt32 = 0x6573_6C61
    private static let nullWord: UInt32 = 0x6C6C_756E

    /// The four bytes at `j` (all in the buffer) as a little-endian word.
    @inline(__always)
    private func word(at j: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(buffer + j).loadUnaligned(as: UInt32.self))
    }

    @inline(__always)
    private mutating func skipWhitespace(_ progress: (Int) -> Void) {
        while true {
            while _isJSONWhitespace(buffer[i]) { i += 1 }
            // Stopped at a byte that is not whitespace, or at the sentinel.
            if i < count || !refill(keep: i, progress: progress) { return }
        }
    }

    /// `"name"` then `:`, leaving `i` where the member's value starts and the name pending.
    @inline(__always)
    private mutating func scanMemberName(_ progress: (Int) -> Void) throws(_JSONSyntaxError) {
        guard i < count else { throw endOfInput("a member name (a string)") }
        guard buffer[i] == UInt8(ascii: "\"") else { throw unexpected("a member name (a string)") }
        // Most names are short and plain: read as two words here, without the general
        // scan and its copy (about 90 fewer instructions per member, callgrind).
        if !takeShortPlainKey() {
            while try !scanString(asKey: true) { _ = refill(keep: i, progress: progress) }
        }
        keyPending = true
        skipWhitespace(progress)
        guard i < count else { throw endOfInput("':'") }
        guard buffer[i] == UInt8(ascii: ":") else { throw unexpected("':' after a member name") }
        i += 1
    }

    /// The first index from `j` (at most `count`) whose byte does not stand for itself in a
    /// string: `"`, `\`, a control byte, a byte from 0x80 (UTF-8 to check), or the
    /// sentinel. Eight bytes at a time, so that the end of a short string costs no branch
    /// that the length of the string decides (most of them are mispredicted, byte by byte).
    @inline(__always)
    private func endOfPlainRun(from j: Int) -> Int {
        var j = j
        while true {
            // At most 8 bytes past `j` <= `count`: in the buffer or its zero padding (a zero
            // byte is a control byte, so the run never goes past the sentinel).
            let w = UInt64(littleEndian: UnsafeRawPointer(buffer + j).loadUnaligned(as: UInt64.self))
            let stops = _SWAR.bytesLess(than: 0x20, in: w) | _SWAR.bytesEqual(to: 0x22, in: w)
                | _SWAR.bytesEqual(to: 0x5C, in: w) | (w & _SWAR.high)
            if stops != 0 { return j &+ stops.trailingZeroBitCount &>> 3 }
            j &+= 8
        }
    }

    /// The first index from `j` (at most `count`) whose byte is not an ASCII digit, eight
    /// bytes at a time (see ``endOfPlainRun(from:)``).
    @inline(__always)
    private func endOfDigits(from j: Int) -> Int {
        var j = j
        while true {
            let w = UInt64(littleEndian: UnsafeRawPointer(buffer + j).loadUnaligned(as: UInt64.self))
            let stops = _SWAR.bytesNotDigits(in: w)
            if stops != 0 { return j &+ stops.trailingZeroBitCount &>> 3 }
            j &+= 8
        }
    }

    /// If the string at `i` (its opening quote) is at most 16 bytes of printable ASCII but
    /// `"` and `\`, closed in the buffer: makes it the pending key as two words, moves past
    /// it and returns true. Else false, with nothing changed (the general scan takes it).
    @inline(__always)
    private mutating func takeShortPlainKey() -> Bool {
        let from = i &+ 1
        let j = endOfPlainRun(from: from)
        let length = j &- from
        guard buffer[j] == UInt8(ascii: "\""), length <= 16 else { return false }
        keyWords = Self.words(at: buffer + from, length: length)
        keyCount = length
        keyIsWords = true
        i = j &+ 1
        return true
    }

    /// The `length` (at most 16) bytes at `p` as two little-endian words, zero past the
    /// end. Reads 16 bytes: the caller knows they are in the buffer or its padding.
    @inline(__always)
    private static func words(at p: UnsafePointer<UInt8>, length: Int) -> (UInt64, UInt64) {
        let low = _SWAR.prefixWord(p, length: length)
        return length <= 8 ? (low, 0) : (low, _SWAR.prefixWord(p + 8, length: length &- 8))
    }

    /// Scans the string at `i` (its opening quote) and moves past it; as a key, decodes it
    /// into `key`. False, with `i` unchanged, if the buffer ends inside it and more of the
    /// document may follow.
    private mutating func scanString(asKey: Bool) throws(_JSONSyntaxError) -> Bool {
        let start = i
        var j = i + 1
        var escaped = false
        // Once an escape is met, the string is decoded as it is checked, in one pass: the
        // text so far is in `decoded` (`n` bytes), the plain run from `run` on not yet.
        var n = 0
        var run = j
        while true {
            j = endOfPlainRun(from: j)
            let byte = buffer[j]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                // Room for a surrogate pair's two escapes (the window's padding is read
                // past the end of the document, and holds no escape).
                if j + 12 > count && !atEnd { return false }
                let piece = j - run
                if n + piece + 16 > decodedCapacity { growDecoded(to: n + piece + 16, keeping: n) }
                if piece <= 16 {
                    // A short run as two words, no call (16 bytes from `run` are in the
                    // buffer or its padding; `decoded` has the room).
                    let from = UnsafeRawPointer(buffer + run)
                    let to = UnsafeMutableRawPointer(decoded + n)
                    to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                } else {
                    (decoded + n).update(from: buffer + run, count: piece)
                }
                n += piece
                escaped = true
                let e = buffer[j + 1]
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                    decoded[n] = e
                    n += 1
                    j += 2
                case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    decoded[n] = switch e {
                    case UInt8(ascii: "b"): 0x08
                    case UInt8(ascii: "f"): 0x0C
                    case UInt8(ascii: "n"): 0x0A
                    case UInt8(ascii: "r"): 0x0D
                    default: 0x09
                    }
                    n += 1
                    j += 2
                case UInt8(ascii: "u"):
                    for k in 2 ... 5 where !buffer[j + k].isHexDigit {
                        throw _JSONSyntaxError(offset: base + j, message: "invalid \\u escape: expected four hexadecimal digits")
                    }
                    var unit = hex4(at: j + 2)
                    j += 6
                    // A high surrogate and a low one escaped next to it are one character;
                    // a surrogate alone is U+FFFD. (The second escape's digits are checked
                    // here before they are used; if they are not digits, the next turn
                    // reports it.)
                    if (0xD800 ..< 0xDC00).contains(unit) && buffer[j] == UInt8(ascii: "\\") && buffer[j + 1] == UInt8(ascii: "u")
                        && (2 ... 5).allSatisfy({ buffer[j + $0].isHexDigit }) {
                        let low = hex4(at: j + 2)
                        if (0xDC00 ..< 0xE000).contains(low) {
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            j += 6
                        }
                    }
                    n += _putUTF8(Unicode.Scalar(unit)?.value ?? 0xFFFD, at: decoded + n)
                default:
                    if j + 1 == count { throw _JSONSyntaxError(offset: base + start, message: "unterminated string") }
                    throw _JSONSyntaxError(offset: base + j, message: "invalid escape '\\\(Unicode.Scalar(buffer[j + 1]))' in a string")
                }
                run = j
            } else if byte >= 0x80 {
                if j + 4 > count && !atEnd { return false }
                j = try endOfUTF8Sequence(at: j)
            } else if j == count {
                if !atEnd { return false }
                throw _JSONSyntaxError(offset: base + start, message: "unterminated string")
            } else {
                throw _JSONSyntaxError(offset: base + j, message: "unescaped control character (0x\(String(byte, radix: 16))) in a string")
            }
        }
        if escaped {
            let piece = j - run
            if n + piece > decodedCapacity { growDecoded(to: n + piece, keeping: n) }
            (decoded + n).update(from: buffer + run, count: piece)
            n += piece
        }
        decodedCount = n
        if asKey { setKey(from: start + 1, to: j, escaped: escaped) } else { lastString = (start + 1, j, escaped) }
        i = j + 1
        return true
    }

    /// Makes room for `capacity` decoded bytes, keeping the first `n`.
    @inline(never)
    private mutating func growDecoded(to capacity: Int, keeping n: Int) {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(2 * decodedCapacity, capacity))
        bigger.update(from: decoded, count: n)
        decoded.deallocate()
        (decoded, decodedCapacity) = (bigger, max(2 * decodedCapacity, capacity))
    }

    /// Gives the node made last the value of the string scanned last, escapes decoded.
    private mutating func giveStringValue(_ builder: inout ViewTreeBuilder) {
        let (from, to, escaped) = lastString
        guard escaped else { return builder.setValue(utf8: UnsafeBufferPointer(start: buffer + from, count: to - from)) }
        builder.setValue(utf8: UnsafeBufferPointer(start: decoded, count: decodedCount))
    }

    /// Copies the member name in `buffer[from ..< to]` into `key`, decoding its escapes, or
    /// if it is short and has none, reads it into `keyWords`.
    private mutating func setKey(from: Int, to: Int, escaped: Bool) {
        let length = to - from
        if !escaped && length <= 16 {
            // 16 bytes from `from` are in the buffer: the name ends before `count`, and
            // the window's padding follows it.
            keyWords = Self.words(at: buffer + from, length: length)
            keyCount = length
            keyIsWords = true
            return
        }
        keyIsWords = false
        if to - from > keyCapacity {
            key.deallocate()
            keyCapacity = max(2 * keyCapacity, to - from)
            key = .allocate(capacity: keyCapacity)
        }
        guard escaped else {
            key.update(from: buffer + from, count: to - from)
            keyCount = to - from
            return
        }
        // Decoded as it was scanned (and no longer than the escaped text).
        key.update(from: decoded, count: decodedCount)
        keyCount = decodedCount
    }

    private func hex4(at j: Int) -> UInt32 {
        var v: UInt32 = 0
        for k in 0 ..< 4 {
            let c = buffer[j + k]
            let digit: UInt8 = c <= UInt8(ascii: "9") ? c - UInt8(ascii: "0") : (c | 0x20) - UInt8(ascii: "a") + 10
            v = v << 4 | UInt32(digit)
        }
        return v
    }

    /// The index just after the UTF-8 sequence that starts at `j` (a byte from 0x80 on),
    /// which must be well-formed as Unicode's table 3-7 has it: no overlong form, no
    /// surrogate, nothing past U+10FFFF, no sequence cut short. RFC 8259 requires JSON
    /// exchanged between systems to be UTF-8; the error names the first byte that is not.
    /// Never reads past the sentinel: a cut sequence stops at it.
    private func endOfUTF8Sequence(at j: Int) throws(_JSONSyntaxError) -> Int {
        switch _utf8Sequence(in: buffer, at: j, count: count) {
        case .wellFormed(let end): return end
        case .illFormed(let at), .cut(let at): throw invalidUTF8(at: at)
        }
    }

    private func invalidUTF8(at j: Int) -> _JSONSyntaxError {
        let what = j < count ? "byte 0x\(String(buffer[j], radix: 16))" : "the end of the document"
        return _JSONSyntaxError(offset: base + j, message: "invalid UTF-8 in a string: \(what) (JSON must be UTF-8, RFC 8259)")
    }

    /// Scans the number at `i` and moves past it; false, with `i` unchanged, if the buffer
    /// ends in or just after it and more of the document may follow.
    private mutating func scanNumber() throws(_JSONSyntaxError) -> Bool {
        var j = i
        if buffer[j] == UInt8(ascii: "-") { j += 1 }
        if !buffer[j].isDigit {
            if j == count && !atEnd { return false }
            throw number("a digit", at: j)
        }
        if buffer[j] == UInt8(ascii: "0") {
            j += 1
        } else {
            j = endOfDigits(from: j)
        }
        if buffer[j] == UInt8(ascii: ".") {
            j += 1
            if !buffer[j].isDigit {
                if j == count && !atEnd { return false }
                throw number("a digit after '.'", at: j)
            }
            j = endOfDigits(from: j)
        }
        if buffer[j] == UInt8(ascii: "e") || buffer[j] == UInt8(ascii: "E") {
            j += 1
            if buffer[j] == UInt8(ascii: "+") || buffer[j] == UInt8(ascii: "-") { j += 1 }
            if !buffer[j].isDigit {
                if j == count && !atEnd { return false }
                throw number("a digit in the exponent", at: j)
            }
            j = endOfDigits(from: j)
        }
        if j == count && !atEnd { return false }
        i = j
        return true
    }

    private func number(_ what: String, at j: Int) -> _JSONSyntaxError {
        j < count ? unexpected("\(what) in a number", at: j) : endOfInput("\(what) in a number", at: j)
    }

    private func unexpected(_ expected: String, at j: Int? = nil) -> _JSONSyntaxError {
        let j = j ?? i
        let byte = buffer[j]
        let shown = (0x21 ..< 0x7F).contains(byte) ? "'\(Unicode.Scalar(byte))'" : "byte 0x\(String(byte, radix: 16))"
        return _JSONSyntaxError(offset: base + j, message: "unexpected \(shown), expected \(expected)")
    }

    private func endOfInput(_ expected: String, at j: Int? = nil) -> _JSONSyntaxError {
        let open = depth
        let context = open > 0 ? " (\(open) array(s) or object(s) still open)" : ""
        return _JSONSyntaxError(offset: base + (j ?? i), message: "unexpected end of the document, expected \(expected)\(context)")
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}

/// Tests on the eight bytes of a little-endian word at once. Each returns a mask with the
/// high bit of the flagged bytes set; where a test can also flag bytes above one it flags
/// (a borrow carried up), the lowest flagged byte is still exact, and only that one is used.
/// Writes the UTF-8 of the scalar `value` (a valid Unicode scalar value) at `p`; its length,
/// 1 to 4 bytes. What the readers use for escapes and references: a `String` per character
/// made them allocate.
@inline(__always)
func _putUTF8(_ value: UInt32, at p: UnsafeMutablePointer<UInt8>) -> Int {
    switch value {
    case 0 ..< 0x80:
        p[0] = UInt8(value)
        return 1
    case 0x80 ..< 0x800:
        p[0] = 0xC0 | UInt8(value >> 6)
        p[1] = 0x80 | UInt8(value & 0x3F)
        return 2
    case 0x800 ..< 0x10000:
        p[0] = 0xE0 | UInt8(value >> 12)
        p[1] = 0x80 | UInt8((value >> 6) & 0x3F)
        p[2] = 0x80 | UInt8(value & 0x3F)
        return 3
    default:
        p[0] = 0xF0 | UInt8(value >> 18)
        p[1] = 0x80 | UInt8((value >> 12) & 0x3F)
        p[2] = 0x80 | UInt8((value >> 6) & 0x3F)
        p[3] = 0x80 | UInt8(value & 0x3F)
        return 4
    }
}

enum _SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let high: UInt64 = 0x8080_8080_8080_8080

    /// The bytes below `limit` (at most 0x80); exact for the lowest.
    @inline(__always)
    static func bytesLess(than limit: UInt8, in w: UInt64) -> UInt64 {
        (w &- ones &* UInt64(limit)) & ~w & high
    }

    /// The bytes equal to `byte`; exact for the lowest.
    @inline(__always)
    static func bytesEqual(to byte: UInt8, in w: UInt64) -> UInt64 {
        bytesLess(than: 1, in: w ^ (ones &* UInt64(byte)))
    }

    /// The first 8 of the `length` bytes at `p` as a little-endian word, zero past
    /// `length`. Reads 8 bytes: the caller knows they are in its buffer or the padding.
    @inline(__always)
    static func prefixWord(_ p: UnsafePointer<UInt8>, length: Int) -> UInt64 {
        let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        return length >= 8 ? word : word & ((1 &<< UInt64(8 &* length)) &- 1)
    }

    /// The bytes that are not '0' ... '9'; exact for every byte (no carry crosses bytes).
    @inline(__always)
    static func bytesNotDigits(in w: UInt64) -> UInt64 {
        let t = w ^ (ones &* 0x30)
        return (((t & ~high) &+ ones &* 0x76) | t) & high
    }
}
