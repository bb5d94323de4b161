import Foundation
import Testing

/// `relative-view convert` and `info` as a user runs them.
@Suite struct ToolTests {
    func run(_ arguments: [String]) throws -> BenchRun { try BenchRun(arguments, tool: "relative-view") }

    @Test func convertsBetweenXMLJSONAndSnapshots() throws {
        let xml = try temporaryFile("in.xml", "<?xml version=\"1.0\"?>\n<!--c--><a x=\"1 &amp; 2\"><b id=\"k\">t&lt;</b><![CDATA[d]]></a>\n")
        defer { removeTemporaryDirectory(of: xml) }
        let dir = URL(fileURLWithPath: xml).deletingLastPathComponent().path
        // XML to XML: the document again.
        var r = try run(["convert", xml, dir + "/out.xml"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/out.xml", encoding: .utf8)
            == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--c-->\n<a x=\"1 &amp; 2\"><b id=\"k\">t&lt;</b><![CDATA[d]]></a>\n")
        // To JSON (JsonML), on standard output.
        r = try run(["convert", xml, "-", "--to", "json"])
        #expect(r.status == 0)
        #expect(r.stdout == #"["a",{"x":"1 & 2"},["b",{"id":"k"},"t<"],"d"]"# + "\n")
        // Through a snapshot: the whole document, or its skeleton.
        r = try run(["convert", xml, dir + "/tree.rvsnap"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try run(["convert", dir + "/tree.rvsnap", "-", "--to", "xml"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == (try String(contentsOfFile: dir + "/out.xml", encoding: .utf8)))
        r = try run(["convert", xml, dir + "/skeleton.rvsnap", "--content", "skeleton"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try run(["convert", dir + "/skeleton.rvsnap", "-", "--to", "xml"])
        #expect(r.stdout == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a><b id=\"k\"/></a>\n")
        // JSON to JSON: values as written.
        let json = try temporaryFile("in.json", #"{"a": [1.50, "x\u0041", true, null], "b": {}}"#)
        defer { removeTemporaryDirectory(of: json) }
        r = try run(["convert", json, "-", "--to", "json"])
        #expect(r.stdout == #"{"a":[1.50,"xA",true,null],"b":{}}"# + "\n")
    }

    @Test(arguments: [
        (["convert", "/nonexistent/in.xml", "/tmp/out.json"], Int32(1), "/nonexistent/in.xml"),
        (["convert", "BAD", "/tmp/out.html"], Int32(64), "HTML is read, not written"),
        (["convert", "BAD", "/tmp/out.unknown"], Int32(64), "cannot tell the output's format"),
        (["convert", "BAD", "/tmp/out.json", "--content", "most"], Int32(64), "--content"),
        (["info", "BAD"], Int32(1), "bad.xml:2:"),
        (["info", "/nonexistent/in.json"], Int32(1), "/nonexistent/in.json"),
        (["info", "BAD", "--from", "yaml"], Int32(64), "--from"),
    ])
    func badInputIsAnErrorWithItsStatus(arguments: [String], status: Int32, words: String) throws {
        let bad = try temporaryFile("bad.xml", "<a>\n<b></a>")
        defer { removeTemporaryDirectory(of: bad) }
        let r = try run(arguments.map { $0 == "BAD" ? bad : $0 })
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.contains(words), "\(r.stderr)")
    }

    @Test func malformedInputNamesLineAndColumnAndWritesNothing() throws {
        let bad = try temporaryFile("bad.xml", "<a>\n<b></a>")
        defer { removeTemporaryDirectory(of: bad) }
        let out = URL(fileURLWithPath: bad).deletingLastPathComponent().appendingPathComponent("out.json").path
        let r = try run(["convert", bad, out])
        #expect(r.status == 1)
        #expect(r.stderr.contains("bad.xml:2:"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `info`: the nodes by kind, the depth and what the load took, as text and as JSON,
    /// for a document and for a snapshot of it.
    @Test func infoSaysWhatADocumentHoldsAndWhatLoadingItTook() throws {
        let xml = try temporaryFile("in.xml", "<a><b>t</b><!--c--><b x=\"1\"/>u</a>")
        defer { removeTemporaryDirectory(of: xml) }
        var r = try run(["info", xml])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("\(xml): xml, 6 nodes, depth 2\n  element: 3\n  text: 2\n  comment: 1\nloaded in "), "\(r.stdout)")
        r = try run(["info", "--json", "--content", "skeleton", xml])
        #expect(r.status == 0, "\(r.stderr)")
        let skeleton = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(skeleton["nodes"] as? Int == 3)
        #expect(skeleton["content"] as? String == "skeleton")
        #expect((skeleton["seconds"] as? Double).map { $0 >= 0 } == true)
        #expect((skeleton["peakResidentBytes"] as? Int).map { $0 > 0 } == true)
        let dir = URL(fileURLWithPath: xml).deletingLastPathComponent().path
        #expect(try run(["convert", xml, dir + "/tree.rvsnap"]).status == 0)
        r = try run(["info", "--json", dir + "/tree.rvsnap"])
        let snapshot = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stderr)")
        #expect(snapshot["format"] as? String == "snapshot")
        #expect(snapshot["nodes"] as? Int == 6)
        #expect(snapshot["textNodes"] as? Int == 2)
        #expect(snapshot["maximumDepth"] as? Int == 2)
    }

    /// On one CPU (`taskset -c 0`, as a container's cpuset or quota leaves it) a document of
    /// a megabyte and more is read with no second thread (no tape between a scanning and a
    /// building thread, no page warmer, no side check of a snapshot): the same tree, written
    /// out byte for byte as with both CPUs, and a snapshot that loads back to it.
    @Test func oneCPUReadsAndWritesAsTwoDo() throws {
        let taskset = "/usr/bin/taskset"
        try #require(FileManager.default.isExecutableFile(atPath: taskset), "util-linux's taskset")
        var body = ""
        for k in 0 ..< 14_000 {
            body += "<p id=\"p\(k)\">caf\u{E9} \(k) &amp; <b>na\u{EF}ve</b> \u{6728} tree<!--c\(k % 7)--><i x=\"\(k % 13)\"/> text</p>\n"
        }
        let xml = try temporaryFile("big.xml", "<?xml version=\"1.0\"?>\n<doc>\n\(body)</doc>\n")
        defer { removeTemporaryDirectory(of: xml) }
        #expect(try FileManager.default.attributesOfItem(atPath: xml)[.size] as? Int ?? 0 >= 1 << 20, "past the pipelined scan's minimum")
        let dir = URL(fileURLWithPath: xml).deletingLastPathComponent().path
        let tool = BenchRun.executable.deletingLastPathComponent().appendingPathComponent("relative-view").path
        func onOneCPU(_ arguments: [String]) throws -> BenchRun { try BenchRun(["-c", "0", tool] + arguments, executable: taskset) }
        for (r, what) in [(try run(["convert", xml, dir + "/two.xml"]), "XML, two CPUs"), (try onOneCPU(["convert", xml, dir + "/one.xml"]), "XML, one CPU"),
                          (try run(["convert", xml, dir + "/two.rvsnap"]), "snapshot, two CPUs"), (try onOneCPU(["convert", xml, dir + "/one.rvsnap"]), "snapshot, one CPU")] {
            #expect(r.status == 0, "\(what): \(r.stderr)")
        }
        let two = try Data(contentsOf: URL(fileURLWithPath: dir + "/two.xml"))
        #expect(two.count > 1 << 20)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/one.xml")) == two)
        // The snapshots load (on one CPU, checked on the loading thread) to the same document.
        let back = try onOneCPU(["convert", dir + "/one.rvsnap", "-", "--to", "xml"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(Data(back.stdout.utf8) == two)
        #expect(try run(["convert", dir + "/two.rvsnap", "-", "--to", "xml"]).stdout == back.stdout)
    }
}
