#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import RelativeViewCore
import RelativeViewEngine
internal import CByteCount

/// The formats a tree is written in.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// XML, UTF-8: elements with their attributes, text, CDATA sections, comments and
    /// processing instructions, escaped where XML requires. A node's `NodeAttribute`
    /// texts (a skeleton import's `id` and `class`, a JSON member name as `key`) and a
    /// non-zero tag are written as attributes when no named attribute of that name exists,
    /// and an element's own value (a JSON scalar's) as its text.
    ///
    /// What XML 1.0 and its namespaces cannot hold is an ``ExportError`` naming the node,
    /// never a file a parser rejects: a second element at the top of a whole tree (write
    /// each as a subtree), text or CDATA beside the document element, a name that is not
    /// an XML name, a character with no place even as a reference (a control character but
    /// tab, newline and carriage return, which are escaped; U+FFFE, U+FFFF), a comment
    /// holding "--" or ending with "-", an instruction's data holding "?>", a namespace
    /// prefix declared neither on its element nor around it, an empty prefix declaration.
    /// A subtree written alone declares on its root the namespaces in scope around it. An
    /// instruction named `xml` (the declaration of an XHTML file read as HTML, which
    /// libxml2 reports as one) is left out: the writer writes its own declaration.
    case xml
    /// JSON, UTF-8. A tree of JSON values (types `object`, `array`, `string`, `number`,
    /// `bool`, `null`) is written as it was read: member names in order, numbers as
    /// written. A tree of markup is written as JsonML (an element is an array of its name,
    /// an object of its attributes when it has any, then its children; text is a string;
    /// comments and processing instructions are left out).
    case json

    /// The format a file name's extension says: `.xml` (and `.xhtml`, `.svg`), `.json`;
    /// `nil` for any other.
    ///
    /// - Complexity: O(path's length)
    public static func detect(path: String) -> ExportFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "xml", "xhtml", "svg": return .xml
        case "json": return .json
        default: return nil
        }
    }
}

/// Why a tree could not be written: the file and the system's reason, or the node that
/// cannot be written in the format (a type name that is not an XML name).
public struct ExportError: Error, CustomStringConvertible, Sendable {
    /// The file being written, or `nil` for an in-memory form.
    ///
    /// - Complexity: O(1)
    public var path: String?
    /// What went wrong.
    ///
    /// - Complexity: O(1)
    public var message: String

    /// An error for `path` saying `message`.
    ///
    /// - Complexity: O(1)
    public init(path: String?, message: String) {
        (self.path, self.message) = (path, message)
    }

    /// `path: message`.
    ///
    /// - Complexity: O(1)
    public var description: String { (path.map { "\($0): " } ?? "") + message }
}

extension ViewTree {
    /// Writes the tree (or the subtree of `node`) to the file at `path` in `format`.
    ///
    /// The text goes to a new file beside `path`, which then replaces `path` in one
    /// rename: a failed write (a full disk, an unwritable node) leaves `path` as it was
    /// and no partial file behind.
    ///
    /// - Throws: ``ExportError`` naming the file and the system's reason, or the node that
    ///   the format cannot hold.
    /// - Complexity: O(nodes written + text written)
    public func write(to path: String, format: ExportFormat, subtree node: NodeID? = nil) throws(ExportError) {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let base = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ExportError(path: path, message: "cannot create a file beside it: \(Self._reason(errno))") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let sink = _OutputSink(fd: fd)
        var failure: String?
        do {
            try _write(format, subtree: node, into: sink)
            sink.flush()
        } catch {
            failure = error.message
        }
        if failure == nil, let code = sink.failure { failure = Self._reason(code) }
        if failure == nil {
            // mkstemp makes the file readable by its owner only; a written document is
            // made as `open` would (0666 less the umask).
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
        if close(fd) != 0 && failure == nil { failure = Self._reason(errno) }
        if failure == nil && rename(temporary, path) != 0 { failure = Self._reason(errno) }
        if let failure {
            unlink(temporary)
            throw ExportError(path: path, message: failure)
        }
    }

    /// The system's words for `code`.
    private static func _reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)).bindMemory(to: UInt8.self), as: UTF8.self)
    }

    /// The tree (or the subtree of `node`) as `format`, UTF-8.
    ///
    /// - Throws: ``ExportError`` naming the node that the format cannot hold.
    /// - Complexity: O(nodes written + text written)
    public func bytes(as format: ExportFormat, subtree node: NodeID? = nil) throws(ExportError) -> [UInt8] {
        let sink = _OutputSink(fd: -1)
        try _write(format, subtree: node, into: sink)
        return sink.bytes
    }

    /// The tree (or the subtree of `node`) as `format`, a string.
    ///
    /// - Throws: ``ExportError`` naming the node that the format cannot hold.
    /// - Complexity: O(nodes written + text written)
    public func string(as format: ExportFormat, subtree node: NodeID? = nil) throws(ExportError) -> String {
        String(decoding: try bytes(as: format, subtree: node), as: UTF8.self)
    }

    private func _write(_ format: ExportFormat, subtree node: NodeID?, into sink: _OutputSink) throws(ExportError) {
        if let node { precondition(contains(node), "write: node \(node) is not in this tree") }
        let names = _NameTable()
        switch format {
        case .xml:
            try _XMLWriter(tree: self, names: names, out: sink).write(subtree: node)
        case .json:
            _JSONWriter(tree: self, names: names, out: sink).write(subtree: node)
        }
    }
}

/// Bytes on their way out: gathered in a buffer of its own, written to `fd` (when there is
/// one) a megabyte at a time. A file sink has two buffers: each full one is written on a
/// thread of its own (`_SideTask`) while the writer fills the other, so that the kernel's
/// copy into the page cache (about a third of an XML export's time, perf) overlaps the
/// formatting; a buffer is filled again only after its write has returned. A failed write
/// is kept (`failure`), and what follows dropped: the writers check once, at the end,
/// after ``flush()``, which waits for the write under way.
final class _OutputSink {
    let fd: Int32
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    /// A file sink's other buffer (made at its first spill), and its room.
    private var spare: UnsafeMutablePointer<UInt8>?
    private var spareCapacity = 0
    /// The write of the other buffer under way, if any: its `errno`, or 0.
    private var writing: _SideTask<Int32>?
    /// The `errno` of the first failed write.
    private(set) var failure: Int32?
    static let chunk = 1 << 20

