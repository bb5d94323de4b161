internal import CLibXML2
internal import CByteCount
import RelativeViewCore
import RelativeViewEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Streams an XML or HTML document into a `ViewTreeBuilder` through libxml2's push
/// parsers (SAX2 for XML, its HTML parser for HTML as found in the wild): each element is
/// opened in the builder when its start tag is read and closed at its end tag, with no
/// document tree in between; text, comments and processing instructions are skipped.
///
/// XML goes through a scanner of the reader's own first, which builds the tree straight
/// from the bytes for the documents most files are (UTF-8, no document type declaration,
/// ASCII names, references to characters and the five predefined entities) several times
/// faster than libxml2's SAX interface, and hands every other document, and every
/// document with an error, to libxml2 from the start: libxml2 alone decides what is
/// well-formed and what an error says. A document handed over is read twice (progress
/// starts again).
///
/// An element's type is its name as written (`svg:rect` keeps its prefix; HTML names are
/// lowercase), its tag the integer value of its `tag` attribute, else 0, and its `id` and
/// `class` attributes (without a namespace prefix) its `NodeAttribute.id` and
/// `NodeAttribute.className` attributes, as the parser gives their values (character and
/// predefined entity references decoded, whitespace normalized as XML requires).
///
/// XML must be well-formed: the first fatal error is thrown with its line and column.
/// HTML is parsed leniently (unclosed `<p>` and `<li>`, void elements, implied `<html>`
/// and `<body>`, a truncated document), as browsers do; only unreadable input is an error.
/// Documents are read in 64 KiB chunks, so memory stays proportional to the tree, not to
/// the file. A whole import (``ImportContent/whole``) of 1 MiB or more, with more than one
/// CPU, is scanned on a thread of its own while the caller's thread builds the tree. The
/// parser is given `XML_PARSE_HUGE`, which lifts libxml2's nesting limit (256 levels in
/// libxml2 2.9): a document 100,000 elements deep imports.
///
/// Entities are bounded, since `XML_PARSE_HUGE` also lifts libxml2's own amplification
/// check: the entity text expanded while reading a document (each reference to a declared
/// entity counts its replacement text's length plus one, nested references included) may
/// not exceed ``maximumEntityExpansion(forDocumentBytes:)``, 10 times the bytes read so far
/// plus 1 MiB. A document past it (the "billion laughs" and its quadratic variant) is an
/// ``ImportError`` at the line and column where it went past, in milliseconds. No external
/// entity or DTD is ever loaded, and no network access is made (`XML_PARSE_NONET`, no
/// `XML_PARSE_DTDLOAD` or `XML_PARSE_NOENT`).
public struct MarkupTreeReader: Sendable {
    /// Which of libxml2's parsers reads the document.
    public enum Dialect: Sendable {
        /// Strict XML (also XHTML, SVG...).
        case xml
        /// Lenient HTML.
        case html
    }

    /// The registry that element names are registered in: the process's one.
    let registry = TypeRegistry.shared

    /// Whether XML goes through the reader's own scanner first (see above); when false,
    /// libxml2 reads every document. The trees are the same either way (tested); only the
    /// time differs.
    ///
    /// - Complexity: O(1)
    public let fastPath: Bool

    /// What the reader keeps of a document: all of it, or its skeleton.
    ///
    /// - Complexity: O(1)
    public let content: ImportContent

    /// A reader registering element names in the process's registry, reading XML through
    /// its own scanner first unless `fastPath` is false, and keeping `content`.
    ///
    /// - Complexity: O(1)
    public init(fastPath: Bool = true, content: ImportContent = .whole) {
        self.fastPath = fastPath
        self.content = content
        pipelined = nil
    }

    /// Whether the fast path scans on a thread of its own while the caller's thread builds
    /// (``_PipelinedScan``): `nil` for a whole import (``ImportContent/whole``) of a
    /// document of ``_PipelinedScan/minimumBytes`` or more, with more than one CPU; else as
    /// given (tests give it, on documents of any size).
    package let pipelined: Bool?

    package init(fastPath: Bool = true, content: ImportContent = .whole, pipelined: Bool?) {
        self.fastPath = fastPath
        self.content = content
        self.pipelined = pipelined
    }

    /// The tree of the XML in `bytes` if the fast path reads it whole, `nil` if it hands
    /// the document to libxml2 (for tests that check which documents it reads).
    package func fastPathTree(_ bytes: [UInt8]) -> ViewTree? {
        fastPath(bytes).tree
    }

    /// The fast path on the XML in `bytes` with the scan on a thread of its own
    /// (``_PipelinedScan``) if ``pipelined`` allows it, for tests: its tree or where it gave
    /// up, and whether a thread did scan (not with one CPU).
    package func pipelinedFastPath(_ bytes: [UInt8]) -> (tree: ViewTree?, gaveUpAt: Int?, onThread: Bool) {
        var builder = ViewTreeBuilder()
        let mark = builder.mark
        let piped = bytes.withUnsafeBufferPointer { scanPipelined(.memory($0), bufferSize: _ByteWindow.defaultCapacity, into: &builder, progress: { _ in }) }
        guard let gaveUpAt = piped else { return (nil, nil, false) }
        if gaveUpAt != nil { builder.rollBack(to: mark) }
        return (gaveUpAt == nil && builder.count > 0 ? builder.finish() : nil, gaveUpAt, true)
    }

    /// The fast path on the XML in `bytes`: its tree, or the offset where it gave up.
    /// Tests give a small `bufferSize`, so that every token is cut somewhere.
    package func fastPath(_ bytes: [UInt8], bufferSize: Int = _ByteWindow.defaultCapacity) -> (tree: ViewTree?, gaveUpAt: Int?) {
        var builder = ViewTreeBuilder()
        let gaveUpAt = bytes.withUnsafeBufferPointer { scanFast(.memory($0), bufferSize: bufferSize, into: &builder) }
        return gaveUpAt == nil && builder.count > 0 ? (builder.finish(), nil) : (nil, gaveUpAt)
    }

