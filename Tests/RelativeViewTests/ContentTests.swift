import Testing
import RelativeView

/// Views' named attributes and node values: set, read, carried when a view moves between
/// trees, gone with a removed view.
@Suite struct ViewContentTests {
    @Test func attributesAndValuesTravelWithTheView() {
        let item = View(attributes: ["class": "row", "data-id": "7"])
        item.nodeValue = "hello"
        #expect(item.namedAttributes.map(\.name) == ["class", "data-id"])
        // Into another tree (its store merges into the larger one) and back out.
        let big = View()
        for _ in 0 ..< 50 { big.addSubview(View()) }
        big.addSubview(item)
        #expect(item.attribute(named: "data-id") == "7")
        #expect(item.nodeValue == "hello")
        let label = Label()
        label.nodeValue = " world"
        item.addSubview(label)
        #expect(item.textContent == "hello world")
        item.removeFromSuperview()
        #expect(item.attribute(named: "class") == "row")
        #expect(item.textContent == "hello world")
        item.setAttribute(nil, named: "class")
        item.setAttribute("8", named: "data-id")
        #expect(item.namedAttributes.map { "\($0.name)=\($0.value)" } == ["data-id=8"])
    }

    @Test func aLoneViewHasNoContentUntilGivenSome() {
        let view = View()
        #expect(view.attribute(named: "x") == nil)
        #expect(view.nodeValue == nil)
        #expect(view.textContent == "")
        view.setAttribute(nil, named: "x")
        view.nodeValue = nil
        #expect(view.namedAttributes.isEmpty)
        view.setAttribute("1", named: "x")
        #expect(view.attribute(named: "x") == "1")
    }

    @Test func aFreedViewsSlotKeepsNoContent() {
        let root = View()
        do {
            let child = View(attributes: ["k": "v"])
            child.nodeValue = "gone"
            root.addSubview(child)
            child.removeFromSuperview()
        }
        let next = View()
        root.addSubview(next)
        #expect(next.namedAttributes.isEmpty)
        #expect(next.nodeValue == nil)
    }
}