    init(fd: Int32) {
        self.fd = fd
        capacity = fd >= 0 ? Self.chunk + (1 << 16) : 1 << 16
        base = .allocate(capacity: capacity)
    }

    deinit {
        // The write under way reads `spare`: it ends before the memory is let go.
        finishWriting()
        base.deallocate()
        spare?.deallocate()
    }

    /// What was gathered (a sink with no file).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Room for `n` more bytes: a file sink writes out what it holds; any sink grows when
    /// one piece is larger than its room.
    @inline(always)
    func reserve(_ n: Int) {
        if count &+ n > capacity { makeRoom(n) }
    }

    @inline(never)
    private func makeRoom(_ n: Int) {
        if fd >= 0 { writeBehind() }
        guard count + n > capacity else { return }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(2 * capacity, count + n))
        bigger.update(from: base, count: count)
        base.deallocate()
        (base, capacity) = (bigger, max(2 * capacity, count + n))
    }

    @inline(always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    @inline(always)
    func append(_ p: UnsafePointer<UInt8>, _ n: Int) {
        reserve(n)
        (base + count).update(from: p, count: n)
        count &+= n
    }

    @inline(always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let p = bytes.baseAddress else { return }
        append(p, bytes.count)
    }

    @inline(always)
    func append(_ text: StaticString) { append(text.utf8Start, text.utf8CodeUnitCount) }

    /// Where the next byte goes: room for what ``reserve(_:)`` asked, written by the caller
    /// and then counted with ``didAppend(_:)``.
    @inline(always)
    var end: UnsafeMutablePointer<UInt8> { base + count }

    /// Counts `n` bytes written at ``end``.
    @inline(always)
    func didAppend(_ n: Int) { count &+= n }

    /// Writes out what it holds, if it is a file sink holding a chunk's worth (on a thread
    /// of its own, while the writer fills the other buffer).
    @inline(always)
    func spill() {
        if fd >= 0 && count >= Self.chunk { writeBehind() }
    }

    /// Starts the write of what it holds on a thread of its own, once the write before has
    /// returned, and goes on in the other buffer (a file sink).
    @inline(never)
    private func writeBehind() {
        finishWriting()
        guard failure == nil, count > 0 else {
            count = 0
            return
        }
        if spare == nil {
            spare = .allocate(capacity: capacity)
            spareCapacity = capacity
        }
        let (fd, address, n) = (fd, UInt(bitPattern: base), count)
        writing = _SideTask { Self.writeAll(fd, UnsafePointer(bitPattern: address)!, n) }
        swap(&base, &spare!)
        swap(&capacity, &spareCapacity)
        count = 0
    }

    /// Waits for the write under way, if any, and keeps its failure.
    private func finishWriting() {
        guard let task = writing else { return }
        writing = nil
        let code = task.wait()
        if code != 0 && failure == nil { failure = code }
    }

    /// Writes out what it holds (a file sink), after the write under way: when this
    /// returns, every byte appended has been written or ``failure`` says why not.
    func flush() {
        guard fd >= 0 else { return }
        finishWriting()
        if failure == nil {
            let code = Self.writeAll(fd, base, count)
            if code != 0 { failure = code }
        }
        count = 0
    }

    /// Writes `n` bytes from `p` to `fd`: 0, or the `errno` of the write that failed.
    private static func writeAll(_ fd: Int32, _ p: UnsafePointer<UInt8>, _ n: Int) -> Int32 {
        var done = 0
        while done < n {
            let written = Glibc.write(fd, p + done, n - done)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += written
        }
        return 0
    }
}

/// What a writer knows of each type id, filled on first sight (one registry lookup per
/// type): its kind and its name's UTF-8 (a processing instruction's without the `?`), in
/// flat memory, read with no retain or release.
final class _NameTable {
    private let slots: Int
    /// Per type: its kind's raw value, or 255 before it is filled.
    private let kinds: UnsafeMutablePointer<UInt8>
    private let starts: UnsafeMutablePointer<Int32>
    private let lengths: UnsafeMutablePointer<Int32>
    private var names: UnsafeMutablePointer<UInt8>
    private var namesCount = 0
    private var namesCapacity = 4096
    /// Per type: whether its name is an XML name (0 unknown, 1 yes, 3 yes with a prefix, 2 no).
    let valid: UnsafeMutablePointer<UInt8>
    /// Per type whose name has a prefix: a hash of the prefix (never 0), and its length.
    private let prefixKeys: UnsafeMutablePointer<UInt64>
    private let prefixLengths: UnsafeMutablePointer<Int32>
    /// Per type: the ``_NamespaceScopes/generation`` at which its prefix was last found
    /// declared (0: never), so that a name repeated within one scope is looked up once.
    let boundIn: UnsafeMutablePointer<UInt32>

    init() {
        slots = TypeRegistry.shared.count
        kinds = .allocate(capacity: max(1, slots))
        kinds.initialize(repeating: 255, count: max(1, slots))
        starts = .allocate(capacity: max(1, slots))
        lengths = .allocate(capacity: max(1, slots))
        valid = .allocate(capacity: max(1, slots))
        valid.initialize(repeating: 0, count: max(1, slots))
        prefixKeys = .allocate(capacity: max(1, slots))
        prefixKeys.initialize(repeating: 0, count: max(1, slots))
        prefixLengths = .allocate(capacity: max(1, slots))
        prefixLengths.initialize(repeating: 0, count: max(1, slots))
        boundIn = .allocate(capacity: max(1, slots))
        boundIn.initialize(repeating: 0, count: max(1, slots))
        // 16 bytes past the last name, so that a short name is read as two words.
        names = .allocate(capacity: namesCapacity + 16)
    }

    deinit {
        kinds.deallocate()
        starts.deallocate()
        lengths.deallocate()
        valid.deallocate()
        prefixKeys.deallocate()
        prefixLengths.deallocate()
        boundIn.deallocate()
        names.deallocate()
    }

    @inline(always)
    func kind(_ t: Int32) -> NodeKind {
        let i = Int(t)
        precondition(i >= 0 && i < slots, "type \(t) registered after the write began")
        if kinds[i] == 255 { fill(i) }
        return NodeKind(rawValue: Int(kinds[i]))!
    }

    @inline(always)
    func name(_ t: Int32) -> UnsafeBufferPointer<UInt8> {
        let i = Int(t)
        if kinds[i] == 255 { fill(i) }
        return UnsafeBufferPointer(start: names + Int(starts[i]), count: Int(lengths[i]))
    }