    /// Reads the XML from `source` into `builder` through the fast path: `nil` when it read
    /// the whole document; else the builder is as it was and the result is the document
    /// offset where the fast path gave up.
    private func scanFast(
        _ source: _ByteSource, bufferSize: Int = _ByteWindow.defaultCapacity, into builder: inout ViewTreeBuilder,
        progress: (Int) -> Void = { _ in }
    ) -> Int? {
        let mark = builder.mark
        let gaveUpAt: Int?
        if let piped = scanPipelined(source, bufferSize: bufferSize, into: &builder, progress: progress) {
            gaveUpAt = piped
        } else {
            var scanner = _XMLScanner(source: source, registry: registry, bufferSize: bufferSize, whole: content == .whole)
            gaveUpAt = scanner.run(into: &builder, progress: progress)
        }
        guard let gaveUpAt else { return nil }
        builder.rollBack(to: mark)
        return gaveUpAt
    }

    /// The fast path with the scan on a thread of its own, writing a tape that this thread
    /// replays into `builder` as it comes (``_PipelinedScan``): `.some(nil)` when it read
    /// the whole document, `.some(offset)` where it gave up (the builder then holds what
    /// was replayed: the caller rolls it back); `nil` if it did not run (a small document,
    /// one CPU, no thread to be had), and nothing was built.
    private func scanPipelined(
        _ source: _ByteSource, bufferSize: Int, into builder: inout ViewTreeBuilder, progress: (Int) -> Void
    ) -> Int?? {
        let size: Int
        switch source {
        case .memory(let bytes): size = bytes.count
        case .file(let fd, _):
            var info = stat()
            size = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        }
        // A skeleton's building is a small part of its import: the scan alone is the
        // critical path, and the builder's page warmer makes better use of the other CPU.
        guard pipelined ?? (content == .whole && size >= _PipelinedScan.minimumBytes) else { return nil }
        // A document in memory crosses to the other thread as its address: the caller
        // keeps it alive until `wait()` returns, which is before this function does.
        let sendable = _SendableSource(source)
        let (registry, whole) = (self.registry, content == .whole)
        let channel = _TapeChannel()
        let scan = _SideTask { () -> Int? in
            var scanner = _XMLScanner(source: sendable.source, registry: registry, bufferSize: bufferSize, whole: whole)
            var writer = _TapeWriter(channel)
            // The progress closure holds the channel unretained. The scan is specialized for
            // this closure and takes its capture as an argument; a captured class reference
            // was retained and released around each call the scan makes out of line (one per
            // tag): 13% of the scanning thread's samples on mixed content. The writer keeps
            // the channel alive until after the scan.
            let progressTarget = Unmanaged.passUnretained(channel)
            let gaveUpAt = scanner.run(into: &writer, progress: { progressTarget.takeUnretainedValue().producerBytesRead = $0 })
            writer.finish()
            return gaveUpAt
        }
        guard scan.hasThread else { return nil }
        // The scan takes the other CPU: this thread maps the columns' pages as it writes.
        builder.forgoWarming()
        var reported = 0
        while let chunk = channel.nextChunk() {
            chunk.replay(into: &builder)
            if chunk.bytesRead != reported {
                reported = chunk.bytesRead
                progress(reported)
            }
            channel.giveBack(chunk)
        }
        let gaveUpAt = scan.wait()
        // The builder as it was: after a hand-over, libxml2 builds with the other CPU free.
        builder.resumeWarming(startingNow: gaveUpAt != nil)
        return .some(gaveUpAt)
    }

    /// The most entity text the reader expands for a document of which it has read
    /// `bytes` so far: 10 × `bytes` + 1 MiB.
    ///
    /// - Complexity: O(1)
    public static func maximumEntityExpansion(forDocumentBytes bytes: Int) -> Int {
        10 * bytes + (1 << 20)
    }

    /// Reads the document at `path` into `builder`.
    ///
    /// - Throws: ``ImportError`` naming the file, with the line and column of the first
    ///   fatal XML error, or the system's reason when the file cannot be read.
    /// - Complexity: O(size of the document)
    public func read(
        contentsOf path: String, dialect: Dialect, into builder: inout ViewTreeBuilder,
        progress: (_ bytesRead: Int) -> Void = { _ in }
    ) throws(ImportError) {
        let file = try _FileReader(path: path)
        if dialect == .xml && fastPath {
            if scanFast(.file(file.descriptor, path: path), into: &builder, progress: progress) == nil { return }
            try file.rewind()
        }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        var total = 0
        try parse(path: path, dialect: dialect, into: &builder) { () throws(ImportError) in
            let n = try file.readChunk(into: chunk)
            total += n
            progress(total)
            return UnsafeRawBufferPointer(rebasing: chunk[..<n])
        }
    }

    /// An upper bound on the elements of the markup in `bytes` (its `<` not followed by
    /// `/`, plus the three an HTML parser may imply: `html`, `head`, `body`), to size a
    /// builder: O(n), several bytes per nanosecond.
    ///
    /// - Complexity: O(bytes.count)
    public static func nodeBound(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let p = bytes.baseAddress else { return 3 }
        return rv_count_open_tags(p, bytes.count, 0) + 3
    }

    /// Reads the document in `bytes` into `builder`; `path` names it in errors.
    ///
    /// - Throws: ``ImportError`` with the line and column of the first fatal XML error.
    /// - Complexity: O(bytes.count)
    public func read(_ bytes: [UInt8], path: String, dialect: Dialect, into builder: inout ViewTreeBuilder) throws(ImportError) {
        if dialect == .xml && fastPath, bytes.withUnsafeBufferPointer({ scanFast(.memory($0), into: &builder) }) == nil {
            return
        }
        // `withUnsafeBytes` rethrows untyped errors, so the typed one travels in a Result.
        let result = bytes.withUnsafeBytes { all in
            var offset = 0
            return Result { () throws(ImportError) in
                try parse(path: path, dialect: dialect, into: &builder) {
                    let n = min(1 << 16, all.count - offset)
                    defer { offset += n }
                    return UnsafeRawBufferPointer(rebasing: all[offset ..< offset + n])
                }
            }
        }
        try result.get()
    }

