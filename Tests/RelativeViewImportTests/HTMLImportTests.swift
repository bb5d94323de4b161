import RelativeViewCore
import RelativeViewImport
import Testing

@Suite struct HTMLImportTests {
    @Test func htmlAsFoundInTheWild() throws {
        let text = """
            <!DOCTYPE html>
            <title>t</title>
            <P tag=3>one
            <p>two<br>three
            <ul><li>a<li tag="9">b</ul>
            <img src=x><input>
            """
        #expect(outline(try importing(text, as: .html)) == "html(head(title),body(p[3],p(br),ul(li,li[9]),img,input))")
    }

    @Test func aTruncatedDocumentIsClosedNotRejected() throws {
        let tree = try importing("<html><body><div><p>unfinished", as: .html)
        #expect(outline(tree) == "html(body(div(p)))")
    }

    @Test func aFileIsReadFromDisk() throws {
        try withTemporaryDirectory { (dir) throws in
            let path = dir + "/page.htm"
            try "<div tag=1><span>x</span></div>".write(toFile: path, atomically: true, encoding: .utf8)
            #expect(ImportFormat.detect(path: path) == .html)
            #expect(outline(try TreeImporter(content: .skeleton).importTree(contentsOf: path)) == "html(body(div[1](span)))")
        }
    }
}
