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

@inline(always)
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
        decoded.initialize(repeating: 0, count: decodedCapacity)
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
        // JSON values are stored each anew (see `ViewTreeBuilder.sharesRecentValues`).
        let shares = builder.sharesRecentValues
        builder.sharesRecentValues = false
        defer { builder.sharesRecentValues = shares }
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
                    giveValue(from: i &- length, to: i, &builder)
                }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                while count - i < 5 && refill(keep: i, progress: progress) {}
                if count - i >= 4 && word(at: i) == Self.trueWord {
                    i += 4
                    leaf(t.bool, &builder)
                    if whole { builder.setValue(words: (UInt64(Self.trueWord), 0), count: 4) }
                } else if count - i >= 5 && c == UInt8(ascii: "f") && word(at: i + 1) == Self.alseWord {
                    i += 5
                    leaf(t.bool, &builder)
                    if whole { builder.setValue(words: (UInt64(Self.alseWord) << 8 | UInt64(UInt8(ascii: "f")), 0), count: 5) }
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
    @inline(always)
    private mutating func open(_ type: TypeID, _ builder: inout ViewTreeBuilder) {
        builder.open(type: type)
        if keyPending { giveKey(&builder) }
    }

    /// A value that is not a container: opened and closed at once.
    @inline(always)
    private mutating func leaf(_ type: TypeID, _ builder: inout ViewTreeBuilder) {
        builder.appendLeaf(type: type)
        if keyPending { giveKey(&builder) }
    }

    /// Gives the node opened last the pending member name. Out of line: inlined in each
    /// `open` and `leaf`, it made the scan take more instructions, not fewer (callgrind).
    private mutating func giveKey(_ builder: inout ViewTreeBuilder) {
        if keyIsWords {
            builder.setKey(words: keyWords, count: keyCount)
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
    @inline(always)
    private func word(at j: Int) -> UInt32 {
        _SWAR.word32(buffer + j)
    }

    @inline(always)
    private mutating func skipWhitespace(_ progress: (Int) -> Void) {
        while true {
            // Most gaps are none or one byte (compact JSON, a space after ':'): byte by
            // byte; from a second byte on (a pretty-printed line's indentation), eight
            // bytes at a time.
            if _isJSONWhitespace(buffer[i]) {
                i &+= 1
                if _isJSONWhitespace(buffer[i]) { i = Self.endOfWhitespace(buffer, from: i &+ 1) }
            }
            // Stopped at a byte that is not whitespace, or at the sentinel.
            if i < count || !refill(keep: i, progress: progress) { return }
        }
    }

    /// `"name"` then `:`, leaving `i` where the member's value starts and the name pending.
    @inline(always)
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
    /// sentinel. Sixteen bytes at a time, so that the end of a short string costs no branch
    /// that the length of the string decides (most of them are mispredicted, byte by byte).
    /// (A zero byte is a control byte, so the run never goes past the sentinel.)
    @inline(always)
    private func endOfPlainRun(from j: Int) -> Int {
        // Sixteen bytes at a time (one SSE2 compare each): the window's padding holds the
        // 16 bytes read from the sentinel on.
        var j = j
        while true {
            let stops = rv_string_stops16(buffer + j)
            if stops != 0 { return j &+ stops.trailingZeroBitCount }
            j &+= 16
        }
    }

    /// The first index from `j` (at most `count`) whose byte is not JSON whitespace, sixteen
    /// bytes at a time (the sentinel is not whitespace, and the window's 16 bytes of padding
    /// are readable past it). Not inlined: `skipWhitespace` is inlined in many places, and
    /// this loop in each of them kept the compiler from inlining `scanMemberName` (9 M more
    /// instructions on a 2 MB compact sample); static, since a method call copied the scanner.
    @inline(never)
    private static func endOfWhitespace(_ buffer: UnsafeMutablePointer<UInt8>, from j: Int) -> Int {
        // Spaces sixteen at a time (one SSE2 compare), the commonest whitespace by far
        // (indentation); then the byte that is not one, which ends the run unless it is a
        // line feed, carriage return or tab (fewer operations than testing all four kinds
        // at each byte). Eight at a time with SWAR took 7.3 M instructions on the 4 MB
        // pretty-printed sample.
        var j = j
        while true {
            let spaces = Int(rv_leading_spaces16(buffer + j))
            j &+= spaces
            if spaces == 16 { continue }
            let byte = buffer[j]
            if byte != 0x0A && byte != 0x0D && byte != 0x09 { return j }
            j &+= 1
        }
    }

    /// The first index from `j` (at most `count`) whose byte is not an ASCII digit, eight
    /// bytes at a time (see ``endOfPlainRun(from:)``).
    @inline(always)
    private func endOfDigits(from j: Int) -> Int {
        _SWAR.firstStop(in: buffer, from: j, _SWAR.bytesNotDigits(in:))
    }

    /// If the string at `i` (its opening quote) is at most 16 bytes of printable ASCII but
    /// `"` and `\`, closed in the buffer: makes it the pending key as two words, moves past
    /// it and returns true. Else false, with nothing changed (the general scan takes it).
    @inline(always)
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
    @inline(always)
    private static func words(at p: UnsafePointer<UInt8>, length: Int) -> (UInt64, UInt64) {
        let low = _SWAR.prefixWord(p, length: length)
        return length <= 8 ? (low, 0) : (low, _SWAR.prefixWord(p + 8, length: length &- 8))
    }

    /// Scans the string at `i` (its opening quote) and moves past it; as a key, decodes it
    /// into `key`. False, with `i` unchanged, if the buffer ends inside it and more of the
    /// document may follow. A string without escapes is only checked; at its first escape
    /// ``decodeString(from:escapeAt:asKey:)`` takes over and decodes the rest as it checks.
    private mutating func scanString(asKey: Bool) throws(_JSONSyntaxError) -> Bool {
        let start = i
        var j = i + 1
        while true {
            j = endOfPlainRun(from: j)
            let byte = buffer[j]
            if byte == UInt8(ascii: "\"") { break }
            if byte >= 0x80 {
                // Two- and three-byte characters inline; the rest (and what is cut or
                // ill-formed) by the general check.
                let length = _shortUTF8Length(buffer + j)
                if length != 0 { j &+= length; continue }
                if j + 4 > count && !atEnd { return false }
                j = try endOfUTF8Sequence(at: j)
            } else if byte == UInt8(ascii: "\\") {
                return try decodeString(from: start, escapeAt: j, asKey: asKey)
            } else if j == count {
                if !atEnd { return false }
                throw _JSONSyntaxError(offset: base + start, message: "unterminated string")
            } else {
                throw controlCharacter(at: j)
            }
        }
        if asKey { setKey(from: start + 1, to: j, escaped: false) } else { lastString = (start + 1, j, false) }
        i = j + 1
        return true
    }

    /// Goes on with the string opened at `start` from its first escape at `j`: decodes it
    /// into `decoded` as it checks it, in one pass. Each plain run is copied as it is
    /// scanned, sixteen bytes at a time (a block is stored before its stops are known; the
    /// next store overwrites what followed the stop). The decoded text is never longer than
    /// the escaped one, and the string ends by the buffer's end (else it is scanned again
    /// after a refill), so room for the rest of the buffer, plus the 16 bytes of the last
    /// block and a character's 4, is made once here and not checked again in the loop
    /// (at most the window's size: 1 MiB unless a longer token doubled it).
    /// Buffer, count and output are locals: read through `self` (inout), each was loaded
    /// again at every escape.
    private mutating func decodeString(from start: Int, escapeAt escape: Int, asKey: Bool) throws(_JSONSyntaxError) -> Bool {
        let count = self.count, atEnd = self.atEnd
        if count &- start &+ 64 > decodedCapacity { growDecoded(to: count &- start &+ 64) }
        let buffer = self.buffer, out = decoded
        var j = escape
        var n = j &- (start &+ 1)
        _copyWords(from: buffer + start + 1, to: out, count: n)
        while true {
            // At a byte that stops a plain run.
            let byte = buffer[j]
            if byte == UInt8(ascii: "\\") {
                // Room for a surrogate pair's two escapes (the window's padding is read
                // past the end of the document, and holds no escape).
                if j &+ 12 > count && !atEnd { return false }
                let e = buffer[j &+ 1]
                if e == UInt8(ascii: "u") {
                    var unit = Self.hexQuad(buffer + j + 2)
                    guard unit < 0x1_0000 else {
                        throw _JSONSyntaxError(offset: base + j, message: "invalid \\u escape: expected four hexadecimal digits")
                    }
                    j &+= 6
                    // A high surrogate and a low one escaped next to it are one character;
                    // a surrogate alone is U+FFFD. (If the second escape's digits are not
                    // digits, flagged from 0x10000 on, it is no low surrogate, and the next
                    // turn reports it: masked to its low 16 bits, `\udcXd` passed for one.)
                    if unit & 0xFC00 == 0xD800 && buffer[j] == UInt8(ascii: "\\") && buffer[j &+ 1] == UInt8(ascii: "u") {
                        let low = Self.hexQuad(buffer + j + 2)
                        if low < 0x1_0000 && low & 0xFC00 == 0xDC00 {
                            unit = 0x10000 &+ ((unit &- 0xD800) << 10) &+ (low &- 0xDC00)
                            j &+= 6
                        }
                    }
                    n &+= _putUTF8(unit &- 0xD800 < 0x800 ? 0xFFFD : unit, at: out + n)
                } else {
                    let plain = Self.unescaped(e)
                    guard plain != 0 else {
                        if j &+ 1 == count { throw _JSONSyntaxError(offset: base + start, message: "unterminated string") }
                        throw _JSONSyntaxError(offset: base + j, message: "invalid escape '\\\(Unicode.Scalar(e))' in a string")
                    }
                    out[n] = plain
                    n &+= 1
                    j &+= 2
                }
                // Escapes in a row (`\b\f\r`, `\u6728\u672c`) go on here, not through the
                // plain run's vector compare and copy that would stop at once.
                if buffer[j] == UInt8(ascii: "\\") { continue }
            } else if byte == UInt8(ascii: "\"") {
                break
            } else if byte >= 0x80 {
                // Characters past ASCII in a row (a word of Cyrillic, CJK text) are taken here
                // one after another, not each through the plain run that would stop at once.
                repeat {
                    var length = _shortUTF8Length(buffer + j)
                    if length == 0 {
                        if j &+ 4 > count && !atEnd { return false }
                        length = try endOfUTF8Sequence(at: j) &- j
                    }
                    // At most four bytes, in the buffer or its padding.
                    UnsafeMutableRawPointer(out + n).storeBytes(
                        of: _SWAR.word32(buffer + j).littleEndian, as: UInt32.self)
                    n &+= length
                    j &+= length
                } while buffer[j] >= 0x80
            } else if j == count {
                if !atEnd { return false }
                throw _JSONSyntaxError(offset: base + start, message: "unterminated string")
            } else {
                throw controlCharacter(at: j)
            }
            // The plain run that follows, copied as it is scanned, sixteen bytes at a time
            // (the window's padding holds the 16 bytes read from the sentinel on).
            while true {
                let stops = rv_string_stops16(buffer + j)
                let to = UnsafeMutableRawPointer(out + n)
                to.storeBytes(of: rv_load64(buffer + j), as: UInt64.self)
                to.storeBytes(of: rv_load64(buffer + j + 8), toByteOffset: 8, as: UInt64.self)
                if stops != 0 {
                    let k = stops.trailingZeroBitCount
                    j &+= k
                    n &+= k
                    break
                }
                j &+= 16
                n &+= 16
            }
        }
        decodedCount = n
        if asKey { setKey(from: start + 1, to: j, escaped: true) } else { lastString = (start + 1, j, true) }
        i = j + 1
        return true
    }

    /// The byte a one-letter escape (`\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t`)
    /// stands for, given its letter; 0 for any other letter. A look-up in a constant
    /// table: a `switch` over the letters was an indirect jump the predictor missed.
    @inline(always)
    private static func unescaped(_ e: UInt8) -> UInt8 {
        guard e < 0x80 else { return 0 }
        return Self.escapeTable.utf8Start[Int(e)]
    }

    /// 128 bytes: at each escape letter, the byte it stands for; zero elsewhere.
    private static let escapeTable: StaticString = """
        \0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\
        \0\0\"\0\0\0\0\0\0\0\0\0\0\0\0/\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\
        \0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\\\0\0\0\
        \0\0\u{08}\0\0\0\u{0C}\0\0\0\0\0\0\0\n\0\0\0\r\0\t\0\0\0\0\0\0\0\0\0\0\0
        """

    /// The value of the four hexadecimal digits at `p`, or a value from 0x10000 on if one
    /// of them is not a digit. Branch-free: the four bytes are checked as one word (see
    /// ``_SWAR``), and each digit's value is its low four bits, plus 9 for a letter.
    @inline(always)
    static func hexQuad(_ p: UnsafePointer<UInt8>) -> UInt32 {
        let w = _SWAR.word32(p)
        let high: UInt32 = 0x8080_8080
        // Seven-bit lanes: adding 0x80 - b sets a lane's high bit where it is at least b.
        let x = w & 0x7F7F_7F7F
        let lower = x | 0x2020_2020
        let decimal = (x &+ 0x5050_5050) & ~(x &+ 0x4646_4646)  // 0x30 ... 0x39
        let letter = (lower &+ 0x1F1F_1F1F) & ~(lower &+ 0x1919_1919)  // a ... f, A ... F
        let bad = ((decimal | letter) & high) ^ high | (w & high)
        let digits = (w & 0x0F0F_0F0F) &+ ((w >> 6) & 0x0101_0101) &* 9
        // The first byte is the most significant digit.
        let value = (digits & 0xFF) << 12 | (digits >> 8 & 0xFF) << 8 | (digits >> 16 & 0xFF) << 4 | digits >> 24
        return value | (bad == 0 ? 0 : 0x1_0000)
    }

    private func controlCharacter(at j: Int) -> _JSONSyntaxError {
        _JSONSyntaxError(offset: base + j, message: "unescaped control character (0x\(String(buffer[j], radix: 16))) in a string")
    }

    /// Makes room for `capacity` decoded bytes (what was decoded before is not kept: a
    /// string makes its room before it decodes).
    @inline(never)
    private mutating func growDecoded(to capacity: Int) {
        let size = max(2 * decodedCapacity, capacity)
        decoded.deallocate()
        (decoded, decodedCapacity) = (.allocate(capacity: size), size)
        // Initialized: `giveStringValue` reads 32 bytes from the start whatever the length.
        decoded.initialize(repeating: 0, count: size)
    }

    /// Gives the node made last the value of the string scanned last, escapes decoded.
    private mutating func giveStringValue(_ builder: inout ViewTreeBuilder) {
        let (from, to, escaped) = lastString
        guard escaped else { return giveValue(from: from, to: to, &builder) }
        // `decoded` has room for 64 bytes past the longest text it holds.
        if decodedCount <= 32 { return builder.setValue(readingThirtyTwoBytesAt: decoded, count: decodedCount) }
        builder.setValue(utf8: UnsafeBufferPointer(start: decoded, count: decodedCount))
    }

    /// Gives the node made last the value `buffer[from ..< to]` as it is written: up to 16
    /// bytes as two words (16 bytes from `from` are in the buffer: the value ends by
    /// `count`, and the window's padding follows), up to 32 read as 32 bytes (from a 17th
    /// byte on, the 16 after the value's end are in the buffer or its padding), longer
    /// ones as bytes. Floats of 17 to 32 bytes took the general `setValue(utf8:)`, 6% of
    /// the float-heavy document's instructions (callgrind).
    @inline(always)
    private func giveValue(from: Int, to: Int, _ builder: inout ViewTreeBuilder) {
        let length = to &- from
        if length <= 16 { return builder.setValue(words: Self.words(at: buffer + from, length: length), count: length) }
        if length <= 32 { return builder.setValue(readingThirtyTwoBytesAt: buffer + from, count: length) }
        builder.setValue(utf8: UnsafeBufferPointer(start: buffer + from, count: length))
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
}

/// Tests on the eight bytes of a little-endian word at once. Each returns a mask with the
/// high bit of the flagged bytes set; where a test can also flag bytes above one it flags
/// (a borrow carried up), the lowest flagged byte is still exact, and only that one is used.
/// Writes the UTF-8 of the scalar `value` (a valid Unicode scalar value) at `p`; its length,
/// 1 to 4 bytes. What the readers use for escapes and references: a `String` per character
/// made them allocate.
@inline(always)
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

    /// The eight bytes at `p` as a little-endian word. The scanners read words through this
    /// (and ``word32(_:)``), not `loadUnaligned`: the compiler called the standard library's
    /// `loadUnaligned` out of line in the scanners' main loops (27 calls in the JSON
    /// scanner's, 1.3 M instructions on a 4 MB pretty-printed document, callgrind), and an
    /// `@inline(always)` wrapper around it did not change that; the C header's function is
    /// inlined by LLVM, as one load.
    @inline(always)
    static func word64(_ p: UnsafeRawPointer) -> UInt64 {
        UInt64(littleEndian: rv_load64(p))
    }

    /// The four bytes at `p` as a little-endian word (see ``word64(_:)``).
    @inline(always)
    static func word32(_ p: UnsafeRawPointer) -> UInt32 {
        UInt32(littleEndian: rv_load32(p))
    }

    /// The bytes below `limit` (at most 0x80); exact for the lowest.
    @inline(always)
    static func bytesLess(than limit: UInt8, in w: UInt64) -> UInt64 {
        (w &- ones &* UInt64(limit)) & ~w & high
    }

    /// The bytes equal to `byte`; exact for the lowest.
    @inline(always)
    static func bytesEqual(to byte: UInt8, in w: UInt64) -> UInt64 {
        bytesLess(than: 1, in: w ^ (ones &* UInt64(byte)))
    }

    /// The first 8 of the `length` bytes at `p` as a little-endian word, zero past
    /// `length`. Reads 8 bytes: the caller knows they are in its buffer or the padding.
    @inline(always)
    static func prefixWord(_ p: UnsafePointer<UInt8>, length: Int) -> UInt64 {
        let word = _SWAR.word64(p)
        return length >= 8 ? word : word & ((1 &<< UInt64(8 &* length)) &- 1)
    }

    /// The index of the first byte from `j` that `stops` flags (the high bit of its byte in
    /// the mask; the lowest flagged byte must be exact), eight bytes at a time. Reads up to
    /// 7 bytes past the stop: the caller's buffer holds them (a window's padding), and
    /// `stops` must flag its sentinel.
    @inline(always)
    static func firstStop(in buffer: UnsafePointer<UInt8>, from j: Int, _ stops: (_ word: UInt64) -> UInt64) -> Int {
        var j = j
        while true {
            let found = stops(_SWAR.word64(buffer + j))
            if found != 0 { return j &+ found.trailingZeroBitCount &>> 3 }
            j &+= 8
        }
    }

    /// The bytes that are not '0' ... '9'; exact for every byte (no carry crosses bytes).
    @inline(always)
    static func bytesNotDigits(in w: UInt64) -> UInt64 {
        let t = w ^ (ones &* 0x30)
        return (((t & ~high) &+ ones &* 0x76) | t) & high
    }
}
