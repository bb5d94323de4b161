import Testing
@testable import RelativeViewCore
import RelativeViewFixtures

/// `_maximumDepth()` (the CLI's "max depth") against the depths of the spec a tree is built
/// from, on every shape, and on a forest after mutations.
@Suite struct MaximumDepthTests {
    @Test(arguments: TreeShape.allCases, [0, 1, 2, 100, 3_000])
    func matchesTheSpec(shape: TreeShape, nodes: Int) {
        var tree = ViewTree()
        var ids: [NodeID] = []
        if nodes > 0 {
            let spec = TreeSpec(shape: shape, nodes: nodes, seed: 4)
            spec.buildCore(into: &tree, ids: &ids, typeIDs: StockCatalog.typeIDs())
            #expect(tree._maximumDepth() == Int(spec.depths().max() ?? 0))
        } else {
            #expect(tree._maximumDepth() == 0)
        }
    }

    @Test func followsMutationsAcrossRoots() {
        var tree = ViewTree()
        let type = TypeRegistry.shared.typeID(named: "node")
        let a = tree.makeNode(tag: 0, type: type)
        var chain = [tree.makeNode(tag: 0, type: type)]
        for _ in 0 ..< 5 { chain.append(tree.appendChild(tag: 0, type: type, to: chain.last!)) }
        #expect(tree._maximumDepth() == 5)  // the second root's chain
        tree.append(chain[0], to: a)
        #expect(tree._maximumDepth() == 6)
        tree.detach(chain[3])
        #expect(tree._maximumDepth() == 3)  // a -> chain 0, 1, 2; chain 3 ... 5 is a root of depth 2
    }
}
