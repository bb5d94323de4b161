import Foundation
import RelativeViewCore
@testable import RelativeViewImport
import RelativeViewFixtures
import CByteCount
import Testing

/// The XML reader's own scanner against libxml2: every document it reads gives the tree
/// libxml2 gives, and every document it gives up on is libxml2's to accept or reject.
@Suite struct XMLFastPathTests {
    /// Each node as one line: parent slot, type name, tag, id, class, and what a whole
    /// import keeps (its named attributes, its value).
    static func lines(_ tree: ViewTree) -> [String] {
        (0 ..< tree.slotCount).map { slot in
            let x = tree.node(atSlot: slot)!
            let content = tree.namedAttributes(of: x).map { "\($0.name)=\($0.value)" }.joined(separator: " ") + " " + (tree.value(of: x).map { "\"\($0)\"" } ?? "·")
            return "\(tree.parent(of: x).map { "\($0.index)" } ?? "-") \(TypeRegistry.shared.name(of: tree.typeID(of: x))) \(tree.tag(of: x)) \(tree.attribute(.id, of: x) ?? "·") \(tree.attribute(.className, of: x) ?? "·") \(content)"
        }
    }

    /// What libxml2 alone makes of `bytes`: the tree's lines, or the error.
    static func libxml2(_ bytes: [UInt8], content: ImportContent = .skeleton) -> Result<[String], ImportError> {
        var builder = ViewTreeBuilder()
        do {
            try MarkupTreeReader(fastPath: false, content: content).read(bytes, path: "doc", dialect: .xml, into: &builder)
        } catch {
            return .failure(error)
        }
        guard builder.count > 0 else { return .failure(ImportError(path: "doc", message: "no element")) }
        return .success(lines(builder.finish()))
    }

    /// The fast path's tree of `bytes` agrees with libxml2's; returns whether it read it.
    @discardableResult
    static func agree(_ bytes: [UInt8], _ comment: Comment? = nil, content: ImportContent = .skeleton) -> Bool {
        guard let fast = MarkupTreeReader(content: content).fastPathTree(bytes) else { return false }
        fast._checkInvariants()
        switch libxml2(bytes, content: content) {
        case .success(let expected):
            #expect(lines(fast) == expected, comment)
        case .failure(let error):
            Issue.record("the fast path read a document libxml2 rejects (\(error)): \(String(decoding: bytes, as: UTF8.self).prefix(300))")
        }
        return true
    }

    /// A random document using everything the fast path reads.
    static func document(_ rng: inout SplitMix64, elements: Int) -> String {
        let names = ["div", "a", "svg:rect", "x_1", "Item.b", "n-2", "g"]
        let texts = ["text", " x &amp; y ", "&#233;t&#xE9;", "é😀", "&#x1F600;&#65;&#x41;", "a&amp;&amp;b&quot;", "дерево 木 ü", "\u{FFFD}\u{FFFC}", "&lt;&gt;&quot;&apos;", "<!-- a - comment -->", "<?pi some data?>", "<![CDATA[ <raw> & ]] ]]>", "\n\t"]
        var out = ["", "<?xml version=\"1.0\"?>\n", "<?xml version='1.0' encoding='utf-8' standalone=\"yes\" ?>", "\u{FEFF}"].randomElement(using: &rng)!
        out += Bool.random(using: &rng) ? "<!-- before -->\n" : ""
        var open: [String] = []
        var made = 0
        repeat {
            if !open.isEmpty && (made >= elements || Int.random(in: 0 ..< 100, using: &rng) < 40) {
                out += "</\(open.removeLast())\(Bool.random(using: &rng) ? "" : " \n")>"
                continue
            }
            let name = open.isEmpty ? "root" : names.randomElement(using: &rng)!
            var attributes = ""
            if Int.random(in: 0 ..< 4, using: &rng) == 0 { attributes += " id=\"n\(made)\"" }
            if Int.random(in: 0 ..< 5, using: &rng) == 0 { attributes += " class='b  c'" }
            if Int.random(in: 0 ..< 6, using: &rng) == 0 { attributes += " tag = \" \(Int.random(in: -9 ..< 99, using: &rng)) \"" }
            if Int.random(in: 0 ..< 6, using: &rng) == 0 { attributes += " data-x=\"1 &amp; 2\" xmlns:svg=\"urn:s\"" }
            made += 1
            if !open.isEmpty && Bool.random(using: &rng) {
                out += "<\(name)\(attributes)/>"
            } else {
                out += "<\(name)\(attributes)>"
                open.append(name)
            }
            if !open.isEmpty && Int.random(in: 0 ..< 3, using: &rng) == 0 { out += texts.randomElement(using: &rng)! }
        } while !open.isEmpty
        return out + (Bool.random(using: &rng) ? "\n<!-- after -->\n" : "")
    }

