import Testing
import RelativeView

/// CSS selectors and XPath on a view hierarchy: class names are element names.
@MainActor @Suite struct ViewQueryTests {
    @Test func selectorsAndExpressionsReturnViews() throws {
        let window = View()
        let column = ScrollView()
        let title = Label(), caption = Label(), ok = Button(), icon = ImageView()
        window.addSubview(column)
        column.addSubview(title)
        column.addSubview(ok)
        column.addSubview(caption)
        ok.addSubview(icon)
        #expect(try window.select(CSSSelector("ScrollView > Label")).map(ObjectIdentifier.init) == [title, caption].map(ObjectIdentifier.init))
        #expect(try window.select(CSSSelector("Label + Button ImageView")).map(ObjectIdentifier.init) == [ObjectIdentifier(icon)])
        #expect(try column.select(CSSSelector(":not(Label)")).map(ObjectIdentifier.init) == [ok, icon].map(ObjectIdentifier.init))
        #expect(try icon.select(XPath("ancestor::*")).map(ObjectIdentifier.init) == [window, column, ok].map(ObjectIdentifier.init))
        #expect(try ok.select(XPath("following-sibling::Label | preceding-sibling::*")).map(ObjectIdentifier.init) == [title, caption].map(ObjectIdentifier.init))
        // Below the view only, as element.querySelectorAll: the ScrollView is above `ok`.
        #expect(try ok.select(CSSSelector("ScrollView *")).map(ObjectIdentifier.init) == [ObjectIdentifier(icon)])
        // A view alone: nothing below it; itself as the context node.
        let alone = Label()
        #expect(try alone.select(CSSSelector("*")).isEmpty)
        #expect(try alone.select(XPath("self::Label")).map(ObjectIdentifier.init) == [ObjectIdentifier(alone)])
        #expect(try alone.select(XPath("self::Button")).isEmpty)
    }
}
