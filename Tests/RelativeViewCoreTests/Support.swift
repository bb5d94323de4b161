import Synchronization
import Testing
@testable import RelativeViewCore
import RelativeViewFixtures

// Shared helpers of the core tests: type ids, link checks, brute-force oracles, a seeded PRNG.

/// Bare-name types used by the tests.
enum Ty {
    static let a = TypeRegistry.shared.typeID(named: "CoreTests.A")
    static let b = TypeRegistry.shared.typeID(named: "CoreTests.B")
    static let c = TypeRegistry.shared.typeID(named: "CoreTests.C")
    static let d = TypeRegistry.shared.typeID(named: "CoreTests.D")
    static let all = [a, b, c, d]
}

extension ViewTree {
    /// The children of `node` as an array.
    func kids(_ node: NodeID) -> [NodeID] { Array(children(of: node)) }
}

/// Checks the arena invariants, then every link accessor of `parent` and of each of `expected`.
func expectChildren(
    _ tree: ViewTree, _ parent: NodeID, _ expected: [NodeID],
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    tree._checkInvariants()
    #expect(tree.kids(parent) == expected, comment, sourceLocation: sourceLocation)
    #expect(tree.childCount(of: parent) == expected.count, comment, sourceLocation: sourceLocation)
    #expect(tree.firstChild(of: parent) == expected.first, comment, sourceLocation: sourceLocation)
    #expect(tree.lastChild(of: parent) == expected.last, comment, sourceLocation: sourceLocation)
    for (k, child) in expected.enumerated() {
        #expect(tree.parent(of: child) == parent, comment, sourceLocation: sourceLocation)
        #expect(tree.child(of: parent, at: k) == child, comment, sourceLocation: sourceLocation)
        #expect(tree.previousSibling(of: child) == (k > 0 ? expected[k - 1] : nil), comment, sourceLocation: sourceLocation)
        #expect(tree.nextSibling(of: child) == (k + 1 < expected.count ? expected[k + 1] : nil), comment, sourceLocation: sourceLocation)
    }
}

/// Checks that `node` is a root: no parent, no siblings.
func expectRoot(_ tree: ViewTree, _ node: NodeID, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(tree.parent(of: node) == nil, sourceLocation: sourceLocation)
    #expect(tree.nextSibling(of: node) == nil, sourceLocation: sourceLocation)
    #expect(tree.previousSibling(of: node) == nil, sourceLocation: sourceLocation)
    #expect(tree.roots.contains(node), sourceLocation: sourceLocation)
}

// MARK: Oracles

/// Ancestors by walking `parent(of:)`, nearest first.
func oracleAncestors(_ tree: ViewTree, _ node: NodeID) -> [NodeID] {
    var result: [NodeID] = []
    var x = tree.parent(of: node)
    while let p = x {
        result.append(p)
        x = tree.parent(of: p)
    }
    return result
}

/// Proper descendants by a plain recursive pre-order over `children(of:)`.
func oracleDescendants(_ tree: ViewTree, _ node: NodeID) -> [NodeID] {
    var result: [NodeID] = []
    func visit(_ x: NodeID) {
        for c in tree.children(of: x) {
            result.append(c)
            visit(c)
        }
    }
    visit(node)
    return result
}

/// Groups `nodes` (already in the required order) by `key`, leaving out `nil` keys.
func oracleGroup<Key: Hashable>(_ nodes: [NodeID], _ key: (NodeID) -> Key?) -> [Key: [NodeID]] {
    var groups: [Key: [NodeID]] = [:]
    for n in nodes {
        if let k = key(n) { groups[k, default: []].append(n) }
    }
    return groups
}

// MARK: Fresh and stale views of one tree

/// A copy of `tree` with its own storage and a fresh index (`tree` itself is left as it is).
func freshCopy(_ tree: ViewTree, sourceLocation: SourceLocation = #_sourceLocation) -> ViewTree {
    let t = ViewTree(_storage: _TreeStorage(copying: tree._storage))
    t.prepareIndex()
    #expect(t.isIndexFresh, "prepareIndex() must leave a fresh index", sourceLocation: sourceLocation)
    return t
}

/// A copy of `tree` with its own storage, the same shape, tags and types, a stale index and
/// no walking debt, made stale by a mutation that changes nothing (re-setting one node's tag).
func staleCopy(_ tree: ViewTree, sourceLocation: SourceLocation = #_sourceLocation) -> ViewTree {
    var t = ViewTree(_storage: _TreeStorage(copying: tree._storage))
    t._storage.debt.store(0, ordering: .relaxed)
    guard let any = (0 ..< t.slotCount).lazy.compactMap({ t.node(atSlot: $0) }).first else { return t }
    t.setTag(t.tag(of: any), of: any)
    #expect(!t.isIndexFresh, "a mutation must leave the index stale", sourceLocation: sourceLocation)
    return t
}

/// Runs `query` on a fresh and on a stale copy of `tree` and expects both to give `expected`.
func expectBoth<R: Equatable>(
    _ tree: ViewTree, _ expected: R, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ query: (ViewTree) -> R
) {
    let fresh = freshCopy(tree, sourceLocation: sourceLocation)
    #expect(query(fresh) == expected, "fresh index. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
    let stale = staleCopy(tree, sourceLocation: sourceLocation)
    #expect(query(stale) == expected, "stale index. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
}
