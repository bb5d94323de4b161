import Foundation
import RelativeViewCore
import RelativeViewImport
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
            #expect(outline(try TreeImporter().importTree(contentsOf: path)) == "array(object(array(number)))")
        }
    }
}
