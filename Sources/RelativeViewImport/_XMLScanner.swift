internal import CByteCount
import RelativeViewCore

/// The XML reader's fast path: a scanner of its own for the documents most files are
/// (UTF-8, no document type declaration, names in ASCII, references that are character
/// references or XML's five predefined entities), which builds the tree straight from the
/// bytes, several times faster than libxml2's SAX interface with its callbacks.
///
/// It checks what XML 1.0 requires of such a document (nesting, names, attribute syntax
/// and uniqueness, references, characters, comments, CDATA sections, processing
/// instructions, one root) and gives up on anything else, saying so: then the reader rolls
/// the builder back and parses the document again with libxml2, which accepts what it
/// accepts and reports errors with its messages and positions. So the fast path decides
/// nothing about errors and no document is read differently: a test and a fuzz target
/// compare the two on every document they both read.
///
/// Given up on: a document type declaration; an XML declaration other than version 1.0 in
/// UTF-8; a name with a byte past ASCII, or with a colon not between two parts; a `tag`
/// value (and, keeping the skeleton, an `id` or `class` value) holding a reference or a
/// tab, newline or carriage return (a whole scan normalizes other values itself); an `xmlns:` declaration with an empty value; and
/// every error.
struct _XMLScanner: ~Copyable {
    private var w: _ByteWindow
    private var i = 0
    private let registry: TypeRegistry
    /// The names of the open elements, innermost last, as ranges of `cacheNames` (which only
    /// grows, so a range stays valid when its cache slot is taken by another name) with
    /// their first 8 bytes as a word: an array's uniqueness checks and the byte-by-byte
    /// name comparison were a tenth of an end tag's cost.
    private var open = _RawStack<OpenElement>()

    /// An open element's name: where it is in `cacheNames`, its length, and its first 8
    /// bytes read as a little-endian word (zero past its end).
    struct OpenElement {
        var start: Int32
        var length: Int32
        var prefix: UInt64
    }
    /// Type ids by element name: a small hash table of names seen (checked byte by byte).
    private var cacheNames: [UInt8] = []
    /// `cacheSize` entries in memory of the scanner's own (an array's bounds and
    /// uniqueness checks, and an optional's tag, on every name cost a tenth of a lookup).
    private let cache: UnsafeMutablePointer<CachedName>

    /// A name of the cache: where its bytes are in `cacheNames`, its length (-1: an empty
    /// entry), its type id, and its first 8 bytes as a little-endian word.
    struct CachedName {
        var start: Int32
        var length: Int32
        var type: TypeID
        var prefix: UInt64
    }
    /// Per byte: a character that text can hold without a closer look (not `<`, `&`, `]`,
    /// a control character or a byte past ASCII); and one that can be in an ASCII name
    /// after its first (a colon aside, which names check on their own).
    private let plainText: UnsafeMutablePointer<Bool>
    private let nameByte: UnsafeMutablePointer<Bool>
    private var sawRoot = false
    /// The attributes of the start tag being read (a raw stack, emptied per tag: an
    /// array's uniqueness checks were a tenth of an attribute-heavy tag's cost).
    private var attributes = _RawStack<_Attribute>()

    /// An attribute of the start tag being read: its name, its value, whether the value is
    /// plain (no reference, tab, newline or carriage return: its bytes are its value), and
    /// what the uniqueness check compares first.
    struct _Attribute: BitwiseCopyable {
        // Bounds, not ranges: `Range` is not `BitwiseCopyable`.
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
        var plain: Bool
        /// Whether the name has a prefix (`prefix:local`).
        var prefixed: Bool
        /// The local part's length and first 7 bytes as one word: two names whose local
        /// parts differ here are neither equal nor equal in their local parts, so most pairs
        /// of a tag are told apart in one comparison, not a byte loop (attribute-heavy
        /// documents spent a third of their import in that check).
        var localKey: UInt64

        var name: Range<Int> { nameStart ..< nameEnd }
        var value: Range<Int> { valueStart ..< valueEnd }
    }
    /// Whether the scan keeps the whole document (text, every attribute, comments, CDATA
    /// sections, processing instructions), or names and `id`/`class`/`tag` only.
    private let whole: Bool
    /// A text being gathered: its decoded bytes so far, when it could not be handed over
    /// as one run of the buffer (a reference, a carriage return, a refill inside it).
    private var gathered = _RawStack<UInt8>(capacity: 256)
    /// Where the raw part of the text being gathered starts in the buffer (after what is
    /// in `gathered`), or -1 when no text is being gathered.
    private var textStart = -1
    /// The type ids of the content kinds.
    private let contentTypes = _ContentTypes.shared
    /// The document offset where the last CDATA section made ended (-1 if something else
    /// was made since), and its node's text so far.
    private var lastCDATAEnd = -1
    private var lastCDATA: [UInt8] = []

    private static let cacheSize = 1024

