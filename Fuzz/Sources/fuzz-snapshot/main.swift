import FuzzSupport
import RelativeViewCore
import RelativeViewSnapshot

// Each input: loaded as a snapshot twice, as it is (the header, length and checksum
// checks), then with its checksum repaired (so that the structural checks see the bytes,
// as they would in a hostile file). A load must throw or give a tree whose every invariant
// holds (checked in the debug build this harness is) and that answers queries; a trap, or
// a broken invariant, crashes and libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var bytes = Array(UnsafeBufferPointer(start: data, count: count))
    check(bytes)
    if bytes.count >= 16 {
        let body = bytes.count - 8
        let sum = bytes.withUnsafeBytes { ViewTree.snapshotChecksum(UnsafeRawBufferPointer(rebasing: $0[..<body])) }
        withUnsafeBytes(of: sum.littleEndian) { for k in 0 ..< 8 { bytes[body + k] = $0[k] } }
        check(bytes)
    }
    return 0
}

/// Loads `bytes`; a tree that comes back is checked and queried.
func check(_ bytes: [UInt8]) {
    guard let tree = try? ViewTree(snapshot: bytes) else { return }
    tree._checkInvariants()
    var last: NodeID?
    for slot in 0 ..< min(tree.slotCount, 64) {
        guard let node = tree.node(atSlot: slot) else { continue }
        _ = tree.parent(of: node)
        _ = Array(tree.children(of: node))
        _ = tree.groupDescendants(of: node, byTags: [0, 1, Int.max])
        _ = tree.recursiveDescription(of: node, maxLines: 20)
        if let last { _ = tree.isAncestor(last, of: node) }
        last = node
    }
    // It saves, and the saved bytes load back.
    guard (try? ViewTree(snapshot: tree.snapshot())) != nil else { fatalError("a loaded tree's own snapshot does not load") }
}

runFuzzer(fuzzOne)