    /// Feeds the chunks `next` gives (an empty one at the end) to a push parser.
    private func parse(
        path: String, dialect: Dialect, into builder: inout ViewTreeBuilder,
        next: () throws(ImportError) -> UnsafeRawBufferPointer
    ) throws(ImportError) {
        builder.isHTMLDocument = dialect == .html
        xmlInitParser()
        // libxml2 reports a few errors (an encoding it cannot convert) without the parser,
        // through its generic handler, which prints them on standard error; the import
        // reports them itself. For the parse, that handler writes to /dev/null (the
        // setting is libxml2's per-thread state, put back after).
        let (savedHandler, savedContext) = (__xmlGenericError().pointee, __xmlGenericErrorContext().pointee)
        let null = fopen("/dev/null", "w")
        if let null { xmlSetGenericErrorFunc(UnsafeMutableRawPointer(null), nil) }
        defer {
            if let null {
                (__xmlGenericError().pointee, __xmlGenericErrorContext().pointee) = (savedHandler, savedContext)
                fclose(null)
            }
        }
        let sink = _MarkupSink(registry: registry, builder: &builder, whole: content == .whole, dialect: dialect)
        defer { sink.give(back: &builder) }
        guard let context = _makeParser(dialect, path: path, whole: content == .whole) else {
            throw ImportError(path: path, message: "libxml2 could not create a parser")
        }
        defer {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            if dialect == .html { htmlFreeParserCtxt(context) } else { xmlFreeParserCtxt(context) }
        }
        context.pointee._private = Unmanaged.passUnretained(sink).toOpaque()
        sink.document = context
        var done = false
        var total = 0
        var head: [UInt8] = []
        while !done {
            let chunk = try next()
            done = chunk.isEmpty
            total += chunk.count
            if head.count < 8 { head += chunk.prefix(8 - head.count) }
            sink.bytesRead = total
            // libxml2 calls an empty document "extra content at the end"; say what it is.
            if done && total == 0 { throw ImportError(path: path, line: 1, column: 1, message: "the document is empty") }
            let bytes = chunk.baseAddress?.assumingMemoryBound(to: CChar.self)
            if dialect == .html {
                // A document whose first bytes say its encoding (a byte order mark of UTF-8
                // or UTF-16, an XML declaration in UTF-8 or UTF-16: an XHTML file read as
                // HTML) is read in it, unless a `meta` names another, as libxml2's own HTML
                // reader (and lxml) has it; its push parser does not look, and took such a
                // file for ISO-8859-1 ("—" came out as "â\u{80}\u{94}", UTF-16 as bytes).
                // The byte order mark itself is not given to the parser, which made it text.
                var skip = 0
                if total == chunk.count && chunk.count >= 4, let first = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) {
                    let encoding = xmlDetectCharEncoding(first, 4)
                    if encoding == XML_CHAR_ENCODING_UTF8 || encoding == XML_CHAR_ENCODING_UTF16LE || encoding == XML_CHAR_ENCODING_UTF16BE {
                        _ = xmlSwitchEncoding(context, encoding)
                        if first[0] == 0xEF && first[1] == 0xBB && first[2] == 0xBF { skip = 3 }
                        if (first[0] == 0xFF && first[1] == 0xFE) || (first[0] == 0xFE && first[1] == 0xFF) { skip = 2 }
                    }
                }
                htmlParseChunk(context, bytes.map { $0 + skip }, Int32(chunk.count - skip), done ? 1 : 0)
            } else {
                xmlParseChunk(context, bytes, Int32(chunk.count), done ? 1 : 0)
            }
            if sink.fatal != nil { break }
        }
        if let found = sink.fatal {
            var fatal = _located(found, path: path, in: context)
            // libxml2's push parser calls a document that stops inside an element "extra
            // content at the end"; say what happened instead.
            if sink.fatalCode == XML_ERR_DOCUMENT_END.rawValue, let innermost = sink.innermostOpenElement {
                fatal.message = "the document ends inside <\(innermost)> (\(sink.openElementCount) element(s) still open)"
            }
            // libxml2 calls a document that does not start with markup "Document is empty"
            // (binary data, a snapshot, plain text); show what it starts with instead.
            if sink.fatalCode == XML_ERR_DOCUMENT_EMPTY.rawValue, let first = head.first(where: { !_isJSONWhitespace($0) }), first != UInt8(ascii: "<") {
                fatal.message = "not \(dialect == .xml ? "XML" : "HTML"): the document does not start with markup ('<'); its first bytes are \(head.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: " "))\(head.contains(0) ? " (binary data)" : "")"
            }
            throw fatal
        }
        if dialect == .xml, head.starts(with: [0xEF, 0xBB, 0xBF]), let named = context.pointee.encoding.map({ String(cString: $0) }),
           !["UTF-8", "UTF8"].contains(named.uppercased()) {
            // libxml2 2.9 reads such a document in the declared encoding (UTF-8's "é" came
            // out as "Ã©"); XML 1.0 (4.3.3) makes it a fatal error.
            throw ImportError(path: path, line: 1, column: 1,
                              message: "the document starts with UTF-8's byte order mark but declares the encoding \"\(named)\"")
        }
        if dialect == .xml && context.pointee.wellFormed == 0 {
            throw _located(_importError(xmlCtxtGetLastError(context), path: path)
                ?? ImportError(path: path, message: "the document is not well-formed XML"), path: path, in: context)
        }
        if dialect == .xml && context.pointee.disableSAX != 0 && sink.elementCount > 0 {
            // Well-formed so far and yet halted, with no error of the parser's own: libxml2
            // could not convert the bytes from the declared encoding (a byte that encoding
            // does not have, a lone UTF-16 surrogate), said so only through its generic
            // handler, and stopped there. Closing what was open would lose the rest
            // without a word. The place is where the parse stopped, at or after the bytes
            // (libxml2 converts a chunk ahead of the parse). With no element read, the
            // check below says so.
            let declared = context.pointee.encoding.map { " from \"\(String(cString: $0))\", the encoding it declares" } ?? ""
            throw _located(ImportError(path: path, message: "the document could not be converted\(declared), by here: a byte sequence that encoding does not have"),
                           path: path, in: context, otherwise: (1, 1))
        }
        if dialect == .html && (context.pointee.disableSAX != 0 || Self.unconvertedBytes(context) > 0) {
            // A lenient HTML parse halts only where libxml2 could not convert the bytes (a
            // lone surrogate in UTF-16, a byte a `meta`'s encoding does not have), which
            // leaves them in its input's raw buffer: it said so only through its generic
            // handler, and closing what was open would lose the rest without a word.
            let named = context.pointee.encoding.map { " from \"\(String(cString: $0))\"" } ?? ""
            throw _located(ImportError(path: path, message: "the document could not be converted\(named), by here: a byte sequence that encoding does not have"),
                           path: path, in: context, otherwise: (1, 1))
        }
        if dialect == .xml && sink.elementCount == 0 {
            // Well-formed by libxml2's account and yet no element: it gave up early (an
            // encoding it cannot read, as UTF-7) and said why in a non-fatal error, if at all.
            let declared = context.pointee.encoding.map { " (it declares the encoding \"\(String(cString: $0))\")" } ?? ""
            throw _located(sink.firstError ?? ImportError(path: path, message: "no element could be read: libxml2 stopped early\(declared)"),
                           path: path, in: context, otherwise: (1, 1))
        }
        sink.closeAll()
    }

    /// The bytes libxml2 was given and did not convert to UTF-8 (after the whole document
    /// was given, some only where a conversion failed).
    private static func unconvertedBytes(_ context: xmlParserCtxtPtr) -> Int {
        guard let input = context.pointee.input, let buffer = input.pointee.buf, let raw = buffer.pointee.raw else { return 0 }
        return Int(xmlBufUse(raw))
    }

    /// The canonical form (Canonical XML 1.0 with comments, by libxml2) of the XML
    /// document in `bytes`, or `nil` if libxml2 cannot read it: how tests compare a
    /// document with what a tree writes back. References to internal entities are expanded.
    package static func _canonicalForm(of bytes: [UInt8]) -> [UInt8]? {
        xmlInitParser()
        // The attributes the internal subset gives defaults for are supplied, as Canonical
        // XML has them (XML_PARSE_DTDATTR); no DTD the document names is read (without an
        // `externalSubset` handler), as the import reads none.
        guard let parser = xmlNewParserCtxt() else { return nil }
        defer { xmlFreeParserCtxt(parser) }
        parser.pointee.sax.pointee.externalSubset = nil
        let options = Int32(XML_PARSE_NOENT.rawValue | XML_PARSE_DTDATTR.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue
                            | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBytes { raw in
            xmlCtxtReadMemory(parser, raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), "document.xml", nil, options)
        }
        guard let document else { return nil }
        defer { xmlFreeDoc(document) }
        var out: UnsafeMutablePointer<xmlChar>?
        let n = xmlC14NDocDumpMemory(document, nil, Int32(XML_C14N_1_0.rawValue), nil, 1, &out)
        guard n >= 0, let out else { return nil }
        defer { free(out) }  // libxml2 allocates with malloc unless told otherwise
        return Array(UnsafeBufferPointer(start: out, count: Int(n)))
    }

    /// An upper bound on the nodes a whole import of the markup in `bytes` makes: every
    /// element, comment, CDATA section and processing instruction starts with a `<` not
    /// followed by `/`, and every text node ends at a `<` or at the end; plus the three
    /// elements an HTML parser may imply.
    ///
    /// - Complexity: O(bytes.count)
    public static func wholeNodeBound(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let p = bytes.baseAddress else { return 4 }
        // The open tags and the `<` bytes in one pass (`rv_count_markup_nodes`).
        return rv_count_markup_nodes(p, bytes.count, 0) + 4
    }
}

