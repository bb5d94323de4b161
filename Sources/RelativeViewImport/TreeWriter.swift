#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import RelativeViewCore

/// The formats a tree is written in.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// XML, UTF-8: elements with their attributes, text, CDATA sections, comments and
    /// processing instructions, escaped where XML requires. A node's `NodeAttribute`
    /// texts (a skeleton import's `id` and `class`, a JSON member name as `key`) and a
    /// non-zero tag are written as attributes when no named attribute of that name exists,
    /// and an element's own value (a JSON scalar's) as its text.
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
        guard fd >= 0 else { throw ExportError(path: path, message: "cannot create a file beside it: \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var sink = _OutputSink(fd: fd)
        do {
            try _write(format, subtree: node, into: &sink)
            try sink.flush()
            // mkstemp makes the file readable by its owner only; a written document is
            // made as `open` would (0666 less the umask).
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
            guard close(fd) == 0 else { throw _SinkError(errno: errno) }
            sink.fd = -1
            guard rename(temporary, path) == 0 else { throw _SinkError(errno: errno) }
        } catch let error as _SinkError {
            if sink.fd >= 0 { close(sink.fd) }
            unlink(temporary)
            throw ExportError(path: path, message: String(cString: strerror(error.errno)))
        } catch let error as ExportError {
            if sink.fd >= 0 { close(sink.fd) }
            unlink(temporary)
            throw ExportError(path: path, message: error.message)
        } catch {
            if sink.fd >= 0 { close(sink.fd) }
            unlink(temporary)
            throw ExportError(path: path, message: "\(error)")
        }
    }

    /// The tree (or the subtree of `node`) as `format`, UTF-8.
    ///
    /// - Throws: ``ExportError`` naming the node that the format cannot hold.
    /// - Complexity: O(nodes written + text written)
    public func bytes(as format: ExportFormat, subtree node: NodeID? = nil) throws(ExportError) -> [UInt8] {
        var sink = _OutputSink(fd: -1)
        do {
            try _write(format, subtree: node, into: &sink)
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError(path: nil, message: "\(error)")
        }
        return sink.buffer
    }

    /// The tree (or the subtree of `node`) as `format`, a string.
    ///
    /// - Throws: ``ExportError`` naming the node that the format cannot hold.
    /// - Complexity: O(nodes written + text written)
    public func string(as format: ExportFormat, subtree node: NodeID? = nil) throws(ExportError) -> String {
        String(decoding: try bytes(as: format, subtree: node), as: UTF8.self)
    }

    private func _write(_ format: ExportFormat, subtree node: NodeID?, into sink: inout _OutputSink) throws {
        switch format {
        case .xml:
            var writer = _XMLWriter(tree: self)
            try writer.write(subtree: node, into: &sink)
        case .json:
            var writer = _JSONWriter(tree: self)
            try writer.write(subtree: node, into: &sink)
        }
    }
}

struct _SinkError: Error {
    var errno: Int32
}

/// Bytes on their way out: gathered in a buffer, written to `fd` (when there is one) a
/// megabyte at a time.
struct _OutputSink {
    var fd: Int32
    var buffer: [UInt8] = []
    static let chunk = 1 << 20

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(fd >= 0 ? Self.chunk + 4096 : 1 << 16)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) { buffer.append(byte) }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(contentsOf: bytes) }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes the buffer out if it holds a chunk's worth (a file sink).
    @inline(__always)
    mutating func spill() throws {
        if fd >= 0 && buffer.count >= Self.chunk { try flush() }
    }

    mutating func flush() throws {
        guard fd >= 0 else { return }
        try buffer.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw _SinkError(errno: errno)
                }
                done += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// What a writer knows of a type: its kind and its name's UTF-8.
struct _TypeEntry {
    var kind: NodeKind
    var name: [UInt8]
}

/// Type entries by type id, filled on first sight (one registry lookup per type).
struct _TypeTable {
    private var entries: [_TypeEntry?] = []
    private let types = _ContentTypes.shared

    @inline(__always)
    mutating func entry(_ type: TypeID) -> _TypeEntry {
        let i = Int(type.rawValue)
        if i < entries.count, let e = entries[i] { return e }
        return fill(type)
    }

