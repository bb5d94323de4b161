import RelativeViewCore
import RelativeViewImport
import RelativeViewQuery
import Testing

/// Variables take the values given to the evaluation, as lxml's `xpath(expr, name=value)`.
@Suite struct XPathVariablesTests {
    let tree = try! TreeImporter().importTree(Array(#"<a><b id="k" n="2">t</b><c><b n="5">u</b></c><b/></a>"#.utf8), format: .xml)

    @Test func valuesOfEachType() throws {
        #expect(try tree.evaluate(XPath("count(//b[@id = $id])"), variables: ["id": .string("k")]) == .number(1))
        #expect(try tree.evaluate(XPath("$n * 2 + 1"), variables: ["n": .number(3)]) == .number(7))
        #expect(try tree.evaluate(XPath("//b[@n > $low]"), variables: ["low": .number(3)]) == tree.evaluate(XPath("//c/b")))
        #expect(try tree.evaluate(XPath("$yes and not($no)"), variables: ["yes": .boolean(true), "no": .boolean(false)]) == .boolean(true))
        // A positional predicate from a variable: the second b child of a.
        #expect(try tree.evaluate(XPath("count(/a/b[$i]/@n)"), variables: ["i": .number(1)]) == .number(1))
        #expect(try tree.evaluate(XPath("count(/a/b[$i]/@n)"), variables: ["i": .number(2)]) == .number(0))
    }

    @Test func nodeSetsAsGiven() throws {
        let bs = try tree.evaluate(XPath("//b"))
        guard case .nodes(let nodes) = bs else { Issue.record("not a node-set"); return }
        // Given out of order and twice: a node-set, in document order, each node once.
        let shuffled: XPathValue = .nodes(nodes.reversed() + [nodes[0]])
        #expect(try tree.evaluate(XPath("$set"), variables: ["set": shuffled]) == bs)
        #expect(try tree.evaluate(XPath("count($set[@n])"), variables: ["set": bs]) == .number(2))
        #expect(try tree.evaluate(XPath("name($set/..)"), variables: ["set": .nodes([nodes[1]])]) == .string("c"))
        let ids = try tree.evaluate(XPath("//@n"))
        #expect(try tree.evaluate(XPath("sum($attrs)"), variables: ["attrs": ids]) == .number(7))
    }

    @Test func anUnboundVariableIsAnErrorAtItsPlace() throws {
        #expect(throws: QueryError.self) { try tree.evaluate(XPath("//b[@id = $missing]")) }
        do {
            _ = try tree.evaluate(XPath("1 + $x"), variables: ["y": .number(1)])
            Issue.record("no error")
        } catch {
            #expect(error.offset == 4 && error.message.contains("undefined variable '$x'"), "\(error)")
        }
    }
}