    @Test(arguments: ImportContent.allCases)
    func documentsOfEveryFeatureAreReadByTheFastPathAsByLibxml2(content: ImportContent) {
        var rng = SplitMix64(seed: 5)
        var read = 0
        for n in 0 ..< 300 {
            if Self.agree(Array(Self.document(&rng, elements: 1 + n % 60).utf8), content: content) { read += 1 }
        }
        #expect(read == 300, "the fast path should read every generated document")
    }

    /// Start tags of up to 14 attributes (the uniqueness check compares a key of each
    /// name's local part before its bytes): names that share a first 7 bytes or a local
    /// part, exact duplicates now and then, values of every length around the 8 bytes a
    /// scan reads at a time, with references, tabs and characters past ASCII. What the
    /// fast path reads, libxml2 reads alike; every duplicate is handed over.
    @Test(arguments: ImportContent.allCases)
    func attributeHeavyTagsAgree(content: ImportContent) {
        var rng = SplitMix64(seed: 23)
        let names = ["a", "b", "longname1", "longname2", "longnameX", "p:a", "q:b", "p:longname1", "xlink:href", "data-x", "x", "y", "width", "height"]
        let pieces = ["v", "12345678", "1234567", "x &amp; y", "&#233;", "é", "😀", "\t", " ", "&quot;", "'", "abcdefghijklmnop"]
        var read = 0
        var duplicates = 0
        for n in 0 ..< 400 {
            var chosen = Array(names.shuffled(using: &rng).prefix(Int.random(in: 1 ... names.count, using: &rng)))
            let duplicate = n % 7 == 3
            if duplicate { chosen.append(chosen.randomElement(using: &rng)!) }
            let attributes = chosen.map { name in
                let value = (0 ..< Int.random(in: 0 ..< 5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
                    .replacingOccurrences(of: "\\t", with: "\t")
                return " \(name)=\"\(value)\""
            }.joined()
            let doc = "<r xmlns:p=\"urn:p\" xmlns:q=\"urn:q\" xmlns:xlink=\"urn:x\"><e\(attributes)/><f\(attributes)>t</f></r>"
            let gotRead = Self.agree(Array(doc.utf8), "\(doc)", content: content)
            if gotRead { read += 1 }
            if duplicate {
                duplicates += 1
                #expect(!gotRead, "a duplicate attribute must be handed over: \(doc)")
            }
        }
        #expect(read == 400 - duplicates, "every document without a duplicate is read by the fast path: \(read)")
    }

    /// With a buffer of a few bytes every token is cut, at every place: the same trees,
    /// and the same documents handed over.
    @Test(arguments: [1, 2, 3, 5, 8, 13, 64])
    func tokensCutByTheBufferAreReadWhole(bufferSize: Int) {
        var rng = SplitMix64(seed: 17)
        for n in 0 ..< 60 {
            var bytes = Array(Self.document(&rng, elements: 1 + n % 30).utf8)
            if n % 3 == 2 { bytes[Int.random(in: 0 ..< bytes.count, using: &rng)] = Array("<&]/\"".utf8).randomElement(using: &rng)! }
            for content in ImportContent.allCases {
                let whole = MarkupTreeReader(content: content).fastPath(bytes)
                let cut = MarkupTreeReader(content: content).fastPath(bytes, bufferSize: bufferSize)
                #expect((cut.tree == nil) == (whole.tree == nil), "buffer \(bufferSize), document \(n), \(content)")
                #expect(cut.gaveUpAt == whole.gaveUpAt, "buffer \(bufferSize), document \(n), \(content)")
                if let a = cut.tree, let b = whole.tree { #expect(Self.lines(a) == Self.lines(b)) }
            }
        }
    }

    /// The benchmarks' sample documents: read by the fast path, as libxml2 reads them; the
    /// JSON one has the values asked for, plus its array and the rest of the containers
    /// open when the count was reached.
    @Test func theSampleDocumentsImport() throws {
        let xml = SampleDocuments.xml(elements: 3_000, seed: 1)
        #expect(Self.agree(xml))
        #expect(MarkupTreeReader(content: .skeleton).fastPathTree(xml)?.count == 3_000)
        #expect(SampleDocuments.xml(elements: 3_000, seed: 1) == xml)
        let json = SampleDocuments.json(values: 5_000, seed: 1)
        let tree = try TreeImporter(content: .skeleton).importTree(json, format: .json)
        #expect((5_001 ..< 5_600).contains(tree.count), "\(tree.count)")
        let keyed = tree.descendants(of: tree.roots[0]).filter { tree.attribute(.key, of: $0) != nil }.count
        #expect(keyed > 500)
    }

    @Test func theCommittedSeedsAgree() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/corpus/xml").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!files.isEmpty)
        for file in files {
            let bytes = Array(try Data(contentsOf: dir.appendingPathComponent(file)))
            Self.agree(bytes, "\(file)")
        }
    }

    /// What the fast path hands over, each rule once: libxml2 then reads it as before.
    @Test(arguments: [
        "<!DOCTYPE r><r/>",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r/>",
        "<?xml version=\"1.1\"?><r/>",
        "<r><é/></r>",
        "<r><a:b:c/></r>",
        "<r id=\"a&amp;b\"/>",
        "<r class=\"a\tb\"/>",
        "<r tag=\"&#52;\"/>",
        "<r xmlns:p=\"\"/>",
        "<r>&undefined;</r>",
        "<r a=\"1\" a=\"2\"/>",
        "<r p:a=\"1\" q:a=\"2\" xmlns:p=\"u\" xmlns:q=\"u\"/>",
        "<r><a></b></r>",
        "<r/><r/>",
        "text<r/>",
        "<r>]]></r>",
        "<r>\u{1}</r>",
        "<r>\u{FFFF}</r>",
        "<r><!-- a -- b --></r>",
        "<r/><?xml version=\"1.0\"?>",
        "<r><a>",
        "",
        "   ",
        "<r a=\"<\"/>",
        "<r a='1'b='2'/>",
        "<r/ >",
        "< r/>",
        "<r>&#0;</r>",
        "<r>&#xD800;</r>",
        "<r>&#x110000;</r>",
        "<r>&#;</r>",
        "<r>&#x;</r>",
        "<r>&amp</r>",
        "<r>&ampx;</r>",
        "<r>&#65</r>",
        "<r>\u{FFFE}</r>",
        "<r>a\u{FFFF}</r>",
        "<:r/>",
        "<r:/>",
    ])
    func documentsTheFastPathHandsToLibxml2(text: String) {
        #expect(MarkupTreeReader(content: .skeleton).fastPathTree(Array(text.utf8)) == nil)
    }

    @Test func invalidUTF8IsHandedOver() {
        for bytes: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82]] {
            #expect(MarkupTreeReader(content: .skeleton).fastPathTree(Array("<r>".utf8) + bytes + Array("</r>".utf8)) == nil)
            #expect(MarkupTreeReader(content: .skeleton).fastPathTree(Array("<r a=\"".utf8) + bytes + Array("\"/>".utf8)) == nil)
        }
    }