/// A push parser whose SAX handler reports elements and errors to the sink in `_private`.
/// libxml2's default SAX2 handlers are kept for the document prologue (DTD, entities), so
/// the user data is the parser context itself, as they expect.
private func _makeParser(_ dialect: MarkupTreeReader.Dialect, path: String, whole: Bool) -> xmlParserCtxtPtr? {
    var handler = xmlSAXHandler()
    switch dialect {
    case .xml:
        xmlSAXVersion(&handler, 2)
        handler.startElementNs = { context, name, prefix, _, namespaceCount, namespaces, attributeCount, defaulted, attributes in
            guard let sink = _MarkupSink.of(context), let name else { return }
            if sink.whole {
                // The last `defaulted` attributes are those the internal subset of the
                // document type declaration gives defaults for: kept, after the element's
                // own, as XML 1.0 (5.1) has even a processor that does not validate supply
                // them and Canonical XML has them in a document's canonical form (libxml2's
                // own tree and lxml's leave them out unless asked, XML_PARSE_DTDATTR). The
                // declaration is not written back, so a default left out would be lost.
                return sink.openWhole(name: name, prefix: prefix, namespaces: namespaces, namespaceCount: Int(namespaceCount),
                                      attributes: attributes, attributeCount: Int(attributeCount))
            }
            var found = _FoundAttributes()
            if let attributes {
                for a in 0 ..< Int(attributeCount) where attributes[5 * a + 1] == nil {
                    if let local = attributes[5 * a], let start = attributes[5 * a + 3], let end = attributes[5 * a + 4] {
                        found.note(local, UnsafeBufferPointer(start: start, count: end - start))
                    }
                }
            }
            sink.open(name: name, prefix: prefix, found)
        }
        handler.endElementNs = { context, _, _, _ in _MarkupSink.of(context)?.close() }
        // No external entity is ever loaded, so none is declared: each external parsed
        // entity (general or parameter) is declared as an empty internal one, and its
        // references expand to nothing. `getEntity` giving none is not enough: libxml2 then
        // looks the entity up itself (its context is the user data) and, under
        // XML_PARSE_NOENT, loads it, as it loads every external parameter entity.
        handler.entityDecl = { context, name, type, publicId, systemId, content in
            let external = type == Int32(XML_EXTERNAL_GENERAL_PARSED_ENTITY.rawValue)
            guard external || type == Int32(XML_EXTERNAL_PARAMETER_ENTITY.rawValue) else {
                return xmlSAX2EntityDecl(context, name, type, publicId, systemId, content)
            }
            let declared = external ? XML_INTERNAL_GENERAL_ENTITY : XML_INTERNAL_PARAMETER_ENTITY
            // A whole import refuses a reference to it (see `expand`): the first
            // declaration of a name binds, so one declared before keeps its name.
            if external, let name, xmlSAX2GetEntity(context, name) == nil, let sink = _MarkupSink.of(context) {
                sink.unreadEntities[String(cString: name)] = systemId.map { String(cString: $0) } ?? ""
            }
            var empty: [xmlChar] = [0]
            xmlSAX2EntityDecl(context, name, Int32(declared.rawValue), nil, nil, &empty)
        }
    case .html:
        xmlSAX2InitHtmlDefaultSAXHandler(&handler)
        handler.initialized = XML_SAX2_MAGIC  // so that errors go to `serror`, not to stderr
        handler.startElement = { context, name, attributes in
            guard let sink = _MarkupSink.of(context), let name else { return }
            if sink.whole { return sink.openWhole(name: name, htmlAttributes: attributes) }
            var found = _FoundAttributes()
            if let attributes {
                var a = 0
                while let key = attributes[a] {
                    if let value = attributes[a + 1] { found.note(key, UnsafeBufferPointer(start: value, count: strlen(value))) }
                    a += 2
                }
            }
            sink.open(name: name, prefix: nil, found)
        }
        handler.endElement = { context, _ in _MarkupSink.of(context)?.close() }
    }
    // Every reference to a declared entity, in the document, in attribute values and
    // inside other entities' text, goes through these two: the place to bound expansion.
    handler.getEntity = { context, name in
        guard let sink = _MarkupSink.of(context) else { return nil }
        return sink.expand(sink.declared(name, xmlSAX2GetEntity(context, name), in: context), in: context)
    }
    handler.getParameterEntity = { context, name in
        guard let sink = _MarkupSink.of(context) else { return nil }
        return sink.expand(xmlSAX2GetParameterEntity(context, name), in: context)
    }
    if whole {
        handler.characters = { context, bytes, count in
            guard let sink = _MarkupSink.of(context), let bytes else { return }
            sink.characters(UnsafeBufferPointer(start: bytes, count: Int(count)), cdata: false)
        }
        // libxml2 calls blanks it deems ignorable through this one: XML keeps them all (as
        // libxml2's own tree does by default), HTML drops them (as its HTML tree does).
        handler.ignorableWhitespace = dialect == .xml ? handler.characters : nil
        handler.cdataBlock = { context, bytes, count in
            guard let sink = _MarkupSink.of(context), let bytes else { return }
            sink.characters(UnsafeBufferPointer(start: bytes, count: Int(count)), cdata: true)
        }
        // Comments and instructions inside the document type declaration are not the
        // document's nodes (the declaration is not kept).
        handler.comment = { context, text in
            guard let sink = _MarkupSink.of(context), let text, !_inSubset(context) else { return }
            sink.leaf(sink.contentTypes.comment, text)
        }
        handler.processingInstruction = { context, target, data in
            guard let sink = _MarkupSink.of(context), let target, !_inSubset(context) else { return }
            sink.processingInstruction(target: target, data: data)
        }
    } else {
        handler.characters = nil
        handler.ignorableWhitespace = nil
        handler.cdataBlock = nil
        handler.comment = nil
        handler.processingInstruction = nil
    }
    handler.reference = nil
    handler.warning = nil
    handler.error = nil
    handler.fatalError = nil
    handler.serror = { context, error in
        guard let sink = _MarkupSink.of(context), let error else { return }
        if error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue && sink.firstError == nil {
            sink.firstError = _importError(error, path: "")
        }
        if error.pointee.level == XML_ERR_FATAL && sink.fatal == nil {
            sink.fatal = _importError(error, path: "")
            sink.fatalCode = error.pointee.code
        }
    }
    let context: xmlParserCtxtPtr?
    switch dialect {
    case .xml:
        context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, path)
        // A whole import expands the references to internal entities in place
        // (XML_PARSE_NOENT; `expand` refuses external ones, so no file is ever read).
        if let context { xmlCtxtUseOptions(context, Int32(XML_PARSE_HUGE.rawValue | XML_PARSE_NONET.rawValue | (whole ? XML_PARSE_NOENT.rawValue : 0))) }
    case .html:
        context = htmlCreatePushParserCtxt(&handler, nil, nil, 0, path, XML_CHAR_ENCODING_NONE)
        if let context { htmlCtxtUseOptions(context, Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue)) }
    }
    return context
}

