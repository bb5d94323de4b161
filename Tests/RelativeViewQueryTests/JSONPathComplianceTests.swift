import Foundation
import RelativeViewCore
import RelativeViewImport
import RelativeViewQuery
import Testing

/// The JSONPath Compliance Test Suite (RFC 9535's own, vendored under
/// `Resources/jsonpath-compliance-test-suite`), every case: a selector that must be rejected
/// is, and every other selects the nodes the suite gives, with their values and normalized
/// paths in the suite's order (or one of its orders, where object members may come in any).
///
/// The suite's file is read by our own JSON import, so each case's document, and each
/// expected value, is exported as written (numbers and member order as they are) rather
/// than rebuilt by a parser that keeps neither.
@Suite struct JSONPathComplianceTests {
    static let suite: (tree: ViewTree, cases: [NodeID]) = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Resources/jsonpath-compliance-test-suite/cts.json")
        let tree = try! TreeImporter().importTree(Array(try! Data(contentsOf: url)), format: .json, path: "cts.json")
        let tests = member(tree, tree.roots[0], "tests")!
        return (tree, Array(tree.children(of: tests)))
    }()

    static func member(_ tree: ViewTree, _ object: NodeID, _ name: String) -> NodeID? {
        tree.children(of: object).first { tree.attribute(.key, of: $0) == name }
    }

    /// A JSON value as Foundation reads it, to compare values whatever their spelling
    /// (`1` and `1.0`, member order).
    static func object(_ json: String) -> NSObject {
        try! JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as! NSObject
    }

    @Test func everyCase() throws {
        let (tree, cases) = Self.suite
        var failures: [String] = []
        var (rejected, answered) = (0, 0)
        for c in cases {
            let name = tree.value(of: Self.member(tree, c, "name")!) ?? ""
            let selector = tree.value(of: Self.member(tree, c, "selector")!) ?? ""
            if let flag = Self.member(tree, c, "invalid_selector"), tree.value(of: flag) == "true" {
                do {
                    let compiled = try JSONPath(selector)
                    failures.append("\(name): \(selector) compiled (\(compiled)) but must be rejected")
                } catch {
                    rejected += 1
                }
                continue
            }
            let document = try tree.string(as: .json, subtree: Self.member(tree, c, "document")!)
            let doc = try TreeImporter().importTree(Array(document.utf8), format: .json, path: "document.json")
            let query: JSONPath
            do { query = try JSONPath(selector) } catch {
                failures.append("\(name): \(selector) rejected: \(error)")
                continue
            }
            let nodes = try doc.select(query)
            let paths = doc.normalizedPaths(of: nodes)
            let values = try nodes.map { Self.object(try doc.string(as: .json, subtree: $0)) }
            // One expected nodelist, or several that differ in order only.
            var options: [(values: [NSObject], paths: [String])] = []
            if let result = Self.member(tree, c, "result") {
                let p = Self.member(tree, c, "result_paths")!
                options.append((try tree.children(of: result).map { Self.object(try tree.string(as: .json, subtree: $0)) },
                                tree.children(of: p).map { tree.value(of: $0) ?? "" }))
            } else {
                let results = tree.children(of: Self.member(tree, c, "results")!)
                let resultPaths = tree.children(of: Self.member(tree, c, "results_paths")!)
                for (r, p) in zip(results, resultPaths) {
                    options.append((try tree.children(of: r).map { Self.object(try tree.string(as: .json, subtree: $0)) },
                                    tree.children(of: p).map { tree.value(of: $0) ?? "" }))
                }
            }
            if options.contains(where: { $0.paths == paths && $0.values == values }) {
                answered += 1
            } else {
                failures.append("\(name): \(selector)\n  ours:     \(paths)\n  expected: \(options.map(\.paths))")
            }
        }
        #expect(rejected == 247)
        #expect(answered == 456)
        #expect(failures.isEmpty, "\(failures.count) cases fail:\n\(failures.prefix(40).joined(separator: "\n"))")
    }
}
