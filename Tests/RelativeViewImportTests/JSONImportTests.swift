import Foundation
import RelativeViewCore
@testable import RelativeViewImport
import RelativeViewFixtures
import Testing

@Suite struct JSONImportTests {
    @Test func everyObjectArrayAndValueIsANode() throws {
        let text = #"{"b": [1, -2.5e3, "s\"\u00e9", true, false, null], "a": {}, "c": [], "d": {"x": 0}}"#
        #expect(outline(try importing(text, as: .json)) == "object(array(number,number,string,bool,bool,null),object,array,object(number))")
    }

    @Test(arguments: ["0", "\"x\"", "null", " [ ] ", "\u{FEFF}{}"])
    func aScalarOrEmptyContainerIsOneNode(text: String) throws {
        #expect(try importing(text, as: .json).count == 1)
    }

    @Test(arguments: [
        ("[1, 2,]", 1, 7, "unexpected ']'"),
        ("{\"a\" 1}", 1, 6, "expected ':'"),
        ("{\n  \"a\": tru\n}", 2, 8, "'true'"),
        ("[\"abc", 1, 2, "unterminated string"),
        ("[01]", 1, 3, "unexpected '1'"),
        ("[1.]", 1, 4, "digit after '.'"),
        ("[\"\\x\"]", 1, 3, "invalid escape"),
        ("[\"\\u12g4\"]", 1, 3, "\\u escape"),
        // The escape after a high surrogate's is checked too: masked to 16 bits, these
        // digits passed for a low surrogate's.
        ("[\"\\ud889\\udcXd5\"]", 1, 9, "\\u escape"),
        ("{\"\\ud800\\udc0G\": 1}", 1, 9, "\\u escape"),
        ("{\"a\": [1, 2}", 1, 12, "',' or ']'"),
        ("[1] [2]", 1, 5, "end of the document"),
        ("{", 1, 2, "unexpected end"),
        ("", 1, 1, "empty document"),
        ("[\"a\tb\"]", 1, 4, "control character"),
        ("{1: 2}", 1, 2, "member name"),
    ] as [(String, Int, Int, String)])
    func badJSONIsAnErrorWithItsLineAndColumn(text: String, line: Int, column: Int, words: String) throws {
        let error = try #require(importError(text, as: .json, path: "bad.json"))
        #expect(error.path == "bad.json")
        #expect(error.line == line, "\(error)")
        #expect(error.column == column, "\(error)")
        #expect(error.message.contains(words), "\(error)")
    }

    /// Whitespace of every kind and length between tokens (indentation of spaces with line
    /// feeds, carriage returns and tabs among them, runs across eight-byte words) changes
    /// nothing; a control byte or NUL after a run of spaces is an error at its column.
    @Test func whitespaceRunsOfEveryKindAndLength() throws {
        var rng = SplitMix64(seed: 31)
        let tokens = ["{", "\"a\"", ":", "[", "1", ",", "\"b\"", ",", "true", ",", "[", "]", ",", "{", "}", "]", ",", "\"c\"", ":", "-2.5", "}"]
        let compact = tokens.joined()
        for _ in 0 ..< 200 {
            let gaps = tokens.indices.map { _ in
                String((0 ..< Int.random(in: 0 ..< 30, using: &rng)).map { _ in
                    Int.random(in: 0 ..< 10, using: &rng) < 7 ? " " : ["\n", "\r", "\t"].randomElement(using: &rng)!
                })
            }
            let spaced = zip(gaps, tokens).map { $0 + $1 }.joined() + gaps[0]
            #expect(outline(try importing(spaced, as: .json)) == outline(try importing(compact, as: .json)), "\(spaced.debugDescription)")
        }
        for (k, bad) in ["\u{01}", "\u{0B}", "\u{0C}", "\u{1F}", "\u{00}"].enumerated() {
            let spaces = String(repeating: " ", count: 3 + 5 * k)
            let error = try #require(importError("[1," + spaces + bad + "2]", as: .json))
            #expect(error.line == 1 && error.column == 4 + spaces.count, "\(error)")
        }
    }

    /// `["` + bytes + `"]`: a string holding raw bytes.
    static func stringHolding(_ bytes: [UInt8]) -> [UInt8] { Array("[\"".utf8) + bytes + Array("\"]".utf8) }