/// Whether the parser whose context is `context` is inside the document type declaration.
private func _inSubset(_ context: UnsafeMutableRawPointer?) -> Bool {
    guard let context else { return false }
    return context.assumingMemoryBound(to: xmlParserCtxt.self).pointee.inSubset != 0
}

/// Where the parser is in the document (its outermost input), if it knows.
private func _position(of context: xmlParserCtxtPtr) -> (Int, Int)? {
    guard context.pointee.inputNr > 0, let input = context.pointee.inputTab?[0], input.pointee.line > 0 else { return nil }
    return (Int(input.pointee.line), max(1, Int(input.pointee.col)))
}

/// `error` naming `path`; when libxml2 gave it no position, placed where the parser
/// stopped, else at `otherwise`.
private func _located(_ error: ImportError, path: String, in context: xmlParserCtxtPtr, otherwise: (Int, Int)? = nil) -> ImportError {
    var error = error
    error.path = path
    if error.line == nil, let (line, column) = _position(of: context) ?? otherwise { (error.line, error.column) = (line, column) }
    return error
}

/// An ``ImportError`` from libxml2's error record (line and column where it gives them).
private func _importError(_ error: UnsafePointer<xmlError>?, path: String) -> ImportError? {
    guard let error else { return nil }
    var message = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
    while message.last?.isWhitespace == true { message.removeLast() }
    let line = Int(error.pointee.line)
    let column = Int(error.pointee.int2)
    return ImportError(path: path, line: line > 0 ? line : nil, column: line > 0 && column > 0 ? column : nil, message: message)
}

/// The attributes of a start tag that the tree keeps: `tag` (its integer value, else 0),
/// `id` and `class` (their text, as the parser gives it).
struct _FoundAttributes {
    var tag = 0
    var id: UnsafeBufferPointer<xmlChar>?
    var className: UnsafeBufferPointer<xmlChar>?

