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

// MARK: Two layouts of one tree's index

/// A copy of `tree` with its own storage and its index as it is (`tree` itself is left as it is).
func builtCopy(_ tree: ViewTree, sourceLocation: SourceLocation = #_sourceLocation) -> ViewTree {
    ViewTree(_storage: _TreeStorage(copying: tree._storage))
}

/// A copy of `tree` with the same shape, tags and types, whose index was rewritten by
/// mutations: up to 64 nodes (spread over the slots) are each moved out of their place and
/// back, so their runs of the index were cut out and spliced in again.
func movedCopy(_ tree: ViewTree, sourceLocation: SourceLocation = #_sourceLocation) -> ViewTree {
    var t = ViewTree(_storage: _TreeStorage(copying: tree._storage))
    let stride = max(1, t.slotCount / 64)
    for slot in Swift.stride(from: 0, to: t.slotCount, by: stride) {
        guard let x = t.node(atSlot: slot), t.parent(of: x) != nil else { continue }
        // Out to the other end of its siblings and back (a move to where a node already is
        // does nothing, so each node really leaves its place); an only child stays.
        if let next = t.nextSibling(of: x) {
            t.makeLastChild(x)
            t.insert(x, before: next)
        } else {
            t.makeFirstChild(x)
            t.makeLastChild(x)
        }
    }
    t._checkInvariants()
    return t
}

/// Runs `query` on a built and on a moved copy of `tree` and expects both to give `expected`.
func expectBoth<R: Equatable>(
    _ tree: ViewTree, _ expected: R, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ query: (ViewTree) -> R
) {
    let built = builtCopy(tree, sourceLocation: sourceLocation)
    #expect(query(built) == expected, "index as built. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
    let moved = movedCopy(tree, sourceLocation: sourceLocation)
    #expect(query(moved) == expected, "index after moves. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
}