    /// Appends type `t`'s name to `out` between `before` and `after` (at most two bytes
    /// each, `0` for none: `<` and nothing, `</` and `>`, a space and `="`), read straight
    /// from the table: a name of at most 16 bytes as two words (the table has 16 readable
    /// bytes past each name), with one check for room and no buffer made for it. (A buffer
    /// made for each name was a call of its own, and each piece its own check, callgrind.)
    @inline(always)
    func append(_ t: Int32, to out: _OutputSink, between before: UInt16 = 0, and after: UInt16 = 0) {
        let i = Int(t)
        if kinds[i] == 255 { fill(i) }
        let n = Int(lengths[i])
        let from = UnsafeRawPointer(names + Int(starts[i]))
        let (b, a) = (before == 0 ? 0 : before < 0x100 ? 1 : 2, after == 0 ? 0 : after < 0x100 ? 1 : 2)
        out.reserve(n &+ 20)
        let to = UnsafeMutableRawPointer(out.end)
        to.storeBytes(of: before.littleEndian, as: UInt16.self)
        if n <= 16 {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), toByteOffset: b, as: UInt64.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: b &+ 8, as: UInt64.self)
        } else {
            (to + b).copyMemory(from: from, byteCount: n)
        }
        to.storeBytes(of: after.littleEndian, toByteOffset: b &+ n, as: UInt16.self)
        out.didAppend(b &+ n &+ a)
    }

    /// One or two ASCII bytes as a little-endian word (the first in the low byte): what
    /// ``append(_:to:between:and:)`` writes around a name.
    @inline(always)
    static func pair(_ text: StaticString) -> UInt16 {
        let p = text.utf8Start
        return text.utf8CodeUnitCount == 1 ? UInt16(p[0]) : UInt16(p[0]) | UInt16(p[1]) << 8
    }

    @inline(never)
    private func fill(_ i: Int) {
        let type = TypeID.registered(rawValue: Int32(i))
        let kind = _ContentTypes.shared.kind(of: type)
        var name = TypeRegistry.shared.name(of: type)
        if kind == .processingInstruction { name.removeFirst() }
        let utf8 = Array(name.utf8)
        if namesCount + utf8.count > namesCapacity {
            let capacity = max(2 * namesCapacity, namesCount + utf8.count)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + 16)
            bigger.update(from: names, count: namesCount)
            names.deallocate()
            (names, namesCapacity) = (bigger, capacity)
        }
        utf8.withUnsafeBufferPointer { (names + namesCount).update(from: $0.baseAddress!, count: utf8.count) }
        starts[i] = Int32(namesCount)
        lengths[i] = Int32(utf8.count)
        namesCount += utf8.count
        kinds[i] = UInt8(kind.rawValue)
    }

    /// Whether type `t`'s name is an XML name (an ASCII-letter, `_` or `:` start, or any
    /// byte past ASCII; then those, digits, `-` and `.`).
    @inline(always)
    func isXMLName(_ t: Int32) -> Bool {
        let v = valid[Int(t)]
        return v == 1 || v == 3 || checkXMLName(t)
    }

    /// The prefix of type `t`'s name (before its colon), if it has one: a name that
    /// ``isXMLName(_:)``.
    @inline(always)
    func prefix(_ t: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard prefixKey(t) != 0 else { return nil }
        return UnsafeBufferPointer(rebasing: name(t)[..<Int(prefixLengths[Int(t)])])
    }

    /// A hash of the prefix of type `t`'s name (``_NameTable/key(of:)``), or 0 if it has none.
    @inline(always)
    func prefixKey(_ t: Int32) -> UInt64 {
        let i = Int(t)
        if valid[i] == 0 { _ = checkXMLName(t) }
        return prefixKeys[i]
    }

    /// A hash of `prefix` (FNV-1a), never 0: equal prefixes have equal keys.
    static func key<C: Collection>(of prefix: C) -> UInt64 where C.Element == UInt8 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in prefix { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h | 1
    }

    /// ``isXMLName(_:)`` the first time a type is asked about: 1 for a name without a
    /// colon, 3 for a prefix and a local name around one colon, 2 for anything else (the
    /// writer's output is read with namespaces, where `a:b:c` and `:a` are no names).
    @inline(never)
    private func checkXMLName(_ t: Int32) -> Bool {
        let i = Int(t)
        if valid[i] == 0 {
            let name = self.name(t)
            func start(_ b: UInt8) -> Bool { (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x5F || b >= 0x80 }
            func inner(_ b: UInt8) -> Bool { start(b) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E }
            func ncName(_ part: ArraySlice<UInt8>) -> Bool { part.first.map(start) == true && part.allSatisfy(inner) }
            let parts = Array(name).split(separator: 0x3A, omittingEmptySubsequences: false)
            valid[i] = parts.count == 1 && ncName(parts[0]) ? 1 : parts.count == 2 && ncName(parts[0]) && ncName(parts[1]) ? 3 : 2
            if valid[i] == 3 {
                prefixKeys[i] = Self.key(of: parts[0])
                prefixLengths[i] = Int32(parts[0].count)
            }
        }
        return valid[i] == 1 || valid[i] == 3
    }
}

/// `value` escaped as the XML writer writes an attribute value (between double quotes), so
/// that a reader gets the same characters back: what a tool prints of one attribute.
///
/// - Complexity: O(value's length)
package func _xmlAttributeEscaped(_ value: String) -> String {
    let out = _OutputSink(fd: -1)
    var value = value
    _escapeTable().withUnsafeBufferPointer { table in
        value.withUTF8 { _ = _escaped($0, table.baseAddress!, 2, out, lenient: true) }
    }
    return String(decoding: out.bytes, as: UTF8.self)
}

/// `value` as a JSON string, quoted and escaped as the JSON writer writes one: what a tool
/// prints of a text among JSON values.
///
/// - Complexity: O(value's length)
package func _jsonQuoted(_ value: String) -> String {
    let out = _OutputSink(fd: -1)
    var value = value
    value.withUTF8 { _JSONWriter.string($0, into: out) }
    return String(decoding: out.bytes, as: UTF8.self)
}