    /// Random documents with random bytes changed: whatever the fast path still reads,
    /// libxml2 reads to the same tree.
    @Test(arguments: ImportContent.allCases)
    func mutatedDocumentsAgree(content: ImportContent) {
        var rng = SplitMix64(seed: 11)
        let alphabet = Array("<>&;\"'/!?-]:=#x \n\tabé".utf8) + [0x00, 0x80, 0xC3, 0xEF, 0xBF]
        var read = 0
        for _ in 0 ..< 3_000 {
            var bytes = Array(Self.document(&rng, elements: Int.random(in: 1 ..< 12, using: &rng)).utf8)
            for _ in 0 ..< Int.random(in: 1 ... 3, using: &rng) where !bytes.isEmpty {
                let at = Int.random(in: 0 ..< bytes.count, using: &rng)
                switch Int.random(in: 0 ..< 3, using: &rng) {
                case 0: bytes[at] = alphabet.randomElement(using: &rng)!
                case 1: bytes.insert(alphabet.randomElement(using: &rng)!, at: at)
                default: bytes.remove(at: at)
                }
            }
            if Self.agree(bytes, content: content) { read += 1 }
        }
        #expect(read > 300, "most mutated documents are handed over, but some should still be read: \(read)")
    }

    /// A file larger than the scanner's buffer, with every kind of markup across its
    /// boundaries: the fast path reads it, as libxml2 does.
    @Test func aFileLargerThanTheBufferAgrees() throws {
        var rng = SplitMix64(seed: 3)
        var body = ""
        while body.utf8.count < 3 << 20 { body += Self.document(&rng, elements: 40).replacingOccurrences(of: "<?xml", with: "<?pi").replacingOccurrences(of: "\u{FEFF}", with: "") }
        // One root around the documents, whose declarations became processing instructions.
        let text = "<all>" + body.replacingOccurrences(of: "<?pi version", with: "<?pi-x version") + "</all>"
        let bytes = Array(text.utf8)
        #expect(Self.agree(bytes))
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/big.xml"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let fromFile = try TreeImporter(content: .skeleton).importTree(contentsOf: path)
            #expect(Self.lines(fromFile) == (try? Self.libxml2(bytes).get()))
        }
    }

    /// The first pass's counts, vector paths (AVX2, where the processor has it) against the
    /// plain loops, on random bytes rich in `<` and `/`: every length to 600, lengths past
    /// the 255 steps after which the vector lanes are summed, either follower of the last
    /// byte; and the whole import's bound in one pass against the two passes it replaced.
    @Test func theFirstPassCountsAgreeWithThePlainLoops() {
        var rng = SplitMix64(seed: 35)
        let alphabet = Array("<</a/>,[{".utf8) + [0x00, 0xFF]
        for length in Array(0 ..< 600) + [8_159, 8_160, 8_161, 8_193, 20_000, 70_001] {
            let bytes = (0 ..< length).map { _ in alphabet.randomElement(using: &rng)! }
            bytes.withUnsafeBufferPointer { b in
                guard let p = b.baseAddress else { return }
                #expect(rv_count_bytes3(p, b.count, 0x2C, 0x5B, 0x7B) == rv_count_bytes3_reference(p, b.count, 0x2C, 0x5B, 0x7B), "length \(length)")
                for next in [UInt8(0), UInt8(ascii: "/")] {
                    let markup = rv_count_markup_nodes(p, b.count, next)
                    #expect(markup == rv_count_markup_nodes_reference(p, b.count, next), "length \(length), next \(next)")
                    #expect(markup == rv_count_open_tags(p, b.count, next) + rv_count_bytes3(p, b.count, 0x3C, 0x3C, 0x3C), "length \(length)")
                    let lt = bytes.filter { $0 == 0x3C }.count
                    let closing = (0 ..< length).filter { bytes[$0] == 0x3C && ($0 + 1 < length ? bytes[$0 + 1] : next) == 0x2F }.count
                    #expect(markup == 2 * lt - closing, "length \(length), next \(next)")
                }
            }
        }
    }
}