    private mutating func fill(_ type: TypeID) -> _TypeEntry {
        let i = Int(type.rawValue)
        if i >= entries.count { entries.append(contentsOf: repeatElement(nil, count: i + 1 - entries.count)) }
        let name = TypeRegistry.shared.name(of: type)
        let kind = types.kind(of: type)
        let e = _TypeEntry(kind: kind, name: Array((kind == .processingInstruction ? String(name.dropFirst()) : name).utf8))
        entries[i] = e
        return e
    }
}

/// Escapes for XML: per byte, whether text (`&`, `<`, `>`, CR) or an attribute value
/// (those, `"`, tab and newline) must escape it.
private let _xmlTextEscapes: [Bool] = (0 ..< 256).map { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x0D }
private let _xmlAttributeEscapes: [Bool] = (0 ..< 256).map { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x0D || $0 == 0x22 || $0 == 0x09 || $0 == 0x0A }

/// Writes a tree as XML, walking the index's tokens in document order.
struct _XMLWriter {
    let tree: ViewTree
    var types = _TypeTable()
    /// A start tag written up to its attributes, its `>` or `/>` waiting for what follows.
    var startTagOpen = false
    let keyName: TypeID
    let idName: TypeID
    let className: TypeID
    let tagName: TypeID

    init(tree: ViewTree) {
        self.tree = tree
        let r = TypeRegistry.shared
        (keyName, idName, className, tagName) = (r.typeID(named: "key"), r.typeID(named: "id"), r.typeID(named: "class"), r.typeID(named: "tag"))
    }

    mutating func write(subtree node: NodeID?, into out: inout _OutputSink) throws {
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        var depth = 0
        try tree._forEachTokenRun(of: node) { tokens in
            for t in tokens {
                if t >= 0 {
                    if startTagOpen {
                        out.append(UInt8(ascii: ">"))
                        startTagOpen = false
                    }
                    try enter(t, into: &out)
                    depth += 1
                } else {
                    depth -= 1
                    exit(~t, into: &out)
                    if depth == 0 { out.append(0x0A) }
                }
            }
            try out.spill()
        }
    }