    init(source: _ByteSource, registry: TypeRegistry, bufferSize: Int = _ByteWindow.defaultCapacity, whole: Bool = false) {
        w = _ByteWindow(source: source, capacity: bufferSize)
        self.registry = registry
        self.whole = whole
        cache = .allocate(capacity: Self.cacheSize)
        // Empty entries (length -1); any type id stands in for the type none has.
        cache.initialize(repeating: CachedName(start: 0, length: -1, type: _ContentTypes.shared.text, prefix: 0), count: Self.cacheSize)
        plainText = .allocate(capacity: 256)
        nameByte = .allocate(capacity: 256)
        for b in 0 ..< 256 {
            // A whole scan normalizes line ends in text: a carriage return needs a look.
            plainText[b] = (b >= 0x20 && b < 0x80 && b != 0x3C && b != 0x26 && b != 0x5D) || b == 0x09 || b == 0x0A || (b == 0x0D && !whole)
            nameByte[b] = (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
                || b == 0x5F || b == 0x2E || b == 0x2D
        }
    }

    deinit {
        cache.deallocate()
        plainText.deallocate()
        nameByte.deallocate()
    }

    /// Reads the whole document into `builder` (`nil`), or gives up, leaving whatever it
    /// built, and returns the document offset where it did.
    mutating func run<Sink: _TreeSink & ~Copyable>(into builder: inout Sink, progress: (Int) -> Void) -> Int? {
        scan(into: &builder, progress: progress) ? nil : w.base + i
    }

    private var buffer: UnsafeMutablePointer<UInt8> { w.buffer }
    private var count: Int { w.count }

    /// Refills the window keeping the bytes from `keep` on (`i` follows): false at the end.
    private mutating func refill(keep: Int, _ progress: (Int) -> Void) -> Bool {
        // `i` is not handed over as `inout`: that kept it in memory in every scanning loop.
        guard !w.atEnd else { return false }
        if textStart >= 0 {
            // The text gathered so far leaves the buffer: into `gathered`, up to `keep`.
            gather(upTo: keep)
            textStart = 0
        }
        i -= keep
        return w.refill(keep: keep, progress: progress)
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }

    /// The scan; false to give up.
    private mutating func scan<Sink: _TreeSink & ~Copyable>(into builder: inout Sink, progress: (Int) -> Void) -> Bool {
        _ = refill(keep: 0, progress)
        while count < 6 && refill(keep: 0, progress) {}
        if count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { i = 3 }
        if count - i >= 5 && buffer[i] == UInt8(ascii: "<") && buffer[i + 1] == UInt8(ascii: "?")
            && buffer[i + 2] == UInt8(ascii: "x") && buffer[i + 3] == UInt8(ascii: "m") && buffer[i + 4] == UInt8(ascii: "l") {
            guard declaration(progress) else { return false }
        }
        while true {
            // Text: in the root, anything well-formed; outside it, whitespace only.
            let depth = open.count
            let buffer = self.buffer
            var k = i
            if depth > 0 {
                let plainText = self.plainText
                // Sixteen bytes at a time (one SSE2 compare each; the window's padding holds
                // the 16 read from the sentinel on) to one that may need a look; the table
                // decides. Eight at a time (SWAR) took more of the scanning thread on text
                // of short words between characters past ASCII.
                // Most elements are followed by markup at once: one look at the table first.
                // A character past ASCII whole in the buffer is checked here too (text in
                // most languages is full of them), the rest by the cases below.
                while plainText[Int(buffer[k])] || buffer[k] >= 0x80 {
                    let stops = rv_text_stops16(buffer + k)
                    if stops == 0 {
                        k &+= 16
                        continue
                    }
                    k &+= stops.trailingZeroBitCount
                    let b = buffer[k]
                    if plainText[Int(b)] {
                        k &+= 1
                    } else if b >= 0x80, var next = Self.shortCharacterEnd(buffer, at: k) {
                        // A word of Cyrillic, Greek or CJK is a run of such characters: the
                        // next ones checked here, with no word of stops computed for each.
                        while buffer[next] >= 0x80, let after = Self.shortCharacterEnd(buffer, at: next) { next = after }
                        k = next
                    } else if b >= 0x80 && count &- k >= 4, let next = utf8(at: k), next <= count {
                        k = next
                    } else {
                        break
                    }
                }
            } else {
                while Self.isSpace(buffer[k]) { k += 1 }
            }
            if whole && depth > 0 && textStart < 0 && k > i { textStart = i }
            i = k
            let c = buffer[i]
            if c == UInt8(ascii: "<") {
                if whole && textStart >= 0 { endText(&builder) }
                if count - i < 10 && !w.atEnd {
                    _ = refill(keep: i, progress)
                    continue
                }
                guard markup(&builder, progress) else { return false }
            } else if i == count {
                // The sentinel: more of the document, or its end.
                if refill(keep: i, progress) { continue }
                return w.readError == nil && sawRoot && open.count == 0
            } else if depth == 0 {
                return false  // text outside the root
            } else if c == UInt8(ascii: "&") {
                if whole && textStart < 0 { textStart = i }
                if let (end, byte) = predefinedEntity(at: i) {
                    // `&amp;`, `&lt;`, `&gt;`, `&quot;` or `&apos;`, whole in the buffer.
                    if whole {
                        gather(upTo: i)
                        gathered.push(byte)
                        textStart = end
                    }
                    i = end
                    continue
                }
                if let (end, value) = Self.characterReference(buffer, at: i, count: count), end <= count {
                    // `&#...;` or `&#x...;` of a character XML allows, whole in the buffer.
                    if whole {
                        gather(upTo: i)
                        gathered.didAppend(_putUTF8(value, at: gathered.reserveEnd(4)))
                        textStart = end
                    }
                    i = end
                    continue
                }
                guard let r = withWhole(progress, { $0.reference(at: $0.i) }) else { return false }
                if whole {
                    gather(upTo: i)
                    decodeReference(at: i)
                    textStart = r
                }
                i = r
            } else if whole && c == 0x0D {
                // A line end: CR LF and a lone CR are one LF in the document's text.
                if textStart < 0 { textStart = i }
                if count - i < 2 && !w.atEnd {
                    _ = refill(keep: i, progress)
                    continue
                }
                gather(upTo: i)
                gathered.push(0x0A)
                i += buffer[i + 1] == 0x0A ? 2 : 1
                textStart = i
            } else if c == UInt8(ascii: "]") {
                if whole && textStart < 0 { textStart = i }
                if count - i < 3 && !w.atEnd {
                    _ = refill(keep: i, progress)
                    continue
                }
                if buffer[i + 1] == UInt8(ascii: "]") && buffer[i + 2] == UInt8(ascii: ">") { return false }
                i += 1
            } else if c >= 0x80 {
                if whole && textStart < 0 { textStart = i }
                if count - i < 4 && !w.atEnd {
                    _ = refill(keep: i, progress)
                    continue
                }
                guard let next = utf8(at: i), next <= count else { return false }
                i = next
            } else {
                return false  // a control character
            }
        }
    }

    /// Runs `part` (which returns where it ended, or `nil` if the bytes are wrong or run
    /// out) on a window holding its whole token: while it runs out and more of the document
    /// follows, refills keeping the token and runs it again.
    private mutating func withWhole(_ progress: (Int) -> Void, _ part: (inout _XMLScanner) -> Int?) -> Int? {
        while true {
            guard let end = part(&self) else { return nil }  // wrong
            if end <= count { return end }
            // Cut by the buffer's end: again with more of the document, if there is more.
            if !refill(keep: i, progress) { return nil }
        }
    }

    /// The markup at `i` (a `<`): a tag, a comment, a CDATA section or a processing
    /// instruction, each read whole (refilling while it runs past the buffer).
    private mutating func markup<Sink: _TreeSink & ~Copyable>(_ builder: inout Sink, _ progress: (Int) -> Void) -> Bool {
        let next = buffer[i + 1]
        if next == UInt8(ascii: "/") {
            // Most end tags are whole in the buffer: read at once, with no closure, and
            // again whole only when cut.
            guard var end = endTag(at: i) else { return false }
            if end > count {
                guard let whole = withWhole(progress, { $0.endTag(at: $0.i) }) else { return false }
                end = whole
            }
            // The end tag matched the innermost open element.
            open.pop()
            builder.closeNode()
            i = end
            return true
        }
        if next == UInt8(ascii: "!") {
            if buffer[i + 2] == UInt8(ascii: "-") && buffer[i + 3] == UInt8(ascii: "-") {
                guard let end = withWhole(progress, { $0.comment(at: $0.i) }) else { return false }
                if whole { leaf(contentTypes.comment, (i + 4) ..< (end - 3), &builder) }
                i = end
                return true
            }
            if open.count > 0 && equal((i + 2) ..< (i + 9), "[CDATA[") {
                guard let end = withWhole(progress, { $0.cdata(at: $0.i) }) else { return false }
                if whole { cdataSection((i + 9) ..< (end - 3), &builder) }
                i = end
                return true
            }
            return false  // a document type declaration, or not XML
        }
        if next == UInt8(ascii: "?") {
            guard let end = withWhole(progress, { $0.processingInstruction(at: $0.i) }) else { return false }
            if whole { processingInstruction(from: i, to: end, &builder) }
            i = end
            return true
        }
        if open.count == 0 && sawRoot { return false }  // a second root
        var tag = _StartTag()
        // Most tags are whole in the buffer: read at once, and again whole only when cut.
        guard var end = startTag(at: i, into: &tag) else { return false }
        if end > count {
            guard let whole = withWhole(progress, { s in
                tag = _StartTag()
                return s.startTag(at: s.i, into: &tag)
            }) else { return false }
            end = whole
        }
        guard let (type, cached) = typeID(at: i + 1, length: tag.nameLength) else { return false }
        if tag.empty {
            builder.appendLeafNode(tag: tag.tag, type: type)
        } else {
            builder.openNode(tag: tag.tag, type: type)
            open.push(cached)
        }
        // The node opened last, whether it is still open or not.
        if whole {
            // Namespace declarations first, then the other attributes, each in document
            // order: as libxml2 reports them (apart), so that both readers make one tree.
            for pass in tag.declaresNamespaces ? 0 ..< 2 : 1 ..< 2 {
            for a in 0 ..< tag.attributeCount where !tag.declaresNamespaces || isNamespaceDeclaration(attributes[a].name) == (pass == 0) {
                let name = attributes[a].name
                guard let (type, _) = typeID(at: name.lowerBound, length: name.count) else { return false }
                let (value, plain) = (attributes[a].value, attributes[a].plain)
                if plain {
                    builder.addAttribute(name: type, utf8: UnsafeBufferPointer(start: buffer + value.lowerBound, count: value.count))
                } else {
                    normalizedAttributeValue(value)
                    builder.addAttribute(name: type, utf8: gathered.elements)
                    gathered.removeAll()
                }
            }
            }
        } else {
            if let id = tag.id { builder.setAttribute(.id, utf8: UnsafeBufferPointer(start: buffer + id.lowerBound, count: id.count)) }
            if let c = tag.className { builder.setAttribute(.className, utf8: UnsafeBufferPointer(start: buffer + c.lowerBound, count: c.count)) }
        }
        sawRoot = true
        i = end
        return true
    }

    /// What a start tag holds that the tree keeps (ranges of buffer indices).
    struct _StartTag {
        var nameLength = 0
        var attributeCount = 0
        var empty = false
        var tag = 0
        var id: Range<Int>?
        var className: Range<Int>?
        /// Whether an attribute is a namespace declaration (`xmlns`, `xmlns:p`).
        var declaresNamespaces = false
    }

    /// The end of an ASCII name starting at `j`: a colon only between two parts, at most
    /// one. `nil` if there is no name there or it is one the scanner leaves to libxml2.
    @inline(always)  // a call would copy the scanner to borrow it
    private func name(at j: Int) -> Int? {
        nameAndColon(at: j)?.end
    }

    /// ``name(at:)``, and where its colon is (-1 for none).
    @inline(always)  // a call would copy the scanner to borrow it
    private func nameAndColon(at j: Int) -> (end: Int, colon: Int)? {
        // Locals, so that the loop reads registers rather than the scanner.
        let buffer = self.buffer
        let nameByte = self.nameByte
        let count = self.count
        let first = buffer[j]
        if j >= count { return (j, -1) }
        guard (first >= 0x61 && first <= 0x7A) || (first >= 0x41 && first <= 0x5A) || first == 0x5F else { return nil }
        var k = j &+ 1
        var colon = -1
        while true {
            while nameByte[Int(buffer[k])] { k &+= 1 }
            // Stopped at a byte that is not in a name, or at a colon (not in `nameByte`).
            guard buffer[k] == UInt8(ascii: ":") else { break }
            if colon >= 0 { return nil }
            colon = k
            k &+= 1
        }
        if k >= count { return (k, -1) }  // cut: the caller asks for more
        if buffer[k] >= 0x80 { return nil }
        if colon >= 0 {
            // The local part must start as a name does.
            let l = buffer[colon &+ 1]
            guard colon &+ 1 < k, (l >= 0x61 && l <= 0x7A) || (l >= 0x41 && l <= 0x5A) || l == 0x5F else { return nil }
        }
        return (k, colon)
    }

    /// `<name (S attribute)* S? (/)?>` at `j`; the index after it, or `nil`.
    private mutating func startTag(at j: Int, into tag: inout _StartTag) -> Int? {
        let buffer = self.buffer
        let count = self.count
        guard let nameEnd = name(at: j + 1) else { return nil }
        tag.nameLength = nameEnd - j - 1
        var k = nameEnd
        var attributeCount = 0
        // One bit per attribute's local-name key, hashed: a key whose bit is clear is new,
        // and only a set bit needs the compare with each attribute before it.
        var keyBits: UInt64 = 0
        attributes.removeAll()
        while true {
            let spaced = Self.isSpace(buffer[k])
            while Self.isSpace(buffer[k]) { k += 1 }
            if buffer[k] == UInt8(ascii: ">") { return k + 1 }
            if buffer[k] == UInt8(ascii: "/") {
                guard buffer[k + 1] == UInt8(ascii: ">") else { return k + 1 >= count ? count + 1 : nil }
                tag.empty = true
                return k + 2
            }
            if k == count { return k + 1 }  // cut: ask for more
            guard spaced, let (attributeEnd, colon) = nameAndColon(at: k) else { return nil }
            let attribute = k ..< attributeEnd
            k = attributeEnd
            while Self.isSpace(buffer[k]) { k += 1 }
            guard buffer[k] == UInt8(ascii: "=") else { return k == count ? k + 1 : nil }
            k += 1
            while Self.isSpace(buffer[k]) { k += 1 }
            let quote = buffer[k]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return k == count ? k + 1 : nil }
            k += 1
            let valueStart = k
            var plain = true  // no reference, tab, newline or carriage return
            while true {
                // Eight bytes at a time to the first that needs a look (the sentinel is one).
                let stops = Self.attributeValueStops(_SWAR.word64(buffer + k), quote: quote)
                if stops == 0 {
                    k += 8
                    continue
                }
                k += stops.trailingZeroBitCount >> 3
                let b = buffer[k]
                if b == quote { break }
                if b >= 0x20 && b < 0x80 && b != UInt8(ascii: "<") && b != UInt8(ascii: "&") {
                    k += 1
                } else if b == UInt8(ascii: "&") {
                    guard let r = reference(at: k) else { return nil }
                    if r > count { return r }
                    plain = false
                    k = r
                } else if b == 0x09 || b == 0x0A || b == 0x0D {
                    plain = false
                    k += 1
                } else if b >= 0x80 {
                    guard let next = utf8(at: k) else { return nil }
                    if next > count { return next }
                    k = next
                } else {
                    return k == count ? k + 1 : nil  // `<`, a control character, or the sentinel
                }
            }
            let value = valueStart ..< k
            k += 1
            // Unique names (compared as written: two prefixes for one namespace are left
            // to libxml2 by giving up on prefixed names that share a local part).
            let prefixed = colon >= 0
            let localName = prefixed ? (colon &+ 1) ..< attributeEnd : attribute
            let localKey = _SWAR.prefixWord(buffer + localName.lowerBound, length: min(localName.count, 7))
                | UInt64(truncatingIfNeeded: localName.count) << 56
            let keyBit: UInt64 = 1 &<< ((localKey &* 0x9E37_79B9_7F4A_7C15) &>> 58)
            if keyBits & keyBit != 0 {
            for n in 0 ..< attributeCount where attributes[n].localKey == localKey {
                // Equal names have equal local parts, so equal keys: only these need a look.
                let other = attributes[n]
                if equal(other.name, attribute) { return nil }
                if prefixed && other.prefixed, let a = localPart(other.name), equal(a, localName) { return nil }
            }
            }
            keyBits |= keyBit
            attributes.push(_Attribute(nameStart: attribute.lowerBound, nameEnd: attribute.upperBound, valueStart: value.lowerBound,
                                       valueEnd: value.upperBound, plain: plain, prefixed: prefixed, localKey: localKey))
            attributeCount += 1
            tag.attributeCount = attributeCount
            let a = attribute.lowerBound
            if attribute.count == 3 && buffer[a] == UInt8(ascii: "t") && buffer[a + 1] == UInt8(ascii: "a") && buffer[a + 2] == UInt8(ascii: "g") {
                guard plain else { return nil }
                tag.tag = _integerValue(UnsafeBufferPointer(start: buffer + value.lowerBound, count: value.count)) ?? 0
            } else if attribute.count == 2 && buffer[a] == UInt8(ascii: "i") && buffer[a + 1] == UInt8(ascii: "d") {
                guard plain || whole else { return nil }
                tag.id = value
            } else if attribute.count == 5 && buffer[a] == UInt8(ascii: "c") && equal(attribute, "class") {
                guard plain || whole else { return nil }
                tag.className = value
            } else if attribute.count > 6 && buffer[a] == UInt8(ascii: "x") && equal(attribute.prefix(6), "xmlns:") {
                let declared = attribute.dropFirst(6)
                if value.isEmpty || equal(declared, "xml") || equal(declared, "xmlns") { return nil }
                tag.declaresNamespaces = true
            } else if attribute.count == 5 && buffer[a] == UInt8(ascii: "x") && equal(attribute, "xmlns") {
                tag.declaresNamespaces = true
            }
        }
    }