/// Per byte, what XML must escape in text (`&`, `<`, `>`, CR: 1) and in an attribute value
/// (those, `"`, tab and newline: 2 or 1), so that a reader gets the same characters back;
/// and the bytes that start a character XML cannot hold at all (``_unwritableBit``).
private func _escapeTable() -> [UInt8] {
    var table = [UInt8](repeating: 0, count: 256)
    for b in [0x26, 0x3C, 0x3E, 0x0D] { table[b] = 3 }
    for b in [0x22, 0x09, 0x0A] { table[b] = 2 }
    for b in 0 ..< 0x20 where _isUnwritableControl(UInt8(b)) { table[b] = _unwritableBit }
    table[0xEF] = _unwritableBit  // checked further: `_isFFFEOrFFFF`
    return table
}


/// Writes `text`, each byte that `table` marks with a bit of `mask` written as a reference.
/// Returns `nil`, or the offset of the first character that XML 1.0 cannot hold, even as a
/// reference (a control character but tab, line feed and carriage return; U+FFFE, U+FFFF),
/// where it stopped; `lenient`, such a character is written as a reference instead (what
/// a tool prints, not a document).
@inline(always)
@discardableResult
private func _escaped(
    _ text: UnsafeBufferPointer<UInt8>, _ table: UnsafePointer<UInt8>, _ mask: UInt8, _ out: _OutputSink, lenient: Bool = false
) -> Int? {
    guard let p = text.baseAddress else { return nil }
    let mask = mask | _unwritableBit
    let n = text.count
    var from = 0
    var k = 0
    if n <= 16 {
        // A short text (most values): checked and copied in one loop, no call; at an
        // escape, the loop below goes on from there.
        out.reserve(n)
        let to = out.end
        while k < n {
            let b = p[k]
            if table[Int(b)] & mask != 0 { break }
            to[k] = b
            k &+= 1
        }
        out.didAppend(k)
        if k == n { return nil }
        from = k
    }
    let attribute = mask & 2 != 0
    while true {
        // Sixteen bytes at a time (one SSE2 compare each) to the byte that needs a look,
        // then the last few (the text's last sixteen bytes, or the table in a short one).
        var stopped = false
        while k &+ 16 <= n {
            let stops = rv_xml_escape_stops16(p + k, attribute ? 1 : 0)
            if stops == 0 {
                k &+= 16
                continue
            }
            k &+= stops.trailingZeroBitCount
            stopped = true
            break
        }
        if !stopped && k < n {
            if n >= 16 {
                // The last few: the last sixteen bytes read again, those before `k` shifted out.
                let stops = rv_xml_escape_stops16(p + n - 16, attribute ? 1 : 0) >> UInt32(k &- (n &- 16))
                k = stops == 0 ? n : k &+ stops.trailingZeroBitCount
            } else {
                while k < n && table[Int(p[k])] & mask == 0 { k &+= 1 }
            }
        }
        if k > from { out.append(p + from, k - from) }
        if k == n { return nil }
        let b = p[k]
        switch b {
        case 0x26: out.append("&amp;")
        case 0x3C: out.append("&lt;")
        case 0x3E: out.append("&gt;")
        case 0x22: out.append("&quot;")
        case 0x09: out.append("&#9;")
        case 0x0A: out.append("&#10;")
        case 0x0D: out.append("&#13;")
        case 0xEF:
            // U+F000 to U+FFFF: only U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not characters.
            if _isFFFEOrFFFF(p, k, n) {
                guard lenient else { return k }
                out.append(p[k &+ 2] == 0xBE ? "&#xFFFE;" : "&#xFFFF;")
                k &+= 2
            } else {
                out.append(p + k, 1)
            }
        default:
            // A control character.
            guard lenient else { return k }
            var reference = "&#\(b);"
            reference.withUTF8 { out.append($0) }
        }
        k &+= 1
        from = k
    }
}

/// The bit of ``_escapeTable()`` for the bytes that start a character XML 1.0 may not hold
/// (control characters, and EF, the first byte of U+FFFE and U+FFFF, checked further).
@inline(always)
private var _unwritableBit: UInt8 { 4 }

/// Whether the byte `b` is a control character XML 1.0 cannot hold, even as a reference:
/// one below 0x20 but tab, line feed and carriage return. With ``_isFFFEOrFFFF(_:_:_:)``,
/// the one rule of what the writer refuses (``_escapeTable()``, ``_escaped(_:_:_:_:lenient:)``
/// and ``_firstUnwritable(_:)`` all ask these two).
@inline(always)
private func _isUnwritableControl(_ b: UInt8) -> Bool { b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D }

/// Whether the bytes at `k` of the `n` at `p` (an EF there) are U+FFFE or U+FFFF (EF BF BE,
/// EF BF BF), which XML 1.0 cannot hold: of U+F000 to U+FFFF, only those two.
@inline(always)
private func _isFFFEOrFFFF(_ p: UnsafePointer<UInt8>, _ k: Int, _ n: Int) -> Bool {
    k &+ 2 < n && p[k &+ 1] == 0xBF && p[k &+ 2] & 0xFE == 0xBE
}

/// The offset of the first character in `text` that XML 1.0 cannot hold (see
/// ``_escaped(_:_:_:_:lenient:)``), or `nil`: for CDATA sections, comments and processing
/// instructions, whose text is written as it is.
private func _firstUnwritable(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let p = text.baseAddress else { return nil }
    let n = text.count
    for k in 0 ..< n where _isUnwritableControl(p[k]) || (p[k] == 0xEF && _isFFFEOrFFFF(p, k, n)) { return k }
    return nil
}