    @Test(arguments: [
        ([0xFF], 3, "byte 0xff"),                      // never in UTF-8
        ([0x80], 3, "byte 0x80"),                      // a continuation byte alone
        ([0xC0, 0x80], 3, "byte 0xc0"),                // overlong NUL
        ([0xE0, 0x80, 0x80], 4, "byte 0x80"),          // overlong, three bytes
        ([0xED, 0xA0, 0x80], 4, "byte 0xa0"),          // the surrogate U+D800
        ([0xF4, 0x90, 0x80, 0x80], 4, "byte 0x90"),    // past U+10FFFF
        ([0xE2, 0x82], 5, "byte 0x22"),                // cut short by the closing quote
        ([0x61, 0xC3, 0x28], 5, "byte 0x28"),          // a lead byte and no continuation
    ] as [([UInt8], Int, String)])
    func invalidUTF8InAStringIsAnErrorAtItsByte(bytes: [UInt8], column: Int, words: String) throws {
        let error = try #require(throws: ImportError.self) {
            try TreeImporter(content: .skeleton).importTree(Self.stringHolding(bytes), format: .json, path: "bad.json")
        }
        #expect(error.line == 1)
        #expect(error.column == column, "\(error)")
        #expect(error.message.contains("invalid UTF-8"), "\(error)")
        #expect(error.message.contains(words), "\(error)")
    }

    @Test func invalidUTF8InAMemberNameIsAnErrorToo() throws {
        let text = Array("{\"k".utf8) + [0xFE] + Array("\": 1}".utf8)
        let error = try #require(throws: ImportError.self) { try TreeImporter(content: .skeleton).importTree(text, format: .json, path: "bad.json") }
        #expect(error.column == 4, "\(error)")
    }

    @Test func wellFormedUTF8AndEscapedSurrogatesImport() throws {
        // Two-, three- and four-byte sequences at the edges of their ranges, and a lone
        // escaped surrogate, which RFC 8259 (section 8.2) leaves to the reader: accepted.
        for text in ["[\"é€😀\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}\"]", #"["\ud800", "\udfff"]"#] {
            let tree = try importing(text, as: .json)
            #expect(tree.count == Array(tree.descendants(of: tree.roots[0])).count + 1)
            #expect(tree.count >= 2)
        }
    }

    @Test func deepNestingDoesNotOverflowTheStack() throws {
        let depth = 1_000_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let tree = try importing(text, as: .json)
        #expect(tree.count == depth)
        let deepest = try #require(tree.node(atSlot: depth - 1))
        #expect(tree.depth(of: deepest) == depth - 1)
    }

    @Test func aFileIsReadFromDiskAndDetected() throws {
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/data"
            try #"  [{"k": [1]}]"#.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(ImportFormat.detect(path: path) == .json)
            #expect(outline(try TreeImporter(content: .skeleton).importTree(contentsOf: path)) == "array(object(array(number)))")
        }
    }

    /// The UTF-8 the readers write for an escape or a character reference is the
    /// standard library's, at every length's edges and for random scalars.
    @Test func escapesAreEncodedAsTheStandardLibraryEncodesThem() {
        var rng = SplitMix64(seed: 29)
        let edges: [UInt32] = [0, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x6728, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF]
        let random = (0 ..< 2_000).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0 ... 0x10FFFF, using: &rng))?.value }
        for value in edges + random {
            var bytes = [UInt8](repeating: 0, count: 4)
            let n = bytes.withUnsafeMutableBufferPointer { _putUTF8(value, at: $0.baseAddress!) }
            #expect(Array(bytes.prefix(n)) == Array(String(Unicode.Scalar(value)!).utf8), "U+\(String(value, radix: 16))")
        }
    }

    /// The four-digit reader of `\\u` escapes, for every byte in every place: the value of
    /// four hexadecimal digits (either case), a value past 0xFFFF for anything else.
    @Test func hexQuadsReadEveryByteInEveryPlace() {
        let digits = Array("0123456789abcdefABCDEF".utf8)
        for place in 0 ..< 4 {
            for byte in UInt8.min ... UInt8.max {
                var quad = Array("9fA0".utf8)
                quad[place] = byte
                let expected: UInt32? = quad.allSatisfy(digits.contains) ? UInt32(String(decoding: quad, as: UTF8.self), radix: 16) : nil
                let value = quad.withUnsafeBufferPointer { _JSONScanner.hexQuad($0.baseAddress!) }
                if let expected { #expect(value == expected, "\(quad)") } else { #expect(value > 0xFFFF, "\(quad)") }
            }
        }
    }

    /// Every escape letter: the eight of RFC 8259 decode to their byte; any other is an
    /// error at the backslash.
    @Test func everyEscapeLetterDecodesOrIsAnError() throws {
        let decoded: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
        for letter in UInt8(0x20) ... UInt8(0xFF) where letter != UInt8(ascii: "u") {
            // After a first escape, so that the decoding loop reads the letter.
            let text = Self.stringHolding(Array("ab\\n".utf8) + [0x5C, letter] + Array("cd".utf8))
            if let byte = decoded[letter] {
                let tree = try TreeImporter().importTree(text, format: .json, path: "e.json")
                #expect(Array(tree.value(of: tree.children(of: tree.roots[0]).first!)!.utf8) == Array("ab\ncd".utf8).prefix(3) + [byte] + Array("cd".utf8))
            } else {
                let error = try #require(throws: ImportError.self) { try TreeImporter().importTree(text, format: .json, path: "e.json") }
                #expect(error.column == 7, "\(letter): \(error)")
            }
        }
    }

    /// Strings of random escapes, characters of every length and runs of every length,
    /// decoded as Foundation's `JSONDecoder` decodes them, as values and as member names.
    @Test func randomEscapedStringsDecodeAsFoundationDecodesThem() throws {
        var rng = SplitMix64(seed: 35)
        let pieces: [String] = [
            "a", "plain words", String(repeating: "x", count: 23), "é", "дерево", "木本", "😀", "\\\"", "\\\\", "\\/",
            "\\b", "\\f", "\\n", "\\r", "\\t", "\\u00e9", "\\u00E9", "\\u6728", "\\uFFFD", "\\u0000", "\\u007f",
            "\\ud83c\\udf33", "\\uD83D\\uDE00",
        ]
        var strings: [String] = []
        for _ in 0 ..< 400 {
            let count = Int.random(in: 0 ... 12, using: &rng)
            strings.append((0 ..< count).map { _ in pieces.randomElement(using: &rng)! }.joined())
        }
        let array = "[" + strings.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let object = "{" + strings.enumerated().map { "\"\($0.element)\": \($0.offset)" }.joined(separator: ",") + "}"
        let expected = try JSONDecoder().decode([String].self, from: Data(array.utf8))
        let arrayTree = try TreeImporter().importTree(Array(array.utf8), format: .json, path: "a.json")
        #expect(arrayTree.children(of: arrayTree.roots[0]).map { arrayTree.value(of: $0) ?? "" } == expected)
        let objectTree = try TreeImporter().importTree(Array(object.utf8), format: .json, path: "o.json")
        #expect(objectTree.children(of: objectTree.roots[0]).map { objectTree.attribute(.key, of: $0) ?? "" } == expected)
        // Through windows of a few bytes: every escape, run of escapes and run of
        // characters past ASCII is cut somewhere, and read again whole after the refill.
        // The member names too, into a builder given its capacity as an import's is (so that
        // names seen lately take the direct path, `setKey(words:count:)`).
        for size in [1, 3, 7, 16, 61] {
            var builder = ViewTreeBuilder()
            try JSONTreeReader().read(Array(array.utf8), path: "a.json", into: &builder, bufferSize: size)
            let cut = builder.finish()
            #expect(cut.children(of: cut.roots[0]).map { cut.value(of: $0) ?? "" } == expected, "a window of \(size) bytes")
            var keyed = ViewTreeBuilder(minimumCapacity: strings.count + 1)
            try JSONTreeReader().read(Array(object.utf8), path: "o.json", into: &keyed, bufferSize: size)
            let names = keyed.finish()
            #expect(names.children(of: names.roots[0]).map { names.attribute(.key, of: $0) ?? "" } == expected, "a window of \(size) bytes")
        }
    }
}
