import Testing
@testable import RelativeViewCore

/// A node's own text (`value`), its named attributes, text content, and their life
/// through edits, removals, copies and grafts.
@Suite struct ContentTests {
    static let div = TypeRegistry.shared.typeID(named: "div")

    @Test func attributesKeepTheirOrderThroughEdits() {
        var tree = ViewTree()
        let a = tree.makeElement(named: "a", attributes: ["x": "1", "y": "2", "z": "3"])
        let b = tree.makeElement(named: "b", attributes: ["k": "v"])
        #expect(tree.namedAttributes(of: a).map(\.name) == ["x", "y", "z"])
        // Replaced in place, added after the others (after another node's run: moved).
        tree.setAttribute(named: "y", "two", of: a)
        tree.setAttribute(named: "w", "4", of: a)
        #expect(tree.namedAttributes(of: a).map { "\($0.name)=\($0.value)" } == ["x=1", "y=two", "z=3", "w=4"])
        #expect(tree.namedAttributes(of: b).map { "\($0.name)=\($0.value)" } == ["k=v"])
        // Removed: the others close up.
        tree.setAttribute(named: "x", nil, of: a)
        #expect(tree.namedAttributes(of: a).map(\.name) == ["y", "z", "w"])
        tree.setAttribute(named: "w", nil, of: a)
        tree.setAttribute(named: "nope", nil, of: a)
        #expect(tree.attribute(named: "z", of: a) == "3")
        #expect(tree.attribute(named: "w", of: a) == nil)
        #expect(tree.attribute(named: "never-registered-\(#line)", of: a) == nil)
        tree.setAttribute(named: "y", nil, of: a)
        tree.setAttribute(named: "z", nil, of: a)
        #expect(tree.namedAttributes(of: a).isEmpty)
        tree.setAttribute(named: "again", "1", of: a)
        #expect(tree.namedAttributes(of: a).map(\.name) == ["again"])
        #expect(tree.namedAttributes(of: b).map(\.name) == ["k"])
    }

    @Test func textContentAndValues() {
        var tree = ViewTree()
        let p = tree.makeElement(named: "p")
        tree.append(tree.makeContent(.text, "a "), to: p)
        let b = tree.appendChild(type: TypeRegistry.shared.typeID(named: "b"), to: p)
        tree.append(tree.makeContent(.text, "bold"), to: b)
        tree.append(tree.makeContent(.comment, "not text"), to: p)
        tree.append(tree.makeContent(.cdata, " <c>"), to: p)
        #expect(tree.textContent(of: p) == "a bold <c>")
        #expect(tree.kind(of: p) == .element)
        #expect(tree.children(of: p).map { tree.kind(of: $0) } == [.text, .element, .comment, .cdata])
        // Setting an element's text content replaces its children with one text node.
        tree.setTextContent("new", of: b)
        #expect(tree.children(of: b).count == 1)
        #expect(tree.textContent(of: p) == "a new <c>")
        tree.setTextContent("", of: b)
        #expect(tree.firstChild(of: b) == nil)
        #expect(tree.textContent(of: b) == "")
        // On a comment it sets the value.
        let comment = Array(tree.children(of: p))[2]
        tree.setTextContent("changed", of: comment)
        #expect(tree.value(of: comment) == "changed")
        tree.setValue(nil, of: comment)
        #expect(tree.value(of: comment) == nil)
    }

    @Test func processingInstructionsAreTypedByTarget() {
        var tree = ViewTree()
        let pi = tree.makeNode(type: TypeRegistry.shared.typeID(named: NodeKind.processingInstructionTypeName(target: "xml-stylesheet")))
        tree.setValue("href='a.css'", of: pi)
        #expect(tree.kind(of: pi) == .processingInstruction)
        #expect(NodeKind(typeName: "#text") == .text)
        #expect(NodeKind(typeName: "#other") == .element)
        #expect(NodeKind(typeName: "View") == .element)
    }

    @Test func aFreedSlotKeepsNoContent() {
        var tree = ViewTree()
        let root = tree.makeElement(named: "r")
        let child = tree.appendChild(type: Self.div, to: root)
        tree.setAttribute(named: "x", "1", of: child)
        tree.setValue("v", of: child)
        tree.removeSubtree(child)
        let reused = tree.appendChild(type: Self.div, to: root)
        #expect(reused.index == child.index)
        #expect(tree.namedAttributes(of: reused).isEmpty)
        #expect(tree.value(of: reused) == nil)
    }

    @Test func aCopyIsUntouchedByEdits() {
        var tree = ViewTree()
        let a = tree.makeElement(named: "a", attributes: ["x": "1"])
        tree.setValue("v", of: a)
        let copy = tree
        tree.setAttribute(named: "x", "2", of: a)
        tree.setValue("w", of: a)
        #expect(copy.attribute(named: "x", of: a) == "1")
        #expect(copy.value(of: a) == "v")
        #expect(tree.attribute(named: "x", of: a) == "2")
    }

    @Test(arguments: [3, 300])
    func graftsCopyContent(_ size: Int) {
        var source = ViewTree()
        let root = source.makeElement(named: "r", attributes: ["id": "root"])
        for k in 0 ..< size {
            let e = source.appendChild(type: Self.div, to: root)
            source.setAttribute(named: "n", "\(k)", of: e)
            source.append(source.makeContent(.text, "t\(k)"), to: e)
        }
        // Into an empty tree (streamed through a builder) and under a node (one by one).
        var empty = ViewTree()
        let copy = empty.graft(root, of: source)
        var other = ViewTree()
        let host = other.makeElement(named: "host")
        let under = other.graft(root, of: source, under: host)
        for (tree, node) in [(empty, copy), (other, under)] {
            #expect(tree.attribute(named: "id", of: node) == "root")
            #expect(tree.textContent(of: node) == (0 ..< size).map { "t\($0)" }.joined())
            #expect(tree.children(of: node).map { tree.attribute(named: "n", of: $0) } == (0 ..< size).map { "\($0)" })
        }
    }

    @Test func builderContentIsRolledBack() {
        var builder = ViewTreeBuilder()
        builder.open(type: Self.div)
        builder.addAttribute(name: "a", value: "1")
        let mark = builder.mark
        builder.addAttribute(name: "b", value: "2")
        builder.appendLeaf(type: Self.div)
        builder.setValue("gone")
        builder.addAttribute(name: "c", value: "3")
        builder.rollBack(to: mark)
        builder.close()
        let tree = builder.finish()
        #expect(tree.count == 1)
        #expect(tree.namedAttributes(of: tree.roots[0]).map(\.name) == ["a"])
    }

    @Test func descriptionsShowContent() {
        var tree = ViewTree()
        let a = tree.makeElement(named: "a", attributes: ["x": "1"])
        tree.append(tree.makeContent(.text, "hi\n"), to: a)
        let text = tree.recursiveDescription(of: a)
        #expect(text.contains("@x = \"1\""))
        #expect(text.contains("value = \"hi\\n\""))
    }
}
