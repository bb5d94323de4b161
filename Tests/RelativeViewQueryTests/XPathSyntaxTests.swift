import Testing
@testable import RelativeViewQuery

@Suite struct XPathSyntaxTests {
    @Test(arguments: ["", "//", "a[", "a]", "@", "a::b", "1 +", "f(", "'abc", "a!b", "child::", "$", "a b"])
    func badExpressionsAreErrorsWithAPlace(expression: String) {
        #expect(throws: QueryError.self) { try XPath(expression) }
    }
}
