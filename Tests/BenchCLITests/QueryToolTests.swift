import Foundation
import Testing

/// `relative-view query` as a user runs it.
@Suite struct QueryToolTests {
    func run(_ arguments: [String]) throws -> BenchRun { try BenchRun(arguments, tool: "relative-view") }

    static let page = "<?xml version=\"1.0\"?>\n<!--c--><a><b id=\"k\">t</b><c><b>u</b></c><b/></a>\n"

    @Test func printsWhatWasSelected() throws {
        let xml = try temporaryFile("q.xml", Self.page)
        defer { removeTemporaryDirectory(of: xml) }
        // Elements by their number among the elements (a is 0, b 1, c 2, the inner b 3, the last b 4).
        var r = try run(["query", xml, "--xpath", "//b"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "1\n3\n4\n")
        r = try run(["query", xml, "--css", "a > b"])
        #expect(r.stdout == "1\n4\n")
        r = try run(["query", xml, "--xpath", "//b[1] | //@id", "--print", "paths"])
        #expect(r.stdout == "/a[1]/b[1]\n/a[1]/b[1]/@id\n/a[1]/c[1]/b[1]\n")
        r = try run(["query", xml, "--css", "c", "--print", "xml"])
        #expect(r.stdout == "<c><b>u</b></c>\n", "\(r.stdout)")
        r = try run(["query", xml, "--xpath", "//text()", "--print", "count"])
        #expect(r.stdout == "2\n")
        r = try run(["query", xml, "--xpath", "count(//b) div 2"])
        #expect(r.stdout == "1.5\n")
        r = try run(["query", xml, "--xpath", "string(//b[@id])"])
        #expect(r.stdout == "t\n")
        // An attribute as the XML writer writes it: a value with a tab and a line break
        // reads back the same.
        let tabbed = try temporaryFile("t.xml", "<a v=\"1&#9;&lt;2&gt;&#10;\"/>")
        defer { removeTemporaryDirectory(of: tabbed) }
        r = try run(["query", tabbed, "--xpath", "//@v", "--print", "xml"])
        #expect(r.stdout == "v=\"1&#9;&lt;2&gt;&#10;\"\n", "\(r.stdout)")
    }

    /// A snapshot answers a count or element numbers from its sections read in place, each
    /// group checked as the query first reads it: the same lines as the document, with
    /// `--repeat` too; a damaged snapshot is still named as a whole load names it.
    @Test func aSnapshotAnswersAsItsDocument() throws {
        let xml = try temporaryFile("s.xml", "<?xml version=\"1.0\"?>\n<a xmlns:p=\"urn:p\"><b id=\"k\">t</b><c><b>u</b><p:b/></c><b lang=\"en\"/>x</a>\n")
        defer { removeTemporaryDirectory(of: xml) }
        let snapshot = xml + ".rvtree"
        var r = try run(["convert", xml, snapshot, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        for query in [["--xpath", "//b"], ["--css", "a > b"], ["--xpath", "//b[@id='k']"], ["--xpath", "//b[. = 'u']"], ["--css", "[id]"],
                      ["--xpath", "count(//text())"], ["--xpath", "string(//c)"], ["--xpath", "//*[lang('en')]"], ["--xpath", "//p:b", "--namespace", "p=urn:p"],
                      ["--css", "b:first-child"], ["--xpath", "//b | //@id"]] {
            for print in ["preorder", "count"] {
                let fromDocument = try run(["query", xml] + query + ["--print", print])
                let fromSnapshot = try run(["query", snapshot] + query + ["--print", print, "--repeat", "2"])
                #expect(fromDocument.status == 0 && fromSnapshot.status == 0, "\(query): \(fromSnapshot.stderr)")
                #expect(fromSnapshot.stdout == fromDocument.stdout, "\(query) \(print): \(fromSnapshot.stdout) vs \(fromDocument.stdout)")
                #expect(fromSnapshot.stderr.contains("best_ns="))
            }
        }
        // `--timings`: the load's and the first evaluation's nanoseconds, read in place and whole,
        // before --repeat's line.
        for input in [snapshot, xml] {
            r = try run(["query", input, "--css", "c > b", "--print", "count", "--timings", "--repeat", "2"])
            let lines = r.stderr.split(separator: "\n").map(String.init)
            #expect(r.status == 0 && r.stdout == "2\n", "\(input): \(r.stdout) \(r.stderr)")
            #expect(lines.count >= 2 && lines[lines.count - 2].wholeMatch(of: /load_ns=[0-9]+ first_ns=[0-9]+/) != nil, "\(input): \(r.stderr)")
            #expect(lines.last?.hasPrefix("best_ns=") == true, "\(input): \(r.stderr)")
        }
        r = try run(["query", snapshot, "--xpath", "//b[", "--print", "count"])
        #expect(r.status == 1 && r.stderr.contains("^"), "\(r.stderr)")
        // One byte of the last block changed: the whole load's error, not an answer.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: snapshot)))
        bytes[bytes.count / 2] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: snapshot))
        r = try run(["query", snapshot, "--css", "b", "--print", "count"])
        #expect(r.status == 1 && r.stderr.contains("checksum mismatch"), "\(r.stdout) \(r.stderr)")
    }

    /// A snapshot of many elements, few with an attribute: a query of those elements'
    /// attributes has each run checked as it reads it. A byte of the attributes' texts
    /// changed (in a block of texts only: 3 MB of them), the file not sealed again: a query
    /// that reads the changed block ends with the whole load's error, one that reads no
    /// attribute still answers, and one that reads the attributes of every element (checked
    /// before the query) ends with the error too.
    @Test func aSnapshotsAttributesAreCheckedAsTheyAreRead() throws {
        let long = String(repeating: "v", count: 50_000)
        var text = "<r>"
        for k in 0 ..< 60_000 { text += k % 1000 == 0 ? "<e z=\"zz\(k)\(long)\"/>" : "<d><f/></d>" }
        text += "</r>"
        let xml = try temporaryFile("many.xml", text)
        defer { removeTemporaryDirectory(of: xml) }
        let snapshot = xml + ".rvtree"
        var r = try run(["convert", xml, snapshot, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let query = ["--xpath", "//e[starts-with(@z, 'zz30000v')]"]
        r = try run(["query", snapshot] + query)
        // r is element 0; before the e of k = 30,000, 30 e and 29,970 d with their f.
        #expect(r.status == 0 && r.stdout == "\(1 + 30 + 2 * 29_970)\n", "\(r.stdout) \(r.stderr)")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: snapshot)))
        let at = try #require(bytes.indices.first { bytes[$0 ..< min(bytes.count, $0 + 8)].elementsEqual(Array("zz30000v".utf8)) })
        bytes[at + 100] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: snapshot))
        r = try run(["query", snapshot] + query + ["--print", "count"])
        #expect(r.status == 1 && r.stderr.contains("checksum mismatch"), "\(r.stdout) \(r.stderr)")
        r = try run(["query", snapshot, "--xpath", "//e", "--print", "count"])
        #expect(r.status == 0 && r.stdout == "60\n", "\(r.stdout) \(r.stderr)")
        r = try run(["query", snapshot, "--css", "[z]", "--print", "count"])
        #expect(r.status == 1 && r.stderr.contains("checksum mismatch"), "\(r.stdout) \(r.stderr)")
    }

    @Test func prefixesAreBoundOnTheCommandLine() throws {
        let xml = try temporaryFile("ns.xml", "<r xmlns=\"urn:d\"><x/><y xmlns=\"\"><x/></y></r>")
        defer { removeTemporaryDirectory(of: xml) }
        var r = try run(["query", xml, "--xpath", "count(//x)"])
        #expect(r.stdout == "1\n", "\(r.stderr)")  // the x in no namespace
        r = try run(["query", xml, "--xpath", "count(//d:x)", "--namespace", "d=urn:d"])
        #expect(r.stdout == "1\n", "\(r.stderr)")
        r = try run(["query", xml, "--css", "x", "--print", "count"])
        #expect(r.stdout == "2\n")  // a type selector matches in any namespace
        r = try run(["query", xml, "--xpath", "//d:x"])
        #expect(r.status == 1 && r.stderr.contains("undefined namespace prefix 'd'"), "\(r.stderr)")
        r = try run(["query", xml, "--xpath", "//d:x", "--namespace", "d"])
        #expect(r.status == 64 && r.stderr.contains("PREFIX=URI"), "\(r.stderr)")
    }

    @Test func repeatReportsTheEvaluationTimes() throws {
        let xml = try temporaryFile("q.xml", Self.page)
        defer { removeTemporaryDirectory(of: xml) }
        let r = try run(["query", xml, "--css", "b", "--repeat", "5", "--print", "count"])
        #expect(r.status == 0)
        #expect(r.stdout == "3\n")
        let last = try #require(r.stderr.split(separator: "\n").last.map(String.init))
        let fields = Dictionary(uniqueKeysWithValues: last.split(separator: " ").map { f in
            let kv = f.split(separator: "=")
            return (String(kv[0]), Int(kv[1]) ?? -1)
        })
        #expect(Set(fields.keys) == ["best_ns", "median_ns", "matches"], "\(last)")
        #expect(fields["matches"] == 3)
        #expect(fields["best_ns"]! > 0 && fields["best_ns"]! <= fields["median_ns"]!)
    }

    @Test func namespaceNodes() throws {
        let xml = try temporaryFile("ns.xml", "<r xmlns:p=\"urn:p\"><a xmlns:q=\"urn:q\"/></r>")
        defer { removeTemporaryDirectory(of: xml) }
        var r = try run(["query", xml, "--xpath", "//a/namespace::*", "--print", "paths"])
        #expect(r.stdout == "/r[1]/a[1]/namespace::xml\n/r[1]/a[1]/namespace::p\n/r[1]/a[1]/namespace::q\n", "\(r.stdout) \(r.stderr)")
        r = try run(["query", xml, "--xpath", "//a/namespace::q", "--print", "xml"])
        #expect(r.stdout == "xmlns:q=\"urn:q\"\n", "\(r.stdout)")
        // Not elements: no number of theirs.
        r = try run(["query", xml, "--xpath", "//namespace::p"])
        #expect(r.status == 0 && r.stdout == "", "\(r.stdout)")
    }

    @Test func movesAndThreads() throws {
        let xml = try temporaryFile("q.xml", Self.page)
        defer { removeTemporaryDirectory(of: xml) }
        // The same seed moves the same subtrees: the same answer twice; the pristine line
        // (the moved document loaded afresh) comes before the last, with its own times.
        let first = try run(["query", xml, "--xpath", "//b/..", "--moves", "6", "--seed", "3", "--repeat", "3"])
        let again = try run(["query", xml, "--xpath", "//b/..", "--moves", "6", "--seed", "3", "--repeat", "3"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == again.stdout)
        let lines = first.stderr.split(separator: "\n")
        #expect(lines.count >= 2 && lines[lines.count - 2].hasPrefix("pristine_best_ns="), "\(first.stderr)")
        #expect(lines.last?.hasPrefix("best_ns=") == true)
        // Moved, the document differs: b elements under other parents.
        let pristine = try run(["query", xml, "--xpath", "//b/.."])
        #expect(first.stdout != pristine.stdout, "\(first.stdout)")
        let threaded = try run(["query", xml, "--xpath", "//b", "--threads", "2"])
        #expect(threaded.stdout == "1\n3\n4\n")
        let refused = try run(["query", xml, "--xpath", "//b", "--threads", "0"])
        #expect(refused.status == 64 && refused.stderr.contains("--threads"), "\(refused.stderr)")
    }

    @Test(arguments: [
        (["query", "DOC", "--xpath", "//b["], Int32(1), "XPath error at character 5"),
        (["query", "DOC", "--css", "a >"], Int32(1), "CSS error at character 4"),
        (["query", "DOC", "--css", ":hover"], Int32(1), "unsupported pseudo-class"),
        (["query", "DOC", "--xpath", "foo(1)"], Int32(1), "unknown function foo()"),
        (["query", "DOC"], Int32(64), "give one of --css, --xpath and --jsonpath"),
        (["query", "DOC", "--css", "b", "--xpath", "//b"], Int32(64), "give one of --css, --xpath and --jsonpath"),
        (["query", "DOC", "--css", "b", "--print", "values"], Int32(64), "--print values is for JSONPath"),
        (["query", "DOC", "--jsonpath", "$[?@.a]", "--print", "xml"], Int32(64), "--print xml is for CSS and XPath"),
        (["query", "DOC", "--jsonpath", "$[?@.a == 01]"], Int32(1), "JSONPath error at character 11: a number has no leading zero"),
        (["query", "DOC", "--jsonpath", "$..[?count(@.a) > 1] "], Int32(1), "JSONPath error at character 21"),
        (["query", "DOC", "--css", "b", "--repeat", "0"], Int32(64), "--repeat"),
        (["query", "/nonexistent/q.xml", "--css", "b"], Int32(1), "/nonexistent/q.xml"),
    ])
    func badQueriesAreErrorsWithTheirStatus(arguments: [String], status: Int32, words: String) throws {
        let xml = try temporaryFile("q.xml", Self.page)
        defer { removeTemporaryDirectory(of: xml) }
        let r = try run(arguments.map { $0 == "DOC" ? xml : $0 })
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.contains(words), "\(r.stderr)")
    }

    static let store = #"{"store":{"book":[{"title":"A","price":8.95,"tags":["x"]},{"title":"B \"q\"","price":12.99},"#
        + #"{"title":"C","price":8.99,"isbn":"0-1"}],"bicycle":{"color":"red","price":399}},"it's":[1,2.50,-0]}"#

    @Test func jsonPathPrintsValuesPathsAndCounts() throws {
        let json = try temporaryFile("store.json", Self.store)
        defer { removeTemporaryDirectory(of: json) }
        var r = try run(["query", json, "--jsonpath", "$.store.book[?@.price < 10].title"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "[\n\"A\",\n\"C\"\n]\n", "\(r.stdout)")
        // Numbers as written, objects and arrays whole, on one line each.
        r = try run(["query", json, "--jsonpath", "$[\"it's\"][1:]"])
        #expect(r.stdout == "[\n2.50,\n-0\n]\n", "\(r.stdout)")
        r = try run(["query", json, "--jsonpath", "$..book[0]"])
        #expect(r.stdout == "[\n{\"title\":\"A\",\"price\":8.95,\"tags\":[\"x\"]}\n]\n", "\(r.stdout)")
        // Normalized paths, as JSON strings: the apostrophe escaped in the path, the
        // backslash escaped in the JSON string.
        r = try run(["query", json, "--jsonpath", "$..[?@ == 1 || @ == 'x']", "--print", "paths"])
        #expect(r.stdout == "[\n\"$['store']['book'][0]['tags'][0]\",\n\"$['it\\\\'s'][0]\"\n]\n", "\(r.stdout)")
        r = try run(["query", json, "--jsonpath", "$..price", "--print", "count"])
        #expect(r.stdout == "4\n")
        r = try run(["query", json, "--jsonpath", "$.nothing"])
        #expect(r.status == 0 && r.stdout == "[]\n", "\(r.stdout)")
    }

    @Test func jsonPathOnASnapshotMovedAndRepeated() throws {
        let json = try temporaryFile("store.json", Self.store)
        defer { removeTemporaryDirectory(of: json) }
        let snapshot = json + ".rvtree"
        var r = try run(["convert", json, snapshot, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let fromJSON = try run(["query", json, "--jsonpath", "$..*", "--print", "paths"])
        r = try run(["query", snapshot, "--jsonpath", "$..*", "--print", "paths", "--repeat", "3"])
        #expect(r.status == 0 && r.stdout == fromJSON.stdout && r.stdout.contains("$['store']['bicycle']['color']"), "\(r.stdout)")
        #expect(r.stderr.split(separator: "\n").last?.hasPrefix("best_ns=") == true, "\(r.stderr)")
        // Moves keep a JSON tree a JSON document (members to objects, elements to arrays):
        // the pristine line is the moved document written and read back.
        let moved = try run(["query", json, "--jsonpath", "$..*", "--moves", "5", "--seed", "2", "--repeat", "2", "--print", "count"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout == "21\n", "\(moved.stdout)")  // moves change places, not how many values
        #expect(moved.stderr.contains("pristine_best_ns="), "\(moved.stderr)")
    }
}
