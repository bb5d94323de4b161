import RelativeViewCore

/// Streams a JSON document (RFC 8259) into a `ViewTreeBuilder`: every object, array and
/// value becomes a node as it is scanned, with no document tree in between. Iterative, so
/// nesting depth is bounded only by memory.
///
/// Node types are `object`, `array`, `string`, `number`, `bool` and `null`; an object's
/// members are its children in document order (their keys are not nodes); tags are 0.
///
/// The document must be UTF-8, as RFC 8259 requires of JSON exchanged between systems:
/// a string or member name holding a byte sequence that is not well-formed UTF-8 (an
/// overlong form, a surrogate, a code point past U+10FFFF, a cut sequence, a stray byte)
/// is an error at that byte. A `\u` escape of a lone surrogate is accepted, as RFC 8259
/// allows (its section 8.2).
public struct JSONTreeReader: Sendable {
    private let types: [TypeID]

    /// A reader that registers its six type names in `registry`.
    ///
    /// - Complexity: O(1)
    public init(registry: TypeRegistry = .shared) {
        types = ["object", "array", "string", "number", "bool", "null"].map(registry.typeID(named:))
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
        let result: _JSONSyntaxError? = bytes.withUnsafeBufferPointer { buffer in
            var scanner = _JSONScanner(bytes: buffer, types: types)
            return scanner.scan(into: &builder)
        }
        if let error = result {
            let (line, column) = _lineAndColumn(of: error.offset, in: bytes)
            throw ImportError(path: path, line: line, column: column, message: error.message)
        }
    }
}

/// A syntax error at a byte offset; the line and column are worked out only when one is thrown.
struct _JSONSyntaxError: Error {
    var offset: Int
    var message: String
}

/// The line and column (from 1; the column in bytes) of a byte offset.
func _lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
    var line = 1
    var lineStart = 0
    for i in 0 ..< min(offset, bytes.count) where bytes[i] == UInt8(ascii: "\n") {
        line += 1
        lineStart = i + 1
    }
    return (line, offset - lineStart + 1)
}

@inline(__always)
func _isJSONWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}

/// The scanner proper: a loop over values with an explicit stack of open containers.
struct _JSONScanner {
    private enum Container {
        case array, object

        /// The byte that closes this container.
        var closer: UInt8 { self == .array ? UInt8(ascii: "]") : UInt8(ascii: "}") }
    }
    private enum Kind: Int { case object, array, string, number, bool, null }

    let bytes: UnsafeBufferPointer<UInt8>
    let types: [TypeID]
    private var i = 0
    private var stack: [Container] = []

    init(bytes: UnsafeBufferPointer<UInt8>, types: [TypeID]) {
        self.bytes = bytes
        self.types = types
    }

    mutating func scan(into builder: inout ViewTreeBuilder) -> _JSONSyntaxError? {
        do {
            try scanDocument(into: &builder)
            return nil
        } catch {
            return error
        }
    }