    /// The bytes of `w` an attribute value's scan must look at: the quote, `<`, `&`,
    /// control characters (the zero sentinel among them) and bytes past ASCII. Exact for
    /// the lowest (SWAR: a flag above a true one may be false).
    @inline(always)
    private static func attributeValueStops(_ w: UInt64, quote: UInt8) -> UInt64 {
        _SWAR.bytesEqual(to: quote, in: w) | _SWAR.bytesEqual(to: UInt8(ascii: "<"), in: w) | _SWAR.bytesEqual(to: UInt8(ascii: "&"), in: w)
            | _SWAR.bytesLess(than: 0x20, in: w) | (w & _SWAR.high)
    }

    // MARK: Content (a whole scan)

    /// Whether the attribute name at `name` is `xmlns` or `xmlns:` and a prefix.
    @inline(always)
    private func isNamespaceDeclaration(_ name: Range<Int>) -> Bool {
        name.count >= 5 && buffer[name.lowerBound] == UInt8(ascii: "x") && equal(name.prefix(5), "xmlns")
            && (name.count == 5 || buffer[name.lowerBound + 5] == UInt8(ascii: ":"))
    }

    /// Moves the raw text from `textStart` up to `end` into `gathered`.
    @inline(always)
    private mutating func gather(upTo end: Int) {
        if textStart >= 0 && end > textStart { gathered.appendWords(buffer + textStart, count: end - textStart) }
    }