    /// Notes the attribute `name` (NUL-terminated) with `value` if it is one of the three.
    mutating func note(_ name: UnsafePointer<xmlChar>, _ value: UnsafeBufferPointer<xmlChar>) {
        switch (name[0], name[1]) {
        case (UInt8(ascii: "t"), UInt8(ascii: "a")) where name[2] == UInt8(ascii: "g") && name[3] == 0:
            tag = _integer(value) ?? 0
        case (UInt8(ascii: "i"), UInt8(ascii: "d")) where name[2] == 0:
            id = value
        case (UInt8(ascii: "c"), UInt8(ascii: "l")) where strcmp(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self), "class") == 0:
            className = value
        default: break
        }
    }
}

/// The UTF-8 of the reference `&name;` (`name` without `&` and `;`): a character
/// reference or one of XML's five predefined entities; `nil` for any other.
private func _decodeReference(_ name: Slice<UnsafeBufferPointer<xmlChar>>) -> [UInt8]? {
    let text = String(decoding: name, as: UTF8.self)
    switch text {
    case "amp": return [UInt8(ascii: "&")]
    case "lt": return [UInt8(ascii: "<")]
    case "gt": return [UInt8(ascii: ">")]
    case "quot": return [UInt8(ascii: "\"")]
    case "apos": return [UInt8(ascii: "'")]
    default:
        guard text.hasPrefix("#") else { return nil }
        let digits = text.dropFirst()
        let value = digits.first == "x" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let value, let scalar = Unicode.Scalar(value) else { return nil }
        return Array(String(scalar).utf8)
    }
}

/// `bytes` with each byte that begins no well-formed UTF-8 sequence read as ISO-8859-1
/// (U+0080 to U+00FF, two bytes of UTF-8), or `nil` when every sequence is well-formed.
/// libxml2's HTML parser (2.9) reads such a byte as ISO-8859-1, as it then reads the rest
/// of the document when it can switch encodings, but copies the byte itself into the text,
/// attribute value, comment or name it reports; the tree holds UTF-8 only.
func _utf8Repaired(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    guard let base = bytes.baseAddress else { return nil }
    var out: [UInt8] = []
    var copied = 0
    var k = 0
    while k < bytes.count {
        if base[k] < 0x80 {
            k += 1
        } else if case .wellFormed(let end) = _utf8Sequence(in: base, at: k, count: bytes.count) {
            k = end
        } else {
            if out.isEmpty { out.reserveCapacity(bytes.count + 16) }
            out.append(contentsOf: bytes[copied ..< k])
            out.append(0xC0 | base[k] >> 6)
            out.append(0x80 | base[k] & 0x3F)
            k += 1
            copied = k
        }
    }
    guard copied > 0 else { return nil }
    out.append(contentsOf: bytes[copied...])
    return out
}

/// The integer in an attribute value (surrounding whitespace allowed), or `nil`.
private func _integer(_ bytes: UnsafeBufferPointer<xmlChar>) -> Int? {
    Int(String(decoding: bytes, as: UTF8.self).trimmingSpaces())
}

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first ... last]
    }
}

/// The public identifiers (their starts) of the DTDs that declare HTML 4's character
/// entities as HTML 4 does, each as the character it names, and the characters they
/// declare so: the XHTML family (1.0, 1.1, Basic, XHTML+RDFa, XHTML Mobile: ISO Latin 1,
/// symbols and special characters, all of HTML 4's) and RSS 0.91 (ISO Latin 1 only, U+00A0
/// to U+00FF). libxml2's table of HTML 4's entities (`htmlEntityLookup`) stands in for the
/// DTD, never read.
private let _characterEntityDTDs: [(publicID: String, characters: ClosedRange<UInt32>)] = [
    ("-//W3C//DTD XHTML", 0 ... 0x10FFFF),
    ("-//WAPFORUM//DTD XHTML Mobile", 0 ... 0x10FFFF),
    ("-//Netscape Communications//DTD RSS 0.91//", 0xA0 ... 0xFF),
]

/// Receives the parser's callbacks: holds the builder while the parse runs, and the type
/// ids of the element names seen so far, by the address of libxml2's interned name.
final class _MarkupSink {
    private let registry: TypeRegistry
    private var builder: ViewTreeBuilder
    /// Type ids by the address of an element name interned in the parser's dictionary;
    /// the name is kept to check that the address still holds it.
    private var typeByAddress: [UnsafeRawPointer: (type: TypeID, name: String)] = [:]
    /// The types of the elements open now, innermost last.
    private var openTypes: [TypeID] = []
    var fatal: ImportError?
    var fatalCode: Int32 = 0
    /// The first error or fatal error libxml2 reported.
    var firstError: ImportError?
    /// The elements opened so far.
    private(set) var elementCount = 0
    /// The document's own parser (entity text is parsed by nested ones): where errors are.
    var document: xmlParserCtxtPtr?
    /// The document's bytes given to the parser so far.
    var bytesRead = 0
    /// Entity text expanded so far: each reference's replacement length plus one.
    private var expanded = 0

    var openElementCount: Int { openTypes.count }
    var innermostOpenElement: String? { openTypes.last.map(registry.name(of:)) }

    /// Whether the whole document is kept (see ``ImportContent``).
    let whole: Bool
    private let dialect: MarkupTreeReader.Dialect
    let contentTypes = _ContentTypes.shared
    /// Text reported and not yet made a node (libxml2 reports a text in pieces), and
    /// whether it is a CDATA section's.
    private var pending: [UInt8] = []
    private var pendingIsCDATA = false
    /// Attribute name ids by name.
    private var attributeNames: [String: TypeID] = [:]

    init(registry: TypeRegistry, builder: inout ViewTreeBuilder, whole: Bool = false, dialect: MarkupTreeReader.Dialect = .xml) {
        self.registry = registry
        self.whole = whole
        self.dialect = dialect
        self.builder = ViewTreeBuilder()
        swap(&self.builder, &builder)
    }