    private mutating func scanDocument(into builder: inout ViewTreeBuilder) throws(_JSONSyntaxError) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        skipWhitespace()
        if i == bytes.count { throw _JSONSyntaxError(offset: i, message: "empty document: expected a JSON value") }
        value: while true {
            // A value is expected at `i`.
            skipWhitespace()
            guard i < bytes.count else { throw endOfInput("a value") }
            switch bytes[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let container: Container = bytes[i] == UInt8(ascii: "{") ? .object : .array
                builder.open(type: types[(container == .object ? Kind.object : Kind.array).rawValue])
                stack.append(container)
                i += 1
                skipWhitespace()
                if i < bytes.count && bytes[i] == container.closer {
                    closeContainer(&builder)
                } else {
                    if container == .object { try scanMemberName() }
                    continue value
                }
            case UInt8(ascii: "\""):
                try scanString()
                leaf(.string, &builder)
            case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
                try scanNumber()
                leaf(.number, &builder)
            case UInt8(ascii: "t"):
                try scanLiteral("true")
                leaf(.bool, &builder)
            case UInt8(ascii: "f"):
                try scanLiteral("false")
                leaf(.bool, &builder)
            case UInt8(ascii: "n"):
                try scanLiteral("null")
                leaf(.null, &builder)
            default:
                throw unexpected("a value")
            }
            // After a value: a separator, the end of containers, or the end of the document.
            while let container = stack.last {
                skipWhitespace()
                guard i < bytes.count else { throw endOfInput(container == .array ? "',' or ']'" : "',' or '}'") }
                let byte = bytes[i]
                if byte == UInt8(ascii: ",") {
                    i += 1
                    if container == .object {
                        skipWhitespace()
                        try scanMemberName()
                    }
                    continue value
                }
                guard byte == container.closer else {
                    throw unexpected(container == .array ? "',' or ']' after an array element" : "',' or '}' after an object member")
                }
                closeContainer(&builder)
            }
            skipWhitespace()
            if i < bytes.count { throw unexpected("the end of the document after the top-level value") }
            return
        }
    }

    /// Consumes the closing bracket of the innermost container and closes its node.
    private mutating func closeContainer(_ builder: inout ViewTreeBuilder) {
        i += 1
        stack.removeLast()
        builder.close()
    }

    private func leaf(_ kind: Kind, _ builder: inout ViewTreeBuilder) {
        builder.open(type: types[kind.rawValue])
        builder.close()
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while i < bytes.count && _isJSONWhitespace(bytes[i]) { i += 1 }
    }

    /// `"name"` then `:`, leaving `i` where the member's value starts.
    private mutating func scanMemberName() throws(_JSONSyntaxError) {
        guard i < bytes.count else { throw endOfInput("a member name (a string)") }
        guard bytes[i] == UInt8(ascii: "\"") else { throw unexpected("a member name (a string)") }
        try scanString()
        skipWhitespace()
        guard i < bytes.count else { throw endOfInput("':'") }
        guard bytes[i] == UInt8(ascii: ":") else { throw unexpected("':' after a member name") }
        i += 1
    }

    private mutating func scanString() throws(_JSONSyntaxError) {
        let start = i
        i += 1
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\""):
                i += 1
                return
            case UInt8(ascii: "\\"):
                i += 1
                guard i < bytes.count else { break }
                switch bytes[i] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 1
                case UInt8(ascii: "u"):
                    for k in 1 ... 4 {
                        guard i + k < bytes.count, bytes[i + k].isHexDigit else {
                            throw _JSONSyntaxError(offset: i - 1, message: "invalid \\u escape: expected four hexadecimal digits")
                        }
                    }
                    i += 5
                default:
                    throw _JSONSyntaxError(offset: i - 1, message: "invalid escape '\\\(Unicode.Scalar(bytes[i]))' in a string")
                }
            case 0x00 ..< 0x20:
                throw _JSONSyntaxError(offset: i, message: "unescaped control character (0x\(String(byte, radix: 16))) in a string")
            case 0x80 ... 0xFF:
                i = try endOfUTF8Sequence(at: i)
            default:
                i += 1
            }
        }
        throw _JSONSyntaxError(offset: start, message: "unterminated string")
    }

    /// The index just after the UTF-8 sequence that starts at `i` (a byte from 0x80 on),
    /// which must be well-formed as Unicode's table 3-7 has it: no overlong form, no
    /// surrogate, nothing past U+10FFFF, no sequence cut short. RFC 8259 requires JSON
    /// exchanged between systems to be UTF-8; the error names the first byte that is not.
    private func endOfUTF8Sequence(at i: Int) throws(_JSONSyntaxError) -> Int {
        let length: Int
        let second: ClosedRange<UInt8>
        switch bytes[i] {
        case 0xC2 ... 0xDF: (length, second) = (2, 0x80 ... 0xBF)
        case 0xE0: (length, second) = (3, 0xA0 ... 0xBF)
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: (length, second) = (3, 0x80 ... 0xBF)
        case 0xED: (length, second) = (3, 0x80 ... 0x9F)
        case 0xF0: (length, second) = (4, 0x90 ... 0xBF)
        case 0xF1 ... 0xF3: (length, second) = (4, 0x80 ... 0xBF)
        case 0xF4: (length, second) = (4, 0x80 ... 0x8F)
        default: throw invalidUTF8(at: i)
        }
        for k in 1 ..< length {
            guard i + k < bytes.count else { throw invalidUTF8(at: i + k) }
            guard (k == 1 ? second : 0x80 ... 0xBF).contains(bytes[i + k]) else { throw invalidUTF8(at: i + k) }
        }
        return i + length
    }

    private func invalidUTF8(at offset: Int) -> _JSONSyntaxError {
        let what = offset < bytes.count ? "byte 0x\(String(bytes[offset], radix: 16))" : "the end of the document"
        return _JSONSyntaxError(offset: offset, message: "invalid UTF-8 in a string: \(what) (JSON must be UTF-8, RFC 8259)")
    }

    private mutating func scanNumber() throws(_JSONSyntaxError) {
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, bytes[i].isDigit else { throw number("a digit") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < bytes.count && bytes[i].isDigit { i += 1 }
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, bytes[i].isDigit else { throw number("a digit after '.'") }
            while i < bytes.count && bytes[i].isDigit { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < bytes.count, bytes[i].isDigit else { throw number("a digit in the exponent") }
            while i < bytes.count && bytes[i].isDigit { i += 1 }
        }
    }

    private mutating func scanLiteral(_ word: StaticString) throws(_JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - i >= expected.count, bytes[i ..< i + expected.count].elementsEqual(expected) else {
            throw unexpected("a value ('\(word)'?)")
        }
        i += expected.count
    }

    private func number(_ what: String) -> _JSONSyntaxError {
        i < bytes.count ? unexpected("\(what) in a number") : endOfInput("\(what) in a number")
    }

    private func unexpected(_ expected: String) -> _JSONSyntaxError {
        let byte = bytes[i]
        let shown = (0x21 ..< 0x7F).contains(byte) ? "'\(Unicode.Scalar(byte))'" : "byte 0x\(String(byte, radix: 16))"
        return _JSONSyntaxError(offset: i, message: "unexpected \(shown), expected \(expected)")
    }

    private func endOfInput(_ expected: String) -> _JSONSyntaxError {
        let open = stack.count
        let context = open > 0 ? " (\(open) array(s) or object(s) still open)" : ""
        return _JSONSyntaxError(offset: i, message: "unexpected end of the document, expected \(expected)\(context)")
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