    /// Ends the text being gathered at `i` (markup follows): a text node, its bytes handed
    /// over from the buffer when nothing was gathered apart.
    private mutating func endText<Sink: _TreeSink & ~Copyable>(_ builder: inout Sink) {
        builder.appendLeafNode(tag: 0, type: contentTypes.text)
        if gathered.count == 0 {
            builder.setValue(utf8: UnsafeBufferPointer(start: buffer + textStart, count: i - textStart))
        } else {
            gather(upTo: i)
            builder.setValue(utf8: gathered.elements)
            gathered.removeAll()
        }
        textStart = -1
    }

    /// A leaf of `type` (a comment, a CDATA section) holding the bytes of `range`, line
    /// ends normalized: the last child of the innermost open element, or a root.
    private mutating func leaf<Sink: _TreeSink & ~Copyable>(_ type: TypeID, _ range: Range<Int>, _ builder: inout Sink) {
        builder.appendLeafNode(tag: 0, type: type)
        setNormalizedValue(range, &builder)
        lastCDATAEnd = -1
    }

    /// A CDATA section holding the bytes of `range`. Sections next to each other make one
    /// node, as libxml2's push parser reports them (one section in pieces, and two sections
    /// in a row, alike).
    private mutating func cdataSection<Sink: _TreeSink & ~Copyable>(_ range: Range<Int>, _ builder: inout Sink) {
        let raw = UnsafeBufferPointer(start: buffer + range.lowerBound, count: range.count)
        if lastCDATAEnd == w.base + i {
            // The section before ended right here: this one continues its node's text.
            lastCDATA.append(contentsOf: raw)
        } else {
            builder.appendLeafNode(tag: 0, type: contentTypes.cdata)
            lastCDATA.removeAll(keepingCapacity: true)
            lastCDATA.append(contentsOf: raw)
        }
        lastCDATAEnd = w.base + range.upperBound + 3
        let normalized = lastCDATA.contains(0x0D) ? lastCDATA.withUnsafeBufferPointer(Self.normalizedLineEnds) : lastCDATA
        normalized.withUnsafeBufferPointer { builder.setValue(utf8: $0) }
    }