/// What to say of the character at `offset` of `text` that XML cannot hold.
private func _unwritableCharacter(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> String {
    let b = text[offset]
    let scalar = b < 0x80 ? UInt32(b) : (text[offset + 2] == 0xBE ? 0xFFFE : 0xFFFF)
    let hex = String(scalar, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + " at byte \(offset)"
}

/// The namespace prefixes declared in scope as the XML writer walks a tree, innermost last,
/// and the depths of the elements that declared them: a class, so that the walk's closure
/// reads them without an access check each (the exit of every node asks whether a scope ends).
/// A prefix is kept as its key (``_NameTable/key(of:)``) and the type of the declaring
/// attribute (`xmlns:p`), whose name holds its bytes, or, declared around a subtree, as
/// its bytes.
final class _NamespaceScopes {
    @exclusivity(unchecked) var keys: [UInt64] = []
    @exclusivity(unchecked) var declarations: [Int32] = []
    /// The prefixes declared around a subtree written alone (their declarations are not
    /// the subtree's), checked first.
    let inherited: [[UInt8]]
    let inheritedKeys: [UInt64]
    @exclusivity(unchecked) private var depths: [Int] = []
    @exclusivity(unchecked) private var counts: [Int] = []
    /// The depth of the innermost element that declared a prefix, or -1.
    @exclusivity(unchecked) private(set) var innermostDepth = -1
    /// Changes whenever a scope opens or ends (see ``_NameTable/boundIn``).
    @exclusivity(unchecked) private(set) var generation: UInt32 = 1

    init(inherited: [[UInt8]]) {
        self.inherited = inherited
        inheritedKeys = inherited.map { _NameTable.key(of: $0) }
    }

    /// The element at `depth` declared the last `count` prefixes appended.
    func open(depth: Int, count: Int) {
        depths.append(depth)
        counts.append(count)
        innermostDepth = depth
        generation &+= 1
    }

    /// The innermost declaring element ends.
    func pop() {
        let n = counts.removeLast()
        keys.removeLast(n)
        declarations.removeLast(n)
        depths.removeLast()
        innermostDepth = depths.last ?? -1
        generation &+= 1
    }
}

/// Whether `p` holds the ASCII bytes of `text`.
@inline(always)
private func _bytes(_ p: UnsafeBufferPointer<UInt8>, are text: StaticString) -> Bool {
    guard p.count == text.utf8CodeUnitCount else { return false }
    let t = text.utf8Start
    for k in 0 ..< p.count where p[k] != t[k] { return false }
    return true
}

/// Writes a tree as XML, walking the index's tokens in document order.
struct _XMLWriter {
    let tree: ViewTree
    let names: _NameTable
    let out: _OutputSink
    let keyName: Int32
    let idName: Int32
    let className: Int32
    let tagName: Int32

    /// The keys of the prefixes `xml` and `xmlns` (``_NameTable/key(of:)``).
    let xmlKey = _NameTable.key(of: "xml".utf8)
    let xmlnsKey = _NameTable.key(of: "xmlns".utf8)

    init(tree: ViewTree, names: _NameTable, out: _OutputSink) {
        (self.tree, self.names, self.out) = (tree, names, out)
        let r = TypeRegistry.shared
        (keyName, idName, className, tagName) = (r.typeID(named: "key").rawValue, r.typeID(named: "id").rawValue, r.typeID(named: "class").rawValue, r.typeID(named: "tag").rawValue)
    }

    func write(subtree node: NodeID?) throws(ExportError) {
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        let table = _escapeTable()
        var failure: ExportError?
        table.withUnsafeBufferPointer { table in
            let escapes = table.baseAddress!
            tree._withWriterView { v in
                var depth = 0
                // A start tag written up to its attributes: its `>` or `/>` waits for what follows.
                var startTagOpen = false
                // A node left out (a document's own XML declaration): no line after it.
                var leftOut = false
                // The whole tree's elements at the top (an XML document has one).
                var rootElements = 0
                // The namespace prefixes declared in scope, innermost last, and per element
                // that declares some, its depth and how many (see `prefixedNamesError`). A
                // subtree starts with those of the elements around it, which its root's
                // start tag declares again, so that it reads back alone as it reads in place.
                let inherited = node.map { inheritedDeclarations(of: $0.index, v) } ?? []
                // The prefixes they declare (`xmlns:p`; `xmlns` declares none), sliced once.
                let prefixes = inherited.compactMap { d in d.name.count > 6 ? (local: Array(d.name[6...]), value: d.value) : nil }
                for (local, value) in prefixes {
                    if let problem = local.withUnsafeBufferPointer({ l in value.withUnsafeBufferPointer { Self.declarationProblem(l, $0) } }) {
                        failure = ExportError(path: nil, message: "an element around node at slot \(node!.index) declares the namespace prefix \"\(String(decoding: local, as: UTF8.self))\" \(problem)")
                        return
                    }
                }
                let scopes = _NamespaceScopes(inherited: prefixes.map(\.local))
                tree._forEachTokenRun(of: node) { tokens in
                    guard failure == nil else { return }
                    for t in tokens {
                        if t >= 0 {
                            if startTagOpen {
                                out.append(UInt8(ascii: ">"))
                                startTagOpen = false
                            }
                            let type = v.typeID[Int(t)]
                            switch names.kind(type) {
                            case .element:
                                if depth == 0 && node == nil {
                                    rootElements &+= 1
                                    guard rootElements == 1 else {
                                        failure = ExportError(path: nil, message: "node at slot \(t) is a second element at the top of the tree, and an XML document has one: write each as a subtree")
                                        return
                                    }
                                }
                                guard names.isXMLName(type) else {
                                    failure = ExportError(path: nil, message: "node at slot \(t) has the type name \"\(String(decoding: names.name(type), as: UTF8.self))\", which is not an XML element name")
                                    return
                                }
                                // The names' prefixes are checked (and the element's
                                // declarations taken) only where one has a prefix, as
                                // the start tag's names are written.
                                var prefixed = names.prefixKey(type) != 0
                                if let error = startTag(t, type, v, escapes, prefixed: &prefixed)
                                    ?? (prefixed ? prefixedNamesError(t, type, v, v.run(t), depth: depth, scopes) : nil) {
                                    failure = error
                                    return
                                }
                                if t == node?.index {
                                    for (name, value) in inherited {
                                        out.append(0x20)
                                        name.withUnsafeBufferPointer { out.append($0) }
                                        out.append("=\"")
                                        if let at = value.withUnsafeBufferPointer({ _escaped($0, escapes, 2 | 1, out) }) {
                                            failure = value.withUnsafeBufferPointer { Self.unwritable(t, "a namespace declared around it", $0, at) }
                                            return
                                        }
                                        out.append(UInt8(ascii: "\""))
                                    }
                                }
                                if let value = v.value(t) {
                                    // An element's own value (a JSON scalar's): its text.
                                    out.append(UInt8(ascii: ">"))
                                    if let at = _escaped(value, escapes, 1, out) {
                                        failure = Self.unwritable(t, "its value", value, at)
                                        return
                                    }
                                } else {
                                    startTagOpen = true
                                }
                            case .text:
                                // Text beside the document element (a lenient HTML parse of
                                // what was not HTML keeps some): XML has only whitespace there.
                                if depth == 0 && node == nil, let value = v.value(t) {
                                    guard value.allSatisfy(_isJSONWhitespace) else {
                                        failure = ExportError(path: nil, message: "node at slot \(t) is text outside the document element, which an XML document cannot hold")
                                        return
                                    }
                                    // Whitespace as it is (a reference, `&#13;`, is no whitespace there).
                                    out.append(value)
                                    break
                                }
                                if let value = v.value(t), let at = _escaped(value, escapes, 1, out) {
                                    failure = Self.unwritable(t, "its text", value, at)
                                    return
                                }
                            case .cdata:
                                if depth == 0 && node == nil {
                                    failure = ExportError(path: nil, message: "node at slot \(t) is a CDATA section outside the document element, which an XML document cannot hold")
                                    return
                                }
                                if let value = v.value(t), let at = _firstUnwritable(value) {
                                    failure = Self.unwritable(t, "its CDATA section", value, at)
                                    return
                                }
                                cdata(v.value(t))
                            case .comment:
                                if let value = v.value(t) {
                                    if let at = _firstUnwritable(value) {
                                        failure = Self.unwritable(t, "its comment", value, at)
                                        return
                                    }
                                    // XML's comments cannot hold "--", nor end with "-".
                                    if value.last == 0x2D || zip(value, value.dropFirst()).contains(where: { $0 == 0x2D && $1 == 0x2D }) {
                                        failure = ExportError(path: nil, message: "node at slot \(t) is a comment holding \"--\" or ending with \"-\", which an XML comment cannot hold")
                                        return
                                    }
                                }
                                out.append("<!--")
                                if let value = v.value(t) { out.append(value) }
                                out.append("-->")
                            case .processingInstruction:
                                let target = names.name(type)
                                // The XML declaration of a document read as HTML (libxml2's
                                // HTML parser reports one as an instruction): this writer
                                // writes its own.
                                if target.count == 3 && target[0] | 0x20 == 0x78 && target[1] | 0x20 == 0x6D && target[2] | 0x20 == 0x6C {
                                    leftOut = true
                                    break
                                }
                                if let error = processingInstructionError(t, type, v.value(t)) {
                                    failure = error
                                    return
                                }
                                names.append(type, to: out, between: _NameTable.pair("<?"))
                                if let value = v.value(t), !value.isEmpty {
                                    out.append(0x20)
                                    out.append(value)
                                }
                                out.append("?>")
                            }
                            depth &+= 1
                        } else {
                            depth &-= 1
                            let x = ~t
                            let type = v.typeID[Int(x)]
                            if depth == scopes.innermostDepth { scopes.pop() }
                            if names.kind(type) == .element {
                                if startTagOpen {
                                    out.append("/>")
                                    startTagOpen = false
                                } else {
                                    names.append(type, to: out, between: _NameTable.pair("</"), and: _NameTable.pair(">"))
                                }
                            }
                            if depth == 0 && !leftOut { out.append(0x0A) }
                            leftOut = false
                        }
                    }
                    out.spill()
                }
                if failure == nil && node == nil && rootElements == 0 {
                    failure = ExportError(path: nil, message: "the tree has no element, and an XML document has one (a node is written alone as a subtree)")
                }
            }
        }
        if let failure { throw failure }
    }

    /// What is wrong with declaring the namespace prefix `local` as `value`, if anything:
    /// `xmlns` is reserved, XML 1.0's namespaces cannot undeclare a prefix (an empty
    /// value), `xml` is bound to XML's namespace and that namespace to no other prefix, and
    /// `xmlns`'s namespace to none.
    private static func declarationProblem(_ local: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> String? {
        if _bytes(local, are: "xmlns") { return "which XML reserves" }
        if value.isEmpty { return "as empty, which XML 1.0's namespaces cannot do" }
        if _bytes(local, are: "xml") != _bytes(value, are: "http://www.w3.org/XML/1998/namespace") || _bytes(value, are: "http://www.w3.org/2000/xmlns/") {
            return "as \"\(String(decoding: value, as: UTF8.self))\": XML binds the prefix xml to its own namespace, and that namespace to no other prefix, and the prefix xmlns's to none"
        }
        return nil
    }

    /// Whether `t`'s name is `xmlns:` and a prefix.
    @inline(always)
    private func isDeclaration(_ t: Int32) -> Bool {
        names.prefixKey(t) == xmlnsKey && _bytes(names.prefix(t)!, are: "xmlns")
    }

    /// Takes element `x`'s namespace declarations (`xmlns:p` attributes) into `scopes`,
    /// with a scope at `depth` if it has any, and checks its names against them: why it
    /// cannot be written with namespaces, if it cannot. A prefix must be declared on the
    /// element or around it (or be `xml`); a declaration may not be empty (XML 1.0's
    /// namespaces cannot undeclare a prefix), nor declare `xmlns`, nor bind `xml` to
    /// another namespace or another prefix to XML's. (What a lenient HTML parse keeps,
    /// `<o:p>`, `<p a:b="1">`, `xmlns:p=""`, is written by no other rule.) Called only for
    /// an element with a prefixed name, its own or an attribute's (a declaration's).
    @inline(never)
    private func prefixedNamesError(_ x: Int32, _ type: Int32, _ v: _WriterView, _ run: Range<Int>, depth: Int, _ scopes: _NamespaceScopes) -> ExportError? {
        var declared = 0
        for e in run {
            let n = v.name(e)
            guard isDeclaration(n) else { continue }
            let local = UnsafeBufferPointer(rebasing: names.name(n)[6...])
            if let problem = Self.declarationProblem(local, v.attributeValue(e)) {
                return ExportError(path: nil, message: "node at slot \(x) declares the namespace prefix \"\(String(decoding: local, as: UTF8.self))\" \(problem)")
            }
            scopes.keys.append(_NameTable.key(of: local))
            scopes.declarations.append(n)
            declared += 1
        }
        if declared > 0 { scopes.open(depth: depth, count: declared) }
        let generation = scopes.generation
        func bound(_ t: Int32) -> Bool {
            if names.boundIn[Int(t)] == generation { return true }
            let key = names.prefixKey(t)
            guard key != 0, let p = names.prefix(t) else { return true }
            func found() -> Bool {
                if key == xmlKey && _bytes(p, are: "xml") { return true }
                var k = scopes.keys.count - 1
                while k >= 0 {
                    if scopes.keys[k] == key {
                        let local = names.name(scopes.declarations[k])
                        if local.count == p.count + 6 {
                            var same = true
                            for j in 0 ..< p.count where p[j] != local[6 + j] { same = false }
                            if same { return true }
                        }
                    }
                    k -= 1
                }
                for (j, inherited) in scopes.inherited.enumerated() where scopes.inheritedKeys[j] == key && inherited.elementsEqual(p) { return true }
                return false
            }
            guard found() else { return false }
            names.boundIn[Int(t)] = generation
            return true
        }
        func unbound(_ what: String, _ t: Int32) -> ExportError {
            ExportError(path: nil, message: "node at slot \(x) \(what) \"\(String(decoding: names.name(t), as: UTF8.self))\", whose prefix is declared neither on it nor around it")
        }
        if !bound(type) { return unbound("is named", type) }
        for e in run {
            let n = v.name(e)
            if !isDeclaration(n) && !bound(n) { return unbound("has an attribute named", n) }
        }
        return nil
    }

    /// The namespace declarations (`xmlns` and `xmlns:p` attributes, with their values) in
    /// scope at element `x` from the elements around it, nearest first, but those `x`
    /// makes itself: what a subtree written alone declares on its root.
    private func inheritedDeclarations(of x: Int32, _ v: _WriterView) -> [(name: [UInt8], value: [UInt8])] {
        func declarations(_ y: Int32) -> [(name: [UInt8], value: [UInt8])] {
            guard names.kind(v.typeID[Int(y)]) == .element else { return [] }
            return v.run(y).compactMap { e in
                let n = v.name(e)
                let name = names.name(n)
                let isDeclaration = name.elementsEqual("xmlns".utf8) || names.prefix(n).map { $0.elementsEqual("xmlns".utf8) } == true
                return isDeclaration ? (Array(name), Array(v.attributeValue(e))) : nil
            }
        }
        var seen = Set(declarations(x).map(\.name))
        var found: [(name: [UInt8], value: [UInt8])] = []
        var y = v.parent[Int(x)]
        while y >= 0 {
            for d in declarations(y) where seen.insert(d.name).inserted { found.append(d) }
            y = v.parent[Int(y)]
        }
        return found
    }

    /// That node `x` cannot be written: `what` holds a character XML 1.0 cannot hold.
    private static func unwritable(_ x: Int32, _ what: String, _ text: UnsafeBufferPointer<UInt8>, _ offset: Int) -> ExportError {
        ExportError(path: nil, message: "node at slot \(x): \(what) holds \(_unwritableCharacter(text, at: offset)), a character XML 1.0 cannot hold, even as a reference")
    }

    /// Why the processing instruction `x` of `type` with `data` cannot be written, if it
    /// cannot: its target is not an XML name, or its data
    /// holds "?>" or a character XML cannot hold.
    private func processingInstructionError(_ x: Int32, _ type: Int32, _ data: UnsafeBufferPointer<UInt8>?) -> ExportError? {
        // A name without a colon: XML's namespaces allow none in a target.
        guard names.isXMLName(type) && names.prefixKey(type) == 0 else {
            return ExportError(path: nil, message: "node at slot \(x) is a processing instruction whose target \"\(String(decoding: names.name(type), as: UTF8.self))\" is not an XML name without a colon")
        }
        guard let data else { return nil }
        if let at = _firstUnwritable(data) { return Self.unwritable(x, "its processing instruction's data", data, at) }
        if zip(data, data.dropFirst()).contains(where: { $0 == 0x3F && $1 == 0x3E }) {
            return ExportError(path: nil, message: "node at slot \(x) is a processing instruction whose data holds \"?>\", which XML cannot hold")
        }
        return nil
    }

    /// `<name` and the attributes of slot `x`: its named ones, then its ``NodeAttribute``
    /// texts and its tag under names it has no named attribute of; or why they cannot be
    /// written (a name that is not an XML name, a character XML cannot hold).
    @inline(always)
    private func startTag(_ x: Int32, _ type: Int32, _ v: _WriterView, _ escapes: UnsafePointer<UInt8>, prefixed: inout Bool) -> ExportError? {
        names.append(type, to: out, between: _NameTable.pair("<"))
        let run = v.run(x)
        for e in run {
            let name = v.name(e)
            guard names.isXMLName(name) else {
                return ExportError(path: nil, message: "node at slot \(x) has an attribute named \"\(String(decoding: names.name(name), as: UTF8.self))\", which is not an XML attribute name")
            }
            if names.prefixKey(name) != 0 { prefixed = true }
            names.append(name, to: out, between: _NameTable.pair(" "), and: _NameTable.pair("=\""))
            let value = v.attributeValue(e)
            if let at = _escaped(value, escapes, 2 | 1, out) {
                return Self.unwritable(x, "its attribute \"\(String(decoding: names.name(name), as: UTF8.self))\"", value, at)
            }
            out.append(UInt8(ascii: "\""))
        }
        func has(_ name: Int32) -> Bool { run.contains { v.name($0) == name } }
        if v.hasColumns {
            if let error = column(.id, "id", idName, x, v, escapes, has) { return error }
            if let error = column(.className, "class", className, x, v, escapes, has) { return error }
            if let error = column(.key, "key", keyName, x, v, escapes, has) { return error }
        }
        let tag = v.tag(x, tree)
        if tag != 0 && !has(tagName) {
            out.append(" tag=\"")
            var digits = String(tag)
            digits.withUTF8 { out.append($0) }
            out.append(UInt8(ascii: "\""))
        }
        return nil
    }

    /// ` name="text"` for slot `x`'s text of `attribute`, unless it has a named attribute of
    /// that name (`id`, `nameID`); or why it cannot be written.
    private func column(
        _ attribute: NodeAttribute, _ name: StaticString, _ nameID: Int32, _ x: Int32, _ v: _WriterView, _ escapes: UnsafePointer<UInt8>,
        _ has: (Int32) -> Bool
    ) -> ExportError? {
        guard let text = v.column(attribute, x), !has(nameID) else { return nil }
        out.append(0x20)
        out.append(name)
        out.append("=\"")
        if let at = _escaped(text, escapes, 2 | 1, out) { return Self.unwritable(x, "its \(name)", text, at) }
        out.append(UInt8(ascii: "\""))
        return nil
    }

    /// A CDATA section of `value`: "]]>" inside it ends one section and starts the next.
    private func cdata(_ value: UnsafeBufferPointer<UInt8>?) {
        out.append("<![CDATA[")
        if let value {
            var from = 0
            var k = 0
            while k + 2 < value.count {
                if value[k] == 0x5D && value[k + 1] == 0x5D && value[k + 2] == 0x3E {
                    out.append(UnsafeBufferPointer(rebasing: value[from ..< k + 2]))
                    out.append("]]><![CDATA[")
                    from = k + 2
                }
                k += 1
            }
            out.append(UnsafeBufferPointer(rebasing: value[from...]))
        }
        out.append("]]>")
    }
}

/// Writes a tree as JSON: a tree of JSON values as it was read, markup as JsonML.
struct _JSONWriter {
    let tree: ViewTree
    let names: _NameTable
    let out: _OutputSink
    let json: (object: Int32, array: Int32, string: Int32, number: Int32, bool: Int32, null: Int32)

    init(tree: ViewTree, names: _NameTable, out: _OutputSink) {
        (self.tree, self.names, self.out) = (tree, names, out)
        let r = TypeRegistry.shared
        json = (r.typeID(named: "object").rawValue, r.typeID(named: "array").rawValue, r.typeID(named: "string").rawValue,
                r.typeID(named: "number").rawValue, r.typeID(named: "bool").rawValue, r.typeID(named: "null").rawValue)
    }

    /// Whether a node of `type` is written (not a comment or a processing instruction,
    /// which JsonML leaves out).
    @inline(always)
    private func written(_ type: Int32) -> Bool {
        let kind = names.kind(type)
        return kind != .comment && kind != .processingInstruction
    }

    func write(subtree node: NodeID?) {
        tree._withWriterView { v in
            // Several roots written (a document's comments beside its element, a forest): an array.
            var roots = 0
            if node == nil {
                tree._forEachTokenRun(of: nil) { tokens in
                    for t in tokens where t >= 0 && v.parent[Int(t)] < 0 && written(v.typeID[Int(t)]) { roots += 1 }
                }
            }
            let many = roots > 1
            if many { out.append(UInt8(ascii: "[")) }
            var first = true
            // Per open node, innermost last: whether a child was written (a comma before
            // the next), and whether it is an object (members have names).
            var open: [(written: Bool, object: Bool)] = []
            // Nodes left out (comments, processing instructions) that are open.
            var skipping = 0
            tree._forEachTokenRun(of: node) { tokens in
                for t in tokens {
                    if t >= 0 {
                        let type = v.typeID[Int(t)]
                        if skipping > 0 || !written(type) {
                            skipping += 1
                            continue
                        }
                        if open.isEmpty {
                            if !first && many { out.append(UInt8(ascii: ",")) }
                            first = false
                        } else {
                            if open[open.count - 1].written { out.append(UInt8(ascii: ",")) }
                            open[open.count - 1].written = true
                            if open[open.count - 1].object {
                                Self.string(v.column(.key, t) ?? UnsafeBufferPointer(start: nil, count: 0), into: out)
                                out.append(UInt8(ascii: ":"))
                            }
                        }
                        enter(t, type, v)
                        // A JsonML element has its name written: its first child needs a comma.
                        let markup = type != json.object && type != json.array && !isScalar(type)
                        open.append((markup, type == json.object))
                    } else {
                        if skipping > 0 {
                            skipping -= 1
                            continue
                        }
                        open.removeLast()
                        let type = v.typeID[Int(~t)]
                        if type == json.object { out.append(UInt8(ascii: "}")) }
                        else if type == json.array || (!isScalar(type) && names.kind(type) == .element) { out.append(UInt8(ascii: "]")) }
                    }
                }
                out.spill()
            }
            if many { out.append(UInt8(ascii: "]")) }
            out.append(0x0A)
        }
    }

    @inline(always)
    private func isScalar(_ type: Int32) -> Bool {
        type == json.string || type == json.number || type == json.bool || type == json.null
    }

    @inline(always)
    private func enter(_ x: Int32, _ type: Int32, _ v: _WriterView) {
        if type == json.object { return out.append(UInt8(ascii: "{")) }
        if type == json.array { return out.append(UInt8(ascii: "[")) }
        if isScalar(type) {
            let value = v.value(x)
            if let value, type == json.string {
                Self.string(value, into: out)
            } else if let value, !value.isEmpty, type != json.null {
                out.append(value)
            } else {
                // `null`, or a value a skeleton import did not keep.
                out.append("null")
            }
            return
        }
        // Markup, as JsonML: an element is an array of its name, its attributes (an
        // object, when it has any) and its children; text is a string.
        switch names.kind(type) {
        case .element:
            out.append(UInt8(ascii: "["))
            Self.string(names.name(type), into: out)
            let run = v.run(x)
            for e in run {
                out.append(e == run.lowerBound ? ",{" : ",")
                Self.string(names.name(v.name(e)), into: out)
                out.append(UInt8(ascii: ":"))
                Self.string(v.attributeValue(e), into: out)
            }
            if !run.isEmpty { out.append(UInt8(ascii: "}")) }
        default:
            Self.string(v.value(x) ?? UnsafeBufferPointer(start: nil, count: 0), into: out)
        }
    }

    /// `utf8` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`...
    /// or `\u00XX`; everything else as it is (UTF-8).
    static func string(_ utf8: UnsafeBufferPointer<UInt8>, into out: _OutputSink) {
        out.append(UInt8(ascii: "\""))
        if let p = utf8.baseAddress {
            let n = utf8.count
            var from = 0
            var k = 0
            while true {
                while k < n && p[k] >= 0x20 && p[k] != 0x22 && p[k] != 0x5C { k &+= 1 }
                if k > from { out.append(p + from, k - from) }
                if k == n { break }
                let b = p[k]
                switch b {
                case 0x22: out.append("\\\"")
                case 0x5C: out.append("\\\\")
                case 0x0A: out.append("\\n")
                case 0x0D: out.append("\\r")
                case 0x09: out.append("\\t")
                case 0x08: out.append("\\b")
                case 0x0C: out.append("\\f")
                default:
                    let hex: StaticString = "0123456789abcdef"
                    out.append("\\u00")
                    out.append(hex.utf8Start[Int(b >> 4)])
                    out.append(hex.utf8Start[Int(b & 15)])
                }
                k &+= 1
                from = k
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
