import Foundation
import RelativeViewCore
import RelativeViewFixtures
@testable import RelativeViewSnapshot
import Testing

/// Snapshots read back as the trees they were taken of: same ids, same answers to every
/// query (checked against the naive core), same bytes when saved again.
@Suite struct RoundTripTests {
    /// Every fixture shape at every size: the tree read back answers random queries as the
    /// naive core built from the same spec does, saves to the same bytes, and keeps every
    /// invariant.
    @Test(arguments: TreeShape.allCases, [1, 2, 10, 100, 2_000])
    func everyShapeAndSize(shape: TreeShape, nodes: Int) {
        Self.expectRoundTrip(shape: shape, nodes: nodes)
    }

    /// 100,000 nodes of every shape (a chain that deep takes its own path, see
    /// ``roundTrip(shape:nodes:)``).
    @Test(.enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it"), arguments: TreeShape.allCases)
    func everyShapeAtALargeSize(shape: TreeShape) {
        Self.expectRoundTrip(shape: shape, nodes: 100_000)
    }

    static func expectRoundTrip(shape: TreeShape, nodes: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        // On a thread with a large stack: the naive core walks (and frees) a deep chain by
        // recursion, as the original library does.
        let issues = onLargeStack { Self.roundTrip(shape: shape, nodes: nodes) }
        #expect(issues.isEmpty, "\(shape) \(nodes): \(issues.prefix(3))", sourceLocation: sourceLocation)
    }

    /// The disagreements of one round trip (see ``everyShapeAndSize(shape:nodes:)``). The
    /// naive core's `addSubview` checks for a cycle by walking up, so building a 10^5 chain
    /// in it is O(n^2) (minutes in a debug build): that one tree is checked against the
    /// tree it was saved from instead, every node's parent, children, depth and subtree,
    /// the arena core's answers having been checked against the naive core's elsewhere.
    static func roundTrip(shape: TreeShape, nodes: Int) -> [String] {
        let spec = TreeSpec(shape: shape, nodes: nodes, seed: UInt64(nodes))
        if shape == .chain && nodes > 10_000 {
            var tree = ViewTree()
            var ids: [NodeID] = []
            spec.buildCore(into: &tree, ids: &ids, typeIDs: StockCatalog.names.map { TypeRegistry.shared.typeID(named: $0) })
            let bytes = tree.snapshot()
            var loaded: ViewTree
            do { loaded = try ViewTree(snapshot: bytes) } catch { return ["load: \(error)"] }
            // A loaded snapshot is a tree of its own; asked with the saved tree's ids, node for node.
            loaded._shareIdentity(with: tree)
            loaded._checkInvariants()
            var issues: [String] = []
            if loaded.snapshot() != bytes { issues.append("saved again, the tree gives other bytes") }
            for (i, id) in ids.enumerated() where loaded.parent(of: id) != tree.parent(of: id)
                || Array(loaded.children(of: id)) != Array(tree.children(of: id))
                || loaded.subtreeSize(of: id) != nodes - i || loaded.tag(of: id) != tree.tag(of: id)
                || loaded.typeID(of: id) != tree.typeID(of: id) || (i > 0 && !loaded.isAncestor(ids[i / 2], of: id)) {
                issues.append("node \(i) differs")
            }
            return issues
        }
        let run = CoreVsNaive(spec: spec)
        let bytes = run.tree.snapshot()
        var loaded: ViewTree
        do { loaded = try ViewTree(snapshot: bytes) } catch { return ["load: \(error)"] }
        loaded._shareIdentity(with: run.tree)  // asked with the saved tree's ids
        loaded._checkInvariants()
        var issues: [String] = []
        if loaded.count != nodes { issues.append("\(loaded.count) nodes loaded") }
        if loaded.snapshot() != bytes { issues.append("saved again, the tree gives other bytes") }
        // Versions 1 (the pre-order, from which a load builds the columns), 2 (version 3
        // with a checksum of one piece) and 3 (version 4 with 8-byte attribute starts) read
        // back as the same tree: saved again in version 4, the same bytes.
        if (try? ViewTree(snapshot: run.tree._snapshot(version: 1)))?.snapshot() != bytes { issues.append("version 1 reads back as another tree") }
        if (try? ViewTree(snapshot: run.tree._snapshot(version: 2)))?.snapshot() != bytes { issues.append("version 2 reads back as another tree") }
        if (try? ViewTree(snapshot: run.tree._snapshot(version: 3)))?.snapshot() != bytes { issues.append("version 3 reads back as another tree") }
        // The bytes hold 24 per slot (parent, type, tag, span), 12 per index position (two
        // tokens a node, in blocks of 64), 4 per generation, the header, the type table
        // (every id up to the largest in use) and the checksum.
        let tourSlots = (2 * nodes + 63) / 64 * 64
        if bytes.count > 28 * nodes + 12 * tourSlots + 8192 { issues.append("\(bytes.count) bytes") }
        var reloaded = run
        reloaded.replaceTree(with: loaded)
        var rng = SplitMix64(seed: 7)
        return issues + reloaded.queries(nodes < 1000 ? 300 : 100, using: &rng)
    }

    @Test func anEmptyTree() throws {
        let bytes = ViewTree().snapshot()
        let loaded = try ViewTree(snapshot: bytes)
        loaded._checkInvariants()
        #expect(loaded.isEmpty && loaded.slotCount == 0)
        // The header, the digest of its one block, the checksum.
        #expect(bytes.count == SnapshotLayout.headerSize(SnapshotLayout.version) + 8 + SnapshotLayout.trailerSize)
    }

    /// Snapshots loaded on several threads at once, from bytes and from files, mapped and
    /// read: each load answers as the saved tree. Small trees with no free slots, wide tags,
    /// geometry or attributes make empty columns, which once wrote into the standard
    /// library's shared empty array from every loading thread (a race ThreadSanitizer
    /// reported in CI); `.ci/run` runs this under ThreadSanitizer.
    @Test func snapshotsLoadOnSeveralThreadsAtOnce() async throws {
        var tree = ViewTree()
        let root = tree.makeNode(type: TypeRegistry.shared.typeID(named: "View"))
        for k in 0 ..< 5 { tree.appendChild(tag: k, type: TypeRegistry.shared.typeID(named: "Label"), to: root) }
        let bytes = tree.snapshot()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rv-threads-\(UInt64.random(in: 0 ... .max)).rvtree").path
        try tree.writeSnapshot(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = tree.descendants(of: root).map { tree.tag(of: $0) }
        let agreed = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for task in 0 ..< 4 {
                group.addTask {
                    for round in 0 ..< 200 {
                        let loaded: ViewTree
                        do {
                            switch (task + round) % 3 {
                            case 0: loaded = try ViewTree(snapshot: bytes)
                            case 1: loaded = try ViewTree(contentsOfSnapshot: path, mapped: true)
                            default: loaded = try ViewTree(contentsOfSnapshot: path, mapped: false)
                            }
                        } catch { return false }
                        if loaded.count != 6 || loaded.roots.count != 1 || loaded.descendants(of: loaded.roots[0]).map({ loaded.tag(of: $0) }) != expected { return false }
                    }
                    return true
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(agreed == [true, true, true, true])
    }

    /// A tree after thousands of mutations (free slots with bumped generations, wide tags,
    /// moves that scatter the index): read back mid-run, it goes on being mutated and
    /// queried against the naive core, and ids of removed nodes stay stale.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func midRunReload(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var run = CoreVsNaive(roots: 3, maximumNodes: 300)
        var removed: [NodeID] = []
        for _ in 0 ..< 3000 {
            let before = Set(run.ids)
            #expect(run.step(using: &rng).isEmpty)
            removed += before.subtracting(run.ids).prefix(2)
        }
        // Step on until some slots are free (adding nodes reuses freed slots first).
        for _ in 0 ..< 5000 where run.tree.slotCount == run.tree.count {
            #expect(run.step(using: &rng).isEmpty)
        }
        #expect(run.tree.slotCount > run.tree.count, "the run freed slots")
        var loaded = try ViewTree(snapshot: run.tree.snapshot())
        loaded._shareIdentity(with: run.tree)  // asked with the run's ids, stale ones included
        loaded._checkInvariants()
        #expect(removed.allSatisfy { !loaded.contains($0) }, "removed nodes' ids are stale after the reload too")
        run.replaceTree(with: loaded)
        for step in 0 ..< 2000 {
            let issues = run.step(using: &rng)
            #expect(issues.isEmpty, "step \(step) after the reload: \(issues)")
        }
    }

    /// Geometry, attributes and wide tags come back; so do free slots' places on the free
    /// list (the next node made takes the same slot as it would have).
    @Test func geometryAttributesAndWideTags() throws {
        var tree = ViewTree()
        let type = TypeRegistry.shared.typeID(named: "SnapshotTestView")
        let root = tree.makeNode(tag: .max, type: type)
        let a = tree.appendChild(tag: Int(Int32.min), type: type, to: root)
        let b = tree.appendChild(tag: -5, type: type, to: root)
        let gone = tree.appendChild(tag: 3, type: type, to: a)
        tree.setFrameOrigin(SIMD2(1.5, -2), of: a)
        tree.setFrameSize(SIMD2(30, 40), of: a)
        tree.setBoundsOrigin(SIMD2(0, 7), of: b)
        tree.setAttribute(.id, "main", of: a)
        tree.setAttribute(.className, "row wide", of: b)
        tree.setAttribute(.key, "ünïcode", of: root)
        tree.removeSubtree(gone)
        var loaded = try ViewTree(snapshot: tree.snapshot())
        loaded._shareIdentity(with: tree)  // asked with the saved tree's ids
        loaded._checkInvariants()
        #expect(loaded.tag(of: root) == .max && loaded.tag(of: a) == Int(Int32.min) && loaded.tag(of: b) == -5)
        #expect(loaded.frameOrigin(of: a) == SIMD2(1.5, -2) && loaded.frameSize(of: a) == SIMD2(30, 40))
        #expect(loaded.boundsOrigin(of: b) == SIMD2(0, 7) && loaded.frameSize(of: b) == .zero)
        #expect(loaded.attribute(.id, of: a) == "main")
        #expect(loaded.attribute(.className, of: b) == "row wide")
        #expect(loaded.attribute(.key, of: root) == "ünïcode")
        #expect(loaded.recursiveDescription(of: root) == tree.recursiveDescription(of: root))
        #expect(!loaded.contains(gone))
        var original = tree
        #expect(loaded.makeNode(tag: 1, type: type) == original.makeNode(tag: 1, type: type))
    }

    /// Types come back by name: a bare name as the same id; a class this process
    /// registered as that class's id; a class name no class of this process has, as the
    /// bare name's id.
    @Test func typesByName() throws {
        final class SnapshotMarker {}
        var tree = ViewTree()
        let byClass = TypeRegistry.shared.typeID(for: SnapshotMarker.self)
        let byName = TypeRegistry.shared.typeID(named: "SnapshotBareName")
        let x = tree.makeNode(tag: 0, type: byClass)
        let y = tree.appendChild(tag: 0, type: byName, to: x)
        var bytes = tree.snapshot()
        var loaded = try ViewTree(snapshot: bytes)
        loaded._shareIdentity(with: tree)
        #expect(loaded.typeID(of: x) == byClass && loaded.typeID(of: y) == byName)

        // Rename the class entry to a name no class was registered under; it still says "class".
        let layout = try #require(layoutOf(bytes))
        let names = Int(layout.sections[SnapshotLayout.Section.typeNames.rawValue].lowerBound)
        let nameOfClass = "SnapshotMarker"
        let start = try #require(Array(bytes[names...]).firstRange(of: Array(nameOfClass.utf8)))
        bytes[names + start.lowerBound] = UInt8(ascii: "Z")
        resealed(&bytes)
        var renamed = try ViewTree(snapshot: bytes)
        renamed._shareIdentity(with: tree)
        #expect(renamed.typeID(of: x) == TypeRegistry.shared.typeID(named: "ZnapshotMarker"))
        #expect(TypeRegistry.shared.existingTypeID(for: SnapshotMarker.self) == byClass)
    }

    /// Written to a file and read back, mapped and read: the same tree; a file that is not
    /// there or not a file is an error naming it.
    @Test func files() throws {
        let run = CoreVsNaive(spec: TreeSpec(shape: .random, nodes: 5000, seed: 3))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(getpid())-files.rvtree").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try run.tree.writeSnapshot(to: path)
        for mapped in [true, false] {
            let loaded = try ViewTree(contentsOfSnapshot: path, mapped: mapped)
            #expect(loaded.snapshot() == run.tree.snapshot())
        }
        #expect(!FileManager.default.fileExists(atPath: "\(path).\(getpid()).partial"))
        let missing = path + ".missing"
        #expect(throws: SnapshotError(path: missing, offset: 0, reason: "open failed: No such file or directory")) {
            try ViewTree(contentsOfSnapshot: missing)
        }
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: SnapshotError(path: directory, offset: 0, reason: "not a regular file")) {
            try ViewTree(contentsOfSnapshot: directory)
        }
    }

    /// A file load (mapped or read) reads attribute texts in place: they read back whole,
    /// outlive the file's name, and are copied on the tree's first attribute change or
    /// removal, which leaves the other texts and every copy of the tree as they were. Of a
    /// version 1 file only the pages from the texts on stay mapped; a version 2 to 4 file's
    /// tree reads its columns in place too, so all of the file stays mapped, and nothing
    /// else of it is copied.
    @Test(arguments: [true, false], [1, 2, 3, 4] as [UInt32])
    func attributesReadInPlace(mapped: Bool, version: UInt32) throws {
        var tree = ViewTree()
        let type = TypeRegistry.shared.typeID(named: "InPlace")
        var ids = [tree.makeNode(tag: 0, type: type)]
        for i in 1 ..< 3_000 {
            ids.append(tree.appendChild(tag: i, type: type, to: ids[(i - 1) / 3]))
            if i % 2 == 0 { tree.setAttribute(.id, "id-\(i)-" + String(repeating: "x", count: i % 300), of: ids[i]) }
            if i % 5 == 0 { tree.setAttribute(.key, "k\(i % 13)", of: ids[i]) }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(getpid())-inplace-\(mapped)-\(version).rvtree").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(tree._snapshot(version: version))))
        var loaded = try ViewTree(contentsOfSnapshot: path, mapped: mapped)
        loaded._shareIdentity(with: tree)  // asked with the saved tree's ids
        #expect(loaded._borrowsMemory == (version >= 2))
        #if os(Linux)
        if mapped {
            // Of the file, only the pages from the texts on stay mapped.
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            let maps = procSelfMaps().split(separator: "\n").filter { $0.hasSuffix(URL(fileURLWithPath: path).lastPathComponent) }
            let kept = maps.reduce(0) { sum, line in
                let bounds = line.split(separator: " ")[0].split(separator: "-").map { Int($0, radix: 16) ?? 0 }
                return sum + bounds[1] - bounds[0]
            }
            #expect(maps.count == 1 && kept > 0 && (version == 1 ? kept < size : kept >= size), "\(kept) of \(size) bytes mapped: \(maps)")
        }
        #endif
        // The tree keeps the file's memory: its name can go.
        try FileManager.default.removeItem(atPath: path)
        for (i, id) in ids.enumerated() {
            #expect(loaded.attributes(of: id).map { "\($0.0)=\($0.1)" } == tree.attributes(of: id).map { "\($0.0)=\($0.1)" }, "node \(i)")
        }
        let copy = loaded
        loaded.setAttribute(.id, "changed", of: ids[2])
        loaded.removeSubtree(ids[4])
        loaded._checkInvariants()
        #expect(loaded.attribute(.id, of: ids[2]) == "changed")
        #expect(loaded.attribute(.id, of: ids[6]) == tree.attribute(.id, of: ids[6]))
        #expect(loaded.attribute(.key, of: ids[10]) == tree.attribute(.key, of: ids[10]))
        #expect(copy.attribute(.id, of: ids[2]) == tree.attribute(.id, of: ids[2]))
        #expect(copy.attribute(.id, of: ids[4]) == tree.attribute(.id, of: ids[4]))
        #expect(copy.snapshot() == tree.snapshot())
    }

    /// A snapshot written by an earlier run of this package (committed beside this file)
    /// reads back as the tree the same spec builds now: the format is stable across runs
    /// and processes.
    @Test func aSnapshotFromAnotherRun() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources/balanced-200.rvtree").path
        let run = CoreVsNaive(spec: TreeSpec(shape: .balanced, nodes: 200, seed: 200))
        var loaded = try ViewTree(contentsOfSnapshot: path)
        #expect(loaded.snapshot() == run.tree.snapshot())
        loaded._shareIdentity(with: run.tree)  // asked with the saved tree's ids
        var reloaded = run
        reloaded.replaceTree(with: loaded)
        var rng = SplitMix64(seed: 1)
        #expect(reloaded.queries(200, using: &rng).isEmpty)
    }
}

#if os(Linux)
/// `/proc/self/maps`, read to its end with `read(2)` (a /proc file says it is empty, and
/// its length changes as it is read).
func procSelfMaps() -> String {
    let fd = open("/proc/self/maps", O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n <= 0 { break }
        bytes += chunk[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
#endif

/// The section layout of a snapshot's header counts.
func layoutOf(_ bytes: [UInt8]) -> (sections: [Range<UInt64>], fileSize: UInt64)? {
    bytes.withUnsafeBytes { raw in
        let reader = SnapshotReader(bytes: raw, path: nil)
        typealias F = SnapshotLayout.Field
        var counts = SnapshotLayout.Counts()
        counts.version = reader.load(F.version)
        counts.slots = reader.load(F.slotCount)
        counts.live = reader.load(F.liveCount)
        counts.free = reader.load(F.freeCount)
        counts.types = reader.load(F.typeCount)
        counts.typeNameBytes = reader.load(F.typeNameBytes)
        counts.wideTags = reader.load(F.wideTagCount)
        counts.geometry = reader.load(F.geometryCount)
        for a in 0 ..< 3 {
            counts.attributeStarts[a] = reader.load(F.attributeStarts + 8 * a)
            counts.attributeBytes[a] = reader.load(F.attributeBytes + 8 * a)
        }
        counts.generation = counts.version == 1 ? counts.slots : reader.load(F.generationCount)
        if counts.version >= 5 {
            counts.content = SnapshotLayout.ContentCounts(
                valueStarts: reader.load(F.valueStarts), valueBytes: reader.load(F.valueBytes), namedFirst: reader.load(F.namedFirst),
                namedEntries: reader.load(F.namedEntries), namedValueBytes: reader.load(F.namedValueBytes))
        }
        return counts.layout()
    }
}

/// Rewrites the checksum of `bytes` to match them: the change before it then reaches the
/// structural checks (a hostile file, not a damaged one).
func resealed(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { ViewTree.sealSnapshot($0) }
}

/// `body`'s result, computed on a new thread with a 1 GiB stack while this one waits.
func onLargeStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = 1 << 30
    thread.start()
    done.wait()
    return box.value!
}

/// A result handed from one thread to another: written before a semaphore is signalled,
/// read after it is waited for, so the semaphore orders the two.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// A random fixture tree of `nodes` nodes in the core.
func randomTree(nodes: Int, seed: UInt64) -> ViewTree {
    CoreVsNaive(spec: TreeSpec(shape: .random, nodes: nodes, seed: seed)).tree
}

/// Removes the file at `path`, if there is one.
func removeFile(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

extension ViewTree {
    /// This tree, loaded from a snapshot of `original` (a tree of its own), answering to
    /// `original`'s ids: the tests ask both the same questions, id for id.
    func answering(idsOf original: ViewTree) -> ViewTree {
        var tree = self
        tree._shareIdentity(with: original)
        return tree
    }
}

#if os(Linux)
/// A snapshot's memory, let go: a mapping from ``SnapshotMemory/teardownThreadBytes`` on
/// is released on two threads (each half advised away) before it is unmapped; either way
/// nothing of the file stays mapped.
@Suite struct SnapshotMemoryTests {
    @Test(arguments: [4096, SnapshotMemory.teardownThreadBytes + 3 * 4096 + 17])
    func aFileMappingIsGoneOnceLetGo(bytes: Int) throws {
        let name = "snapshot-\(getpid())-memory-\(bytes).bin"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        try #require(ftruncate(fd, off_t(bytes)) == 0)
        let map = try #require(mmap(nil, bytes, PROT_READ, MAP_PRIVATE, fd, 0))
        try #require(map != MAP_FAILED)
        // The file's lines in /proc/self/maps (a mapping is named by its file).
        func mapped() -> [Substring] { procSelfMaps().split(separator: "\n").filter { $0.hasSuffix(name) } }
        var memory: SnapshotMemory? = SnapshotMemory(mapped: map, count: bytes)
        // Pages of both halves read (mapped), as a load's checks read them.
        var sum = 0
        for offset in stride(from: 0, to: bytes, by: 1 << 16) { sum &+= Int(map.load(fromByteOffset: offset, as: UInt8.self)) }
        #expect(sum == 0)
        #expect(mapped().count == 1)
        withExtendedLifetime(memory) {}
        memory = nil
        #expect(mapped().isEmpty, "\(mapped())")
    }
}
#endif