    /// The type id of the element name `name` (with `prefix`, if any).
    private func elementType(name: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) -> TypeID {
        if let prefix { return registry.typeID(named: String(cString: prefix) + ":" + String(cString: name)) }
        if let known = typeByAddress[UnsafeRawPointer(name)], known.name.withCString({ strcmp($0, UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)) == 0 }) {
            return known.type
        }
        let text = string(name)
        let type = registry.typeID(named: text)
        typeByAddress[UnsafeRawPointer(name)] = (type, text)
        return type
    }

    /// The name id of an attribute named `name`.
    private func attributeName(_ name: String) -> TypeID {
        if let known = attributeNames[name] { return known }
        let type = registry.typeID(named: name)
        attributeNames[name] = type
        return type
    }

    /// Opens an element of a whole XML import: its namespace declarations first (libxml2
    /// reports them apart), then its attributes in order.
    func openWhole(
        name: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        namespaceCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, attributeCount: Int
    ) {
        endText()
        var tag = 0
        if let attributes {
            for a in 0 ..< attributeCount where attributes[5 * a + 1] == nil {
                if let local = attributes[5 * a], strcmp(UnsafeRawPointer(local).assumingMemoryBound(to: CChar.self), "tag") == 0,
                   let start = attributes[5 * a + 3], let end = attributes[5 * a + 4] {
                    tag = _integer(UnsafeBufferPointer(start: start, count: end - start)) ?? 0
                }
            }
        }
        let type = elementType(name: name, prefix: prefix)
        builder.open(tag: tag, type: type)
        if let namespaces {
            for n in 0 ..< namespaceCount {
                let declared = namespaces[2 * n].map { "xmlns:" + String(cString: $0) } ?? "xmlns"
                let uri = namespaces[2 * n + 1].map { String(cString: $0) } ?? ""
                var value = uri
                value.withUTF8 { builder.addAttribute(name: attributeName(declared), utf8: $0) }
            }
        }
        if let attributes {
            for a in 0 ..< attributeCount {
                guard let local = attributes[5 * a], let start = attributes[5 * a + 3], let end = attributes[5 * a + 4] else { continue }
                let name = attributes[5 * a + 1].map { String(cString: $0) + ":" } ?? ""
                builder.addAttribute(name: attributeName(name + String(cString: local)), utf8: UnsafeBufferPointer(start: start, count: end - start))
            }
        }
        openTypes.append(type)
        elementCount += 1
    }

    /// Opens an element of a whole HTML import, with its attributes (name, value pairs,
    /// NUL-terminated; a value may be missing: `<input disabled>`, kept as "").
    func openWhole(name: UnsafePointer<xmlChar>, htmlAttributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        endText()
        var tag = 0
        var pairs: [(TypeID, UnsafePointer<xmlChar>?)] = []
        if let htmlAttributes {
            var a = 0
            while let key = htmlAttributes[a] {
                let keyName = string(key)
                if keyName == "tag", let value = htmlAttributes[a + 1] { tag = _integer(UnsafeBufferPointer(start: value, count: strlen(value))) ?? 0 }
                // An HTML 4 boolean attribute written without a value (`<input checked>`,
                // `<script defer>`) has its name as its value, as in libxml2's own tree
                // (and lxml's); any other attribute without one is empty.
                let value = htmlAttributes[a + 1] ?? (htmlIsBooleanAttr(key) != 0 ? key : nil)
                pairs.append((attributeName(keyName), value))
                a += 2
            }
        }
        let type = elementType(name: name, prefix: nil)
        builder.open(tag: tag, type: type)
        for (key, value) in pairs {
            withUTF8(UnsafeBufferPointer(start: value, count: value.map { strlen($0) } ?? 0)) { builder.addAttribute(name: key, utf8: $0) }
        }
        openTypes.append(type)
        elementCount += 1
    }

    /// Text reported by the parser: gathered until something else comes.
    func characters(_ bytes: UnsafeBufferPointer<xmlChar>, cdata: Bool) {
        if cdata != pendingIsCDATA { endText() }
        pendingIsCDATA = cdata
        pending.append(contentsOf: bytes)
    }

    /// Makes the text gathered so far a node (a text outside any element only if it is
    /// not all whitespace, as a lenient HTML parse may report).
    private func endText() {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        if openTypes.isEmpty && pending.allSatisfy(_isJSONWhitespace) { return }
        builder.appendLeaf(type: pendingIsCDATA ? contentTypes.cdata : contentTypes.text)
        pending.withUnsafeBufferPointer { setValue($0) }
    }

    /// A leaf of `type` holding `text` (NUL-terminated): a comment.
    func leaf(_ type: TypeID, _ text: UnsafePointer<xmlChar>) {
        endText()
        builder.appendLeaf(type: type)
        setValue(UnsafeBufferPointer(start: text, count: strlen(text)))
    }

    /// A processing instruction: a leaf of type `?target` holding its data.
    func processingInstruction(target: UnsafePointer<xmlChar>, data: UnsafePointer<xmlChar>?) {
        endText()
        builder.appendLeaf(type: registry.typeID(named: NodeKind.processingInstructionTypeName(target: string(target))))
        setValue(UnsafeBufferPointer(start: data, count: data.map { strlen($0) } ?? 0))
    }

    /// `body` given `bytes` as UTF-8: as they are, but in an HTML import, whose parser
    /// can report bytes that are not (see ``_utf8Repaired(_:)``), repaired where they are not.
    private func withUTF8<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard dialect == .html, let repaired = _utf8Repaired(bytes) else { return body(bytes) }
        return repaired.withUnsafeBufferPointer(body)
    }

    /// The value of the node appended last: `bytes`, as UTF-8 (see `withUTF8`).
    private func setValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        withUTF8(bytes) { builder.setValue(utf8: $0) }
    }

    /// The name `text` (NUL-terminated) the parser reported, as UTF-8 (see `withUTF8`).
    private func string(_ text: UnsafePointer<xmlChar>) -> String {
        withUTF8(UnsafeBufferPointer(start: text, count: strlen(text))) { String(decoding: $0, as: UTF8.self) }
    }

    static func of(_ context: UnsafeMutableRawPointer?) -> _MarkupSink? {
        guard let pointer = context?.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
        return Unmanaged<_MarkupSink>.fromOpaque(pointer).takeUnretainedValue()
    }

    func open(name: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, _ found: _FoundAttributes) {
        let tag = found.tag
        let type = elementType(name: name, prefix: prefix)
        builder.open(tag: tag, type: type)
        if let id = found.id { setAttribute(.id, id) }
        if let className = found.className { setAttribute(.className, className) }
        openTypes.append(type)
        elementCount += 1
    }

    func close() {
        endText()
        if openTypes.popLast() != nil { builder.close() }
    }

    /// Gives the element opened last `attribute` with the value libxml2 reported. Without
    /// entity substitution (never asked for: it would load external entities) libxml2 hands
    /// `&` back as `&#38;`; character references and the predefined entities are decoded
    /// here, any other entity reference is kept as written.
    private func setAttribute(_ attribute: NodeAttribute, _ value: UnsafeBufferPointer<xmlChar>) {
        // libxml2's HTML parser decodes every reference itself (`&amp;lt;` is `&lt;`).
        if dialect == .html { return withUTF8(value) { builder.setAttribute(attribute, utf8: $0) } }
        guard value.contains(UInt8(ascii: "&")) else { return builder.setAttribute(attribute, utf8: value) }
        var out: [UInt8] = []
        var i = 0
        while i < value.count {
            if value[i] == UInt8(ascii: "&"), let semicolon = value[i...].firstIndex(of: UInt8(ascii: ";")),
               let decoded = _decodeReference(value[(i + 1) ..< semicolon]) {
                out += decoded
                i = semicolon + 1
            } else {
                out.append(value[i])
                i += 1
            }
        }
        out.withUnsafeBufferPointer { builder.setAttribute(attribute, utf8: $0) }
    }

    /// The external parsed entities the document declares, which are never read (see
    /// `_makeParser`), by name: their system identifiers.
    var unreadEntities: [String: String] = [:]

    /// `entity`, what libxml2 found declared under `name`, for a reference in a whole XML
    /// import, where a reference it cannot expand would lose the entity's text: XML 1.0
    /// (4.4.3) has a processor that does not read an external entity tell the application
    /// so. A reference to an external parsed entity, or to a name declared nowhere the
    /// import reads (in an external DTD, which it never reads), stops the import with an
    /// error naming it, line and column; but a name of HTML 4's character entities
    /// (`&nbsp;`, `&copy;`, `&eacute;`, `&mdash;`) in a document whose type declaration names
    /// a DTD that declares them (the XHTML family, RSS 0.91: ``_characterEntityDTDs``) is
    /// declared here as that DTD declares it, so that the text holds its character. A
    /// skeleton import keeps no text, and skips such references as before.
    func declared(_ name: UnsafePointer<xmlChar>?, _ entity: xmlEntityPtr?, in context: UnsafeMutableRawPointer?) -> xmlEntityPtr? {
        guard whole, dialect == .xml, let name, let context, fatal == nil else { return entity }
        let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
        // In the document type declaration, only the default value of an attribute (which
        // the tree keeps) is text: libxml2 looks entities up there for its own reasons too
        // (an entity's raw text, once declared).
        guard !_inSubset(context) || parser.pointee.instate == XML_PARSER_ATTRIBUTE_VALUE else { return entity }
        let text = String(cString: name)
        if let entity {
            guard let system = unreadEntities[text], entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY else { return entity }
            stop(parser, "the entity &\(text); is external (SYSTEM \"\(system)\"), and an import reads no file a document names: its text would be lost (expand it first, as `xmllint --noent` does)")
            return nil
        }
        if let subset = parser.pointee.myDoc?.pointee.intSubset, let publicID = subset.pointee.ExternalID.map({ String(cString: $0) }),
           let character = htmlEntityLookup(name),
           _characterEntityDTDs.contains(where: { publicID.hasPrefix($0.publicID) && $0.characters.contains(character.pointee.value) }) {
            var reference = Array("&#\(character.pointee.value);".utf8) + [0]
            return xmlAddDocEntity(parser.pointee.myDoc, name, Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), nil, nil, &reference)
        }
        let dtd = parser.pointee.myDoc?.pointee.intSubset?.pointee.SystemID.map { " (from \"\(String(cString: $0))\", never read: an import reads no file a document names)" } ?? ""
        stop(parser, "the entity &\(text); is not declared in the document\(dtd): its text would be lost")
        return nil
    }

    /// Stops the parse (`parser`, and the document's) with the error `message` at the
    /// document's current position, unless an error came first.
    private func stop(_ parser: xmlParserCtxtPtr?, _ message: String) {
        if fatal == nil {
            let line = document.map { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer($0))) } ?? 0
            let column = document.map { Int(xmlSAX2GetColumnNumber(UnsafeMutableRawPointer($0))) } ?? 0
            fatal = ImportError(path: "", line: line > 0 ? line : nil, column: line > 0 && column > 0 ? column : nil, message: message)
        }
        if let parser { xmlStopParser(parser) }
        // A reference in an entity's text is parsed by a parser of its own: the document's stops too.
        if let document, document != parser { xmlStopParser(document) }
    }

    /// `entity`, the target of a reference, counted against the expansion bound; past the
    /// bound, `nil` (as if undeclared) and the parser `context` is stopped, so that
    /// nothing expands any further, and the import fails with the document's position.
    func expand(_ entity: xmlEntityPtr?, in context: UnsafeMutableRawPointer?) -> xmlEntityPtr? {
        let limit = MarkupTreeReader.maximumEntityExpansion(forDocumentBytes: bytesRead)
        // External parsed entities are declared as empty internal ones (see `_makeParser`);
        // an unparsed one (NDATA) is never expanded.
        if whole, let entity, entity.pointee.etype == XML_EXTERNAL_GENERAL_PARSED_ENTITY || entity.pointee.etype == XML_EXTERNAL_GENERAL_UNPARSED_ENTITY {
            return nil
        }
        if expanded <= limit, let entity {
            expanded += Int(max(0, entity.pointee.length)) + 1
            if expanded <= limit { return entity }
        } else if expanded <= limit {
            return nil
        }
        stop(context?.assumingMemoryBound(to: xmlParserCtxt.self),
             "entity expansion past the limit: more than \(limit) bytes of entity text for \(bytesRead) bytes of document (at most 10 times the document plus 1 MiB)")
        return nil
    }

    /// Closes what the parser left open (a lenient HTML parse of a truncated document).
    func closeAll() {
        endText()
        while openTypes.popLast() != nil { builder.close() }
    }

    func give(back builder: inout ViewTreeBuilder) {
        swap(&self.builder, &builder)
    }
}