    /// `bytes` with CR LF and lone CRs as LF.
    private static func normalizedLineEnds(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var k = 0
        while k < bytes.count {
            if bytes[k] == 0x0D {
                out.append(0x0A)
                k += k + 1 < bytes.count && bytes[k + 1] == 0x0A ? 2 : 1
            } else {
                out.append(bytes[k])
                k += 1
            }
        }
        return out
    }

    /// Gives the node made last the bytes of `range` as its value, CR LF and lone CRs as LF.
    private mutating func setNormalizedValue<Sink: _TreeSink & ~Copyable>(_ range: Range<Int>, _ builder: inout Sink) {
        let raw = UnsafeBufferPointer(start: buffer + range.lowerBound, count: range.count)
        guard raw.contains(0x0D) else { return builder.setValue(utf8: raw) }
        Self.normalizedLineEnds(raw).withUnsafeBufferPointer { builder.setValue(utf8: $0) }
    }

    /// `<?target data?>` from `j` to `end`: a node of type `?target` whose value is the data.
    private mutating func processingInstruction<Sink: _TreeSink & ~Copyable>(from j: Int, to end: Int, _ builder: inout Sink) {
        var k = j + 2
        while k < end - 2 && !Self.isSpace(buffer[k]) && buffer[k] != UInt8(ascii: "?") { k += 1 }
        let target = String(decoding: UnsafeBufferPointer(start: buffer + j + 2, count: k - j - 2), as: UTF8.self)
        while k < end - 2 && Self.isSpace(buffer[k]) { k += 1 }
        builder.appendLeafNode(tag: 0, type: registry.typeID(named: NodeKind.processingInstructionTypeName(target: target)))
        setNormalizedValue(k ..< end - 2, &builder)
    }

    /// Appends the UTF-8 of the reference at `k` (checked by `reference(at:)`) to `gathered`.
    private mutating func decodeReference(at k: Int) {
        // Checked whole in the buffer already: one of the two readers below takes it.
        if let (_, value) = Self.characterReference(buffer, at: k, count: count) {
            gathered.didAppend(_putUTF8(value, at: gathered.reserveEnd(4)))
        } else if let (_, byte) = predefinedEntity(at: k) {
            gathered.push(byte)
        } else {
            preconditionFailure("decodeReference(at:) of a reference reference(at:) did not check")
        }
    }

