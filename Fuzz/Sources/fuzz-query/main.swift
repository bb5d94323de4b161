import FuzzSupport
import RelativeViewCore
import RelativeViewImport
import RelativeViewQuery

// One input: its first byte picks the language (0 mod 3: JSONPath, 1: XPath, 2: CSS), the
// rest is the query (UTF-8, a malformed sequence read as U+FFFD). The query is compiled; a
// query that compiles is evaluated, with a small budget, on a document of its language that
// has what queries ask of (duplicate members, nesting, escapes; namespaces, mixed content).
// Nothing may trap: a wrong query is a QueryError, a costly one ends at its budget. Each
// JSONPath node's normalized path, itself a query, must select that node (and only nodes of
// that path: members of one object that share a name, which the document has, share it).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: count)
    guard let first = bytes.first else { return 0 }
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    switch first % 3 {
    case 0: checkJSONPath(text)
    case 1: if let query = try? XPath(text, namespaces: ["p": "urn:p"]) { _ = try? Documents.markup.evaluate(query, budget: 100_000) }
    default: if let query = try? CSSSelector(text) { _ = try? Documents.markup.select(query, budget: 100_000) }
    }
    return 0
}

enum Documents {
    static let json = try! TreeImporter().importTree(Array(#"""
        {"a":[1,2.5,-0,1e3,"x\"y",true,false,null,{"b":{"c":[[],{}]}}],"a":"dup","k'\\":{"":0,"é":"\ud83d\ude00"},
         "n":[[1,[2,[3,[4]]]],{"a":{"a":{"a":1}}}],"s":"Abc","t":["ab","bc","a.c"]}
        """#.utf8), format: .json, path: "fuzz.json")
    static let markup = try! TreeImporter().importTree(Array(#"""
        <r xmlns:p="urn:p"><a id="1" class="x y">t<b>u</b>v<!--c--><?pi d?></a><p:a p:id="2"><a/><a><b/></a></p:a>\
        <c xmlns="urn:d"><a/></c><![CDATA[w]]></r>
        """#.utf8), format: .xml, path: "fuzz.xml")
}

func checkJSONPath(_ text: String) {
    guard let query = try? JSONPath(text) else { return }
    let tree = Documents.json
    guard let nodes = try? tree.select(query, budget: 100_000) else { return }
    for (node, path) in zip(nodes, tree.normalizedPaths(of: nodes)).prefix(8) {
        guard let again = try? tree.select(JSONPath(path)) else { fatalError("the normalized path \(path) of a node of \(text) does not compile") }
        guard again.contains(node), tree.normalizedPaths(of: again).allSatisfy({ $0 == path }) else {
            fatalError("the normalized path \(path) of a node of \(text) selects \(tree.normalizedPaths(of: again)), not that node")
        }
    }
}

runFuzzer(fuzzOne)
