import Testing
import RelativeViewCore
import RelativeViewImport
@testable import RelativeViewQuery

/// Generated documents and generated expressions, each evaluated by ours and by libxml2's
/// XPath on the same document: the same nodes in the same order, the same values.
@Suite struct XPathDifferentialTests {
    @Test(arguments: 1 ... 8 as ClosedRange<UInt64>)
    func generatedExpressionsOnGeneratedDocuments(seed: UInt64) throws {
        var fuzz = XPathFuzz(seed: seed)
        var mismatches: [String] = []
        var compared = 0, nonEmpty = 0
        for _ in 0 ..< 6 {
            let text = fuzz.document(elements: 60)
            let oracle = try #require(LibXML2Document(text))
            let tree = try TreeImporter().importTree(Array(text.utf8), format: .xml, path: "doc.xml")
            for _ in 0 ..< 120 {
                let e = fuzz.expression()
                let theirs = oracle.answer(e), ours = ourAnswer(tree, e)
                compared += 1
                switch theirs {
                case .nodes(let n) where !n.isEmpty: nonEmpty += 1
                case .boolean(true): nonEmpty += 1
                case .number(let n) where n != 0 && !n.isNaN: nonEmpty += 1
                case .string(let s) where !s.isEmpty: nonEmpty += 1
                default: break
                }
                if theirs != ours && mismatches.count < 12 { mismatches.append("\(e)\n  libxml2: \(theirs)\n  ours:    \(ours)\n  doc: \(text.prefix(300))") }
            }
        }
        // Not a vacuous comparison: a good part of the expressions select something.
        #expect(nonEmpty > compared / 4, "\(nonEmpty) of \(compared) answers were non-empty")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    }
}