    /// The value of the attribute at `range` into `gathered`, normalized as XML does for
    /// an attribute of no declared type: references decoded, each tab, newline and carriage
    /// return a space (CR LF one space), a character reference's character kept as it is.
    private mutating func normalizedAttributeValue(_ range: Range<Int>) {
        var k = range.lowerBound
        while k < range.upperBound {
            let b = buffer[k]
            if b == UInt8(ascii: "&") {
                decodeReference(at: k)
                while buffer[k] != UInt8(ascii: ";") { k += 1 }
                k += 1
            } else if b == 0x0D {
                gathered.push(0x20)
                k += k + 1 < range.upperBound && buffer[k + 1] == 0x0A ? 2 : 1
            } else {
                gathered.push(b == 0x09 || b == 0x0A ? 0x20 : b)
                k += 1
            }
        }
    }

    /// The part after the colon of a prefixed name, or `nil`.
    @inline(always)  // a call would copy the scanner to borrow it
    private func localPart(_ name: Range<Int>) -> Range<Int>? {
        for k in name where buffer[k] == UInt8(ascii: ":") { return (k + 1) ..< name.upperBound }
        return nil
    }

    @inline(always)  // a call would copy the scanner to borrow it
    private func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && (0 ..< a.count).allSatisfy { buffer[a.lowerBound + $0] == buffer[b.lowerBound + $0] }
    }

    @inline(always)  // a call would copy the scanner to borrow it
    private func equal(_ a: Range<Int>, _ text: StaticString) -> Bool {
        a.count == text.utf8CodeUnitCount && (0 ..< a.count).allSatisfy { buffer[a.lowerBound + $0] == text.utf8Start[$0] }
    }

    /// `</name S?>` at `j`, matching the innermost open element; the index after it.
    @inline(always)  // a call would copy the scanner to borrow it
    private func endTag(at j: Int) -> Int? {
        guard open.count > 0 else { return nil }
        let innermost = open.top
        let start = Int(innermost.start)
        let length = Int(innermost.length)
        var k = j + 2
        // Cut by the buffer's end: ask for more (or, at the document's end, give up).
        if k + length > count { return count + 1 }
        // The first 8 bytes as one word (the buffer's padding makes the read safe), the
        // rest byte by byte.
        if _SWAR.prefixWord(buffer + k, length: length) != innermost.prefix { return nil }
        if length > 8 {
            for n in 8 ..< length where buffer[k + n] != cacheNames[start + n] { return nil }
        }
        k += length
        if nameByte[Int(buffer[k])] || buffer[k] == UInt8(ascii: ":") || buffer[k] >= 0x80 { return nil }  // a longer name
        while Self.isSpace(buffer[k]) { k += 1 }
        if buffer[k] == UInt8(ascii: ">") { return k + 1 }
        return k >= count ? k + 1 : nil
    }

    /// `<!-- ... -->` at `j` (no `--` inside); the index after it.
    private func comment(at j: Int) -> Int? {
        // The first `--` ends the comment, and must be followed by `>`.
        guard let end = characters(from: j + 4, until: "--") else { return nil }
        if end > count { return end }
        if buffer[end] == UInt8(ascii: ">") { return end + 1 }
        return end >= count ? count + 1 : nil
    }

    /// `<![CDATA[ ... ]]>` at `j`; the index after it.
    private func cdata(at j: Int) -> Int? {
        characters(from: j + 9, until: "]]>")
    }

    /// `<?target ... ?>` at `j` (not the XML declaration); the index after it.
    private func processingInstruction(at j: Int) -> Int? {
        guard let targetEnd = name(at: j + 2) else { return nil }
        let target = (j + 2) ..< targetEnd
        let xml: StaticString = "xml"
        if target.count == 3 && (0 ..< 3).allSatisfy({ buffer[j + 2 + $0] | 0x20 == xml.utf8Start[$0] }) { return nil }
        if target.contains(where: { buffer[$0] == UInt8(ascii: ":") }) { return nil }
        let k = targetEnd
        if buffer[k] == UInt8(ascii: "?") { return buffer[k + 1] == UInt8(ascii: ">") ? k + 2 : (k + 1 >= count ? count + 1 : nil) }
        guard Self.isSpace(buffer[k]) else { return k >= count ? count + 1 : nil }
        return characters(from: k, until: "?>")
    }

    /// The index just after the first `terminator` from `k` on, every byte before it part
    /// of a character XML allows; `nil` if one is not; past `count` if the buffer ends
    /// first. The body of comments, CDATA sections and processing instructions.
    @inline(always)  // a call would copy the scanner to borrow it
    private func characters(from k: Int, until terminator: StaticString) -> Int? {
        let t = terminator.utf8Start
        let n = terminator.utf8CodeUnitCount
        var k = k
        while true {
            if buffer[k] == t[0] {
                if k + n > count { return count + 1 }
                if (1 ..< n).allSatisfy({ buffer[k + $0] == t[$0] }) { return k + n }
                k += 1  // the terminator's first byte alone is a character
            } else {
                guard let next = character(at: k) else { return k >= count ? count + 1 : nil }
                if next > count { return next }
                k = next
            }
        }
    }

    /// The index after the character at `k` if it is one XML allows (`nil` at the sentinel;
    /// past `count` if it is cut).
    @inline(always)  // a call would copy the scanner to borrow it
    private func character(at k: Int) -> Int? {
        let b = buffer[k]
        if b >= 0x20 && b < 0x80 { return k + 1 }
        if b == 0x09 || b == 0x0A || b == 0x0D { return k + 1 }
        if b >= 0x80 { return utf8(at: k) }
        return nil
    }

    /// The index after the two- or three-byte character at `k` (a byte from 0x80 on), if
    /// it is one XML allows; `nil` for anything else (a four-byte or an ill-formed sequence,
    /// one cut by the buffer's end: ``utf8(at:)`` tells them apart). Static, with no table:
    /// most text past ASCII takes it, and a method call would copy the scanner.
    @inline(always)
    private static func shortCharacterEnd(_ buffer: UnsafeMutablePointer<UInt8>, at k: Int) -> Int? {
        let length = _shortUTF8Length(buffer + k)
        if length == 2 { return k &+ 2 }
        // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.
        if length == 3 && (buffer[k] != 0xEF || buffer[k &+ 1] != 0xBF || buffer[k &+ 2] < 0xBE) { return k &+ 3 }
        return nil
    }

    /// The index after the well-formed UTF-8 sequence at `k` (a byte from 0x80 on) of a
    /// character XML allows (not U+FFFE or U+FFFF); `nil` if it is not one; past `count`
    /// if it is cut.
    @inline(always)  // a call would copy the scanner to borrow it
    private func utf8(at k: Int) -> Int? {
        switch _utf8Sequence(in: buffer, at: k, count: count) {
        case .wellFormed(let end):
            // U+FFFE and U+FFFF are not XML characters.
            if end - k == 3 && buffer[k] == 0xEF && buffer[k + 1] == 0xBF && buffer[k + 2] >= 0xBE { return nil }
            return end
        case .illFormed: return nil
        case .cut: return count + 1
        }
    }

    /// `&name;` at `k`: a character reference to a character XML allows, or one of the
    /// five predefined entities; the index after it. Past `count` when cut.
    @inline(always)  // a call would copy the scanner to borrow it
    private func reference(at k: Int) -> Int? {
        var j = k + 1
        if buffer[j] == UInt8(ascii: "#") { return Self.characterReference(buffer, at: k, count: count)?.end }
        while nameByte[Int(buffer[j])] { j += 1 }
        if j == count { return count + 1 }
        guard buffer[j] == UInt8(ascii: ";") else { return nil }
        let entity = (k + 1) ..< j
        return equal(entity, "amp") || equal(entity, "lt") || equal(entity, "gt") || equal(entity, "quot") || equal(entity, "apos") ? j + 1 : nil
    }

    /// The end of the predefined entity reference at `k` (its `&`) and the byte it stands
    /// for, if it is one whole in the buffer (a reference cut by the buffer's end, or any
    /// other, is `nil`: ``reference(at:)`` takes it). One word compared with five: how the
    /// text's fast path and ``decodeReference(at:)`` read one.
    @inline(always)
    private func predefinedEntity(at k: Int) -> (end: Int, byte: UInt8)? {
        // Eight bytes from `k`, in the buffer or its zero padding (which holds no `;`, so a
        // match lies whole in the buffer).
        let w = _SWAR.word64(buffer + k)
        let four = w & 0xFFFF_FFFF
        if four == 0x3B74_6C26 { return (k &+ 4, UInt8(ascii: "<")) }  // "&lt;"
        if four == 0x3B74_6726 { return (k &+ 4, UInt8(ascii: ">")) }  // "&gt;"
        if w & 0xFF_FFFF_FFFF == 0x3B_706D_6126 { return (k &+ 5, UInt8(ascii: "&")) }  // "&amp;"
        let six = w & 0xFFFF_FFFF_FFFF
        if six == 0x3B74_6F75_7126 { return (k &+ 6, UInt8(ascii: "\"")) }  // "&quot;"
        if six == 0x3B73_6F70_6126 { return (k &+ 6, UInt8(ascii: "'")) }  // "&apos;"
        return nil
    }

    /// The end of the character reference at `k` (its `&`) and the character, if it is one
    /// of a character XML allows; past `count` if the buffer ends inside it (read it again
    /// after a refill); `nil` if it is none (or `k` is not `&#`). What ``reference(at:)``
    /// checks, the text's fast path and ``decodeReference(at:)`` decode. Static: a method
    /// call would copy the scanner.
    @inline(always)
    private static func characterReference(_ buffer: UnsafeMutablePointer<UInt8>, at k: Int, count: Int) -> (end: Int, value: UInt32)? {
        guard buffer[k &+ 1] == UInt8(ascii: "#") else { return nil }
        var j = k &+ 2
        let hex = buffer[j] == UInt8(ascii: "x")
        if hex { j &+= 1 }
        let digitsStart = j
        var value: UInt32 = 0
        while true {
            let b = buffer[j]
            let decimal = b &- 0x30
            let letter = (b | 0x20) &- 0x61
            let digit: UInt32
            if decimal < 10 { digit = UInt32(decimal) } else if hex && letter < 6 { digit = UInt32(letter) &+ 10 } else { break }
            value = value &* (hex ? 16 : 10) &+ digit
            if value > 0x10FFFF { return nil }
            j &+= 1
        }
        if j == count { return (count &+ 1, 0) }
        guard j > digitsStart, buffer[j] == UInt8(ascii: ";") else { return nil }
        let allowed = value == 0x9 || value == 0xA || value == 0xD || (0x20 ... 0xD7FF).contains(value)
            || (0xE000 ... 0xFFFD).contains(value) || (0x10000 ... 0x10FFFF).contains(value)
        return allowed ? (j &+ 1, value) : nil
    }

    /// `<?xml version="1.0" (encoding="UTF-8")? (standalone="yes|no")? ?>` at `i`.
    private mutating func declaration(_ progress: (Int) -> Void) -> Bool {
        guard let end = withWhole(progress, { s in s.declarationEnd(at: s.i) }) else { return false }
        i = end
        return true
    }

    private func declarationEnd(at j: Int) -> Int? {
        var k = j + 5
        var seen: [String] = []
        while true {
            let spaced = Self.isSpace(buffer[k])
            while Self.isSpace(buffer[k]) { k += 1 }
            if buffer[k] == UInt8(ascii: "?") {
                guard buffer[k + 1] == UInt8(ascii: ">"), seen.first == "version" else { return k + 1 >= count ? count + 1 : nil }
                return k + 2
            }
            if k >= count { return count + 1 }
            guard spaced, let nameEnd = name(at: k) else { return nil }
            let key = String(decoding: UnsafeBufferPointer(start: buffer + k, count: nameEnd - k), as: UTF8.self)
            k = nameEnd
            while Self.isSpace(buffer[k]) { k += 1 }
            guard buffer[k] == UInt8(ascii: "=") else { return k >= count ? count + 1 : nil }
            k += 1
            while Self.isSpace(buffer[k]) { k += 1 }
            let quote = buffer[k]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return k >= count ? count + 1 : nil }
            var e = k + 1
            while buffer[e] != quote && buffer[e] >= 0x20 && buffer[e] < 0x80 { e += 1 }
            guard buffer[e] == quote else { return e >= count ? count + 1 : nil }
            let value = String(decoding: UnsafeBufferPointer(start: buffer + k + 1, count: e - k - 1), as: UTF8.self)
            k = e + 1
            let order = ["version", "encoding", "standalone"]
            guard let rank = order.firstIndex(of: key), seen.allSatisfy({ order.firstIndex(of: $0)! < rank }) else { return nil }
            seen.append(key)
            switch key {
            case "version": if value != "1.0" { return nil }
            case "encoding": if value.lowercased() != "utf-8" { return nil }
            default: if value != "yes" && value != "no" { return nil }
            }
        }
    }

    /// The type id of the element name at `j`, through the cache, and where its bytes are
    /// in `cacheNames`; `nil` (give up) once 2 GiB of distinct names would not fit there.
    /// A name's first 8 bytes, read as one word (the buffer's padding makes that safe at
    /// its end), make its hash and settle most comparisons.
    @inline(always)
    private mutating func typeID(at j: Int, length: Int) -> (TypeID, OpenElement)? {
        // The common case inlined where names are read: a short name in its home slot.
        if length <= 8 {
            let prefix = _SWAR.prefixWord(buffer + j, length: length)
            let entry = cache[Self.home(Self.nameHash(prefix: prefix, length: length))]
            if Int(entry.length) == length && entry.prefix == prefix {
                return (entry.type, OpenElement(start: entry.start, length: entry.length, prefix: prefix))
            }
        }
        return lookUpTypeID(at: j, length: length)
    }

    /// A name's hash, as far as its first 8 bytes (`prefix`, zero past the name) and its
    /// length go: all of it for a name of at most 8 bytes, the start for a longer one.
    @inline(always)
    private static func nameHash(prefix: UInt64, length: Int) -> UInt64 {
        (prefix ^ UInt64(length)) &* 0x9E37_79B9_7F4A_7C15
    }

    /// The cache slot a name of hash `hash` is looked for in first.
    @inline(always)
    private static func home(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> 54) & (cacheSize - 1)
    }

    /// ``typeID(at:length:)`` in full: both ways of the cache, names of any length, and a
    /// name not cached yet.
    @inline(never)
    private mutating func lookUpTypeID(at j: Int, length: Int) -> (TypeID, OpenElement)? {
        let buffer = self.buffer
        let prefix = _SWAR.prefixWord(buffer + j, length: length)
        var hash = Self.nameHash(prefix: prefix, length: length)
        for n in min(length, 8) ..< length { hash = (hash ^ UInt64(buffer[j + n])) &* 0x100_0000_01B3 }
        // Two ways: a name is looked for in its slot and the one next to it, so that two
        // frequent names whose hashes collide do not evict each other in turn.
        let home = Self.home(hash)
        for way in 0 ..< 2 {
            let entry = cache[home ^ way]
            guard Int(entry.length) == length, entry.prefix == prefix else { continue }
            let same = length <= 8 || cacheNames.withUnsafeBufferPointer { names in
                for n in 8 ..< length where names[Int(entry.start) + n] != buffer[j + n] { return false }
                return true
            }
            if same { return (entry.type, OpenElement(start: entry.start, length: entry.length, prefix: prefix)) }
        }
        let slot = cache[home].length < 0 || cache[home ^ 1].length >= 0 ? home : home ^ 1
        guard cacheNames.count + length < Int(Int32.max) else { return nil }
        let text = String(decoding: UnsafeBufferPointer(start: buffer + j, count: length), as: UTF8.self)
        let type = registry.typeID(named: text)
        let range = (Int32(cacheNames.count), Int32(length))
        cache[slot] = CachedName(start: range.0, length: range.1, type: type, prefix: prefix)
        cacheNames.append(contentsOf: UnsafeBufferPointer(start: buffer + j, count: length))
        return (type, OpenElement(start: range.0, length: range.1, prefix: prefix))
    }
}

/// The integer in an attribute value that holds no tab, newline or carriage return
/// (spaces around it allowed), or `nil`: what `Int(String)` makes of it once trimmed, read
/// from the bytes (an optional sign, ASCII digits, no overflow).
func _integerValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var lo = 0
    var hi = bytes.count
    while lo < hi && bytes[lo] == UInt8(ascii: " ") { lo += 1 }
    while hi > lo && bytes[hi - 1] == UInt8(ascii: " ") { hi -= 1 }
    guard lo < hi else { return nil }
    var negative = false
    if bytes[lo] == UInt8(ascii: "-") || bytes[lo] == UInt8(ascii: "+") {
        negative = bytes[lo] == UInt8(ascii: "-")
        lo += 1
    }
    guard lo < hi else { return nil }
    var value = 0
    for k in lo ..< hi {
        let digit = Int(bytes[k]) - 0x30
        guard digit >= 0 && digit <= 9 else { return nil }
        let (times, o1) = value.multipliedReportingOverflow(by: 10)
        let (next, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
        if o1 || o2 { return nil }
        value = next
    }
    return value
}
