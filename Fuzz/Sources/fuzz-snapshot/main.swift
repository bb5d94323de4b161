import FuzzSupport
import Foundation
import RelativeView
import RelativeViewSnapshot

// Each input: loaded as a snapshot twice, as it is (the header, length and checksum
// checks), then with its checksum repaired (so that the structural checks see the bytes,
// as they would in a hostile file). A load must throw or give a tree whose every invariant
// holds (checked in the debug build this harness is) and that answers queries; a trap, or
// a broken invariant, crashes and libFuzzer keeps the input. Each load is made twice more
// as a view tree (the facade's load: one root, every type made by a factory).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var bytes = Array(UnsafeBufferPointer(start: data, count: count))
    check(bytes)
    if bytes.count >= 20 {
        // The checksum of the version the input says (each version has its own), and
        // version 6's block digests.
        bytes.withUnsafeMutableBytes { ViewTree.sealSnapshot($0) }
        check(bytes)
        checkFile(bytes)
    }
    return 0
}

/// The file each input is written to for ``checkFile(_:)``: one per process.
let filePath = NSTemporaryDirectory() + "fuzz-snapshot-\(ProcessInfo.processInfo.processIdentifier).rvtree"

/// Loads `bytes` from a file, mapped and read (attribute texts read in place, checked on
/// the side): the same verdict as from memory, and a tree that reads every attribute.
func checkFile(_ bytes: [UInt8]) {
    guard FileManager.default.createFile(atPath: filePath, contents: Data(bytes)) else { fatalError("cannot write \(filePath)") }
    let inMemory = Result { try ViewTree(snapshot: bytes) }
    for mapped in [true, false] {
        let fromFile = Result { try ViewTree(contentsOfSnapshot: filePath, mapped: mapped) }
        switch (inMemory, fromFile) {
        case (.success, .success(let tree)):
            tree._checkInvariants()
            for slot in 0 ..< tree.slotCount {
                guard let node = tree.node(atSlot: slot) else { continue }
                _ = tree.attributes(of: node)
            }
        case (.failure(let a as SnapshotError), .failure(let b as SnapshotError)):
            guard a.offset == b.offset && a.reason == b.reason else { fatalError("memory: \(a); file (mapped \(mapped)): \(b)") }
        default:
            fatalError("a load from memory and from a file (mapped \(mapped)) disagree")
        }
    }
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
        _ = tree.group(.descendants, of: node, byTags: [0, 1, Int.max])
        _ = tree.recursiveDescription(of: node, maxLines: 20)
        if let last { _ = tree.isAncestor(last, of: node) }
        last = node
    }
    // It saves, and the saved bytes load back.
    guard (try? ViewTree(snapshot: tree.snapshot())) != nil else { fatalError("a loaded tree's own snapshot does not load") }
    // As views: a tree of one root loads, anything else is an error.
    var factory = ViewFactory.stock
    factory.plainViewsForUnknownTypes = true
    let root = try? View.loadSnapshot(bytes, factory: factory)
    guard (root != nil) == (tree.rootCount == 1) else { fatalError("a view load disagrees with the core's: \(tree.rootCount) roots") }
    if let root {
        guard root.recursiveSubviews.count == tree.count - 1 else { fatalError("a view load lost nodes") }
    }
}

runFuzzer(fuzzOne)