    private mutating func enter(_ x: Int32, into out: inout _OutputSink) throws {
        let e = types.entry(tree._typeID(ofSlot: x))
        switch e.kind {
        case .element:
            try checkName(e.name, of: x)
            out.append(UInt8(ascii: "<"))
            e.name.withUnsafeBufferPointer { out.append($0) }
            var named = false
            tree._forEachNamedAttribute(ofSlot: x) { name, value in
                named = true
                out.append(0x20)
                types.entry(name).name.withUnsafeBufferPointer { out.append($0) }
                out.append("=\"")
                Self.escape(value, _xmlAttributeEscapes, into: &out)
                out.append(UInt8(ascii: "\""))
            }
            if !named || !tree._hasNamedAttribute(idName, ofSlot: x) { column(.id, "id", x, &out) }
            if !named || !tree._hasNamedAttribute(className, ofSlot: x) { column(.className, "class", x, &out) }
            if !named || !tree._hasNamedAttribute(keyName, ofSlot: x) { column(.key, "key", x, &out) }
            let tag = tree._tag(ofSlot: x)
            if tag != 0 && (!named || !tree._hasNamedAttribute(tagName, ofSlot: x)) {
                out.append(" tag=\"")
                var digits = String(tag)
                digits.withUTF8 { out.append($0) }
                out.append(UInt8(ascii: "\""))
            }
            startTagOpen = true
            // An element's own value (a JSON scalar's): its text.
            tree._withValue(ofSlot: x) { value in
                guard let value else { return }
                out.append(UInt8(ascii: ">"))
                startTagOpen = false
                Self.escape(value, _xmlTextEscapes, into: &out)
            }
        case .text:
            tree._withValue(ofSlot: x) { if let v = $0 { Self.escape(v, _xmlTextEscapes, into: &out) } }
        case .cdata:
            out.append("<![CDATA[")
            tree._withValue(ofSlot: x) { value in
                guard let value else { return }
                // "]]>" cannot be inside a section: it ends one and starts the next.
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
        case .comment:
            out.append("<!--")
            tree._withValue(ofSlot: x) { if let v = $0 { out.append(v) } }
            out.append("-->")
        case .processingInstruction:
            out.append("<?")
            e.name.withUnsafeBufferPointer { out.append($0) }
            tree._withValue(ofSlot: x) { value in
                guard let value, !value.isEmpty else { return }
                out.append(0x20)
                out.append(value)
            }
            out.append("?>")
        }
    }

    private mutating func exit(_ x: Int32, into out: inout _OutputSink) {
        let e = types.entry(tree._typeID(ofSlot: x))
        guard e.kind == .element else { return }
        if startTagOpen {
            out.append("/>")
            startTagOpen = false
            return
        }
        out.append("</")
        e.name.withUnsafeBufferPointer { out.append($0) }
        out.append(UInt8(ascii: ">"))
    }

    /// `name="text"` for a `NodeAttribute` text of slot `x`, if it has one.
    private func column(_ attribute: NodeAttribute, _ name: StaticString, _ x: Int32, _ out: inout _OutputSink) {
        guard var text = tree._attribute(attribute, ofSlot: x) else { return }
        out.append(0x20)
        out.append(name)
        out.append("=\"")
        text.withUTF8 { Self.escape($0, _xmlAttributeEscapes, into: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// Traps nothing: a type name that is not an XML name (a Swift type's `Optional<Int>`)
    /// is an error naming the node.
    private func checkName(_ name: [UInt8], of x: Int32) throws {
        guard let first = name.first else { throw ExportError(path: nil, message: "node at slot \(x) has an empty type name: not an XML element name") }
        func start(_ b: UInt8) -> Bool { (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x5F || b == 0x3A || b >= 0x80 }
        func inner(_ b: UInt8) -> Bool { start(b) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E }
        guard start(first), name.allSatisfy(inner) else {
            throw ExportError(path: nil, message: "node at slot \(x) has the type name \"\(String(decoding: name, as: UTF8.self))\", which is not an XML element name")
        }
    }

    /// `text` with every byte `escapes` marks written as a reference.
    @inline(__always)
    static func escape(_ text: UnsafeBufferPointer<UInt8>, _ escapes: [Bool], into out: inout _OutputSink) {
        escapes.withUnsafeBufferPointer { escapes in
            var from = 0
            for k in 0 ..< text.count where escapes[Int(text[k])] {
                if k > from { out.append(UnsafeBufferPointer(rebasing: text[from ..< k])) }
                switch text[k] {
                case 0x26: out.append("&amp;")
                case 0x3C: out.append("&lt;")
                case 0x3E: out.append("&gt;")
                case 0x22: out.append("&quot;")
                case 0x09: out.append("&#9;")
                case 0x0A: out.append("&#10;")
                default: out.append("&#13;")
                }
                from = k + 1
            }
            if from < text.count { out.append(UnsafeBufferPointer(rebasing: text[from...])) }
        }
    }
}

/// Writes a tree as JSON: a tree of JSON values as it was read, markup as JsonML.
struct _JSONWriter {
    let tree: ViewTree
    var types = _TypeTable()
    let json: (object: TypeID, array: TypeID, string: TypeID, number: TypeID, bool: TypeID, null: TypeID)
    /// Per open node, innermost last: whether a child was written (a comma before the
    /// next), and whether it is an object (members have names).
    var open: [(written: Bool, object: Bool)] = []

    init(tree: ViewTree) {
        self.tree = tree
        let r = TypeRegistry.shared
        json = (r.typeID(named: "object"), r.typeID(named: "array"), r.typeID(named: "string"), r.typeID(named: "number"), r.typeID(named: "bool"), r.typeID(named: "null"))
    }

    mutating func write(subtree node: NodeID?, into out: inout _OutputSink) throws {
        // Several roots (a document's comments beside its element, a forest): an array.
        var roots = 0
        if node == nil {
            tree._forEachTokenRun(of: nil) { tokens in
                for t in tokens where t >= 0 && tree._parent(ofSlot: t) < 0 && written(t) { roots += 1 }
            }
        }
        let many = roots > 1
        if many { out.append(UInt8(ascii: "[")) }
        var first = true
        try tree._forEachTokenRun(of: node) { tokens in
            for t in tokens {
                if t >= 0 {
                    if open.isEmpty && written(t) {
                        if !first && many { out.append(UInt8(ascii: ",")) }
                        first = false
                    }
                    enter(t, into: &out)
                } else {
                    exit(~t, into: &out)
                }
            }
            try out.spill()
        }
        if many { out.append(UInt8(ascii: "]")) }
        out.append(0x0A)
    }

    /// Whether slot `x` is written (not a comment or a processing instruction, which
    /// JsonML leaves out).
    private mutating func written(_ x: Int32) -> Bool {
        let kind = types.entry(tree._typeID(ofSlot: x)).kind
        return kind != .comment && kind != .processingInstruction
    }

    /// Writes the comma and the member name a value needs before it.
    private mutating func separate(_ x: Int32, into out: inout _OutputSink) {
        guard !open.isEmpty else { return }
        if open[open.count - 1].written { out.append(UInt8(ascii: ",")) }
        open[open.count - 1].written = true
        if open[open.count - 1].object {
            let key = tree._attribute(.key, ofSlot: x) ?? ""
            Self.string(key, into: &out)
            out.append(UInt8(ascii: ":"))
        }
    }

    private mutating func enter(_ x: Int32, into out: inout _OutputSink) {
        let type = tree._typeID(ofSlot: x)
        if type == json.object || type == json.array {
            separate(x, into: &out)
            out.append(type == json.object ? UInt8(ascii: "{") : UInt8(ascii: "["))
            open.append((false, type == json.object))
            return
        }
        if type == json.string || type == json.number || type == json.bool || type == json.null {
            separate(x, into: &out)
            tree._withValue(ofSlot: x) { value in
                if let value, type == json.string {
                    Self.string(value, into: &out)
                } else if let value, !value.isEmpty, type != json.null {
                    out.append(value)
                } else {
                    // `null`, or a value a skeleton import did not keep.
                    out.append("null")
                }
            }
            open.append((true, false))  // a leaf: its exit closes nothing
            return
        }
        // Markup, as JsonML.
        let e = types.entry(type)
        switch e.kind {
        case .element:
            separate(x, into: &out)
            out.append(UInt8(ascii: "["))
            e.name.withUnsafeBufferPointer { Self.string($0, into: &out) }
            var any = false
            tree._forEachNamedAttribute(ofSlot: x) { name, value in
                out.append(any ? "," : ",{")
                any = true
                types.entry(name).name.withUnsafeBufferPointer { Self.string($0, into: &out) }
                out.append(UInt8(ascii: ":"))
                Self.string(value, into: &out)
            }
            if any { out.append(UInt8(ascii: "}")) }
            open.append((true, false))
        case .text, .cdata:
            separate(x, into: &out)
            tree._withValue(ofSlot: x) { Self.string($0 ?? UnsafeBufferPointer(start: nil, count: 0), into: &out) }
            open.append((true, false))
        case .comment, .processingInstruction:
            open.append((true, false))  // left out; its exit is skipped too
            _skipped.append(x)
        }
    }

    /// Nodes left out (comments, processing instructions), so their exit writes nothing.
    private var _skipped: [Int32] = []

    private mutating func exit(_ x: Int32, into out: inout _OutputSink) {
        open.removeLast()
        if let last = _skipped.last, last == x {
            _skipped.removeLast()
            return
        }
        let type = tree._typeID(ofSlot: x)
        if type == json.object { return out.append(UInt8(ascii: "}")) }
        if type == json.array { return out.append(UInt8(ascii: "]")) }
        if type == json.string || type == json.number || type == json.bool || type == json.null { return }
        switch types.entry(type).kind {
        case .element: out.append(UInt8(ascii: "]"))
        default: break
        }
    }

    static func string(_ text: String, into out: inout _OutputSink) {
        var text = text
        text.withUTF8 { string($0, into: &out) }
    }

    /// `utf8` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`...
    /// or `\u00XX`; everything else as it is (UTF-8).
    static func string(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout _OutputSink) {
        out.append(UInt8(ascii: "\""))
        var from = 0
        for k in 0 ..< utf8.count {
            let b = utf8[k]
            guard b < 0x20 || b == 0x22 || b == 0x5C else { continue }
            if k > from { out.append(UnsafeBufferPointer(rebasing: utf8[from ..< k])) }
            switch b {
            case 0x22: out.append("\\\"")
            case 0x5C: out.append("\\\\")
            case 0x0A: out.append("\\n")
            case 0x0D: out.append("\\r")
            case 0x09: out.append("\\t")
            case 0x08: out.append("\\b")
            case 0x0C: out.append("\\f")
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append("\\u00")
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 15)])
            }
            from = k + 1
        }
        if from < utf8.count { out.append(UnsafeBufferPointer(rebasing: utf8[from...])) }
        out.append(UInt8(ascii: "\""))
    }
}
