import Testing
@testable import RelativeViewCore
import RelativeViewFixtures

/// `ViewTreeBuilder`: open/close streaming gives the same tree as `appendChild`, with a
/// fresh index that equals one rebuilt from the links.
@Suite struct BuilderTests {
    @Test func streamingSeveralRootsTracksDepthAndCount() {
        var b = ViewTreeBuilder(minimumCapacity: 4)
        #expect(b.depth == 0 && b.count == 0)
        let r1 = b.open(tag: 1, type: Ty.a)
        #expect(b.depth == 1 && b.count == 1)
        let x = b.open(tag: 2, type: Ty.b)
        #expect(b.depth == 2 && b.count == 2)
        let y = b.open(tag: 3, type: Ty.c)
        #expect(b.depth == 3 && b.count == 3)
        b.close()
        #expect(b.depth == 2 && b.count == 3)
        let z = b.open(tag: 4, type: Ty.c)
        b.close()
        b.close()
        let w = b.open(tag: 5, type: Ty.d)
        #expect(b.depth == 2)
        b.close()
        b.close()
        #expect(b.depth == 0 && b.count == 5)
        let r2 = b.open(tag: 6, type: Ty.a) // a second root
        #expect(b.depth == 1)
        b.close()
        let r3 = b.open(type: Ty.b)   // a third, with the default tag
        let r3a = b.open(type: Ty.b)
        b.close()
        b.close()
        #expect(b.depth == 0 && b.count == 8)
        let tree = b.finish()
        tree._checkInvariants()
        #expect(tree.count == 8)
        #expect(tree.roots == [r1, r2, r3])
        expectChildren(tree, r1, [x, w])
        expectChildren(tree, x, [y, z])
        expectChildren(tree, r2, [])
        expectChildren(tree, r3, [r3a])
        #expect([r1, x, y, z, w, r2, r3, r3a].map { tree.tag(of: $0) } == [1, 2, 3, 4, 5, 6, 0, 0])
        #expect([r1, x, y, z, w, r2, r3, r3a].map { tree.typeID(of: $0) } == [Ty.a, Ty.b, Ty.c, Ty.c, Ty.d, Ty.a, Ty.b, Ty.b])
        #expect(Array(tree.descendants(of: r1)) == [x, y, z, w])
        #expect(tree.subtreeSize(of: r1) == 5 && tree.subtreeSize(of: r2) == 1 && tree.subtreeSize(of: r3) == 2)
        #expect(!tree.isAncestor(r1, of: r3a))
        #expect(tree.isAncestor(r3, of: r3a))
        #expect(tree.lowestCommonAncestor(y, w) == r1)
        #expect(tree.lowestCommonAncestor(y, r3a) == nil)
    }

    @Test func emptyBuilder() {
        let tree = ViewTreeBuilder().finish()
        #expect(tree.isEmpty)
        #expect(tree.roots.isEmpty)
        tree._checkInvariants()
    }

    /// Random open/close streams, replayed with `makeNode`/`appendChild`: the two trees agree on everything.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func equalsTheSameTreeBuiltWithAppendChild(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var builder = ViewTreeBuilder()
        var manual = ViewTree()
        var stack: [NodeID] = []
        var opened: [NodeID] = []
        let tags = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, Int.max, Int(Int32.min)]
        var rootsOpened = 0
        while opened.count < 600 || !stack.isEmpty {
            // Close everything every 150 nodes or so, so the stream makes several roots.
            let limit = min(600, rootsOpened * 150)
            let closeNow = !stack.isEmpty && (opened.count >= limit || Int.random(in: 0 ..< 100, using: &rng) < 45)
            if closeNow {
                builder.close()
                stack.removeLast()
            } else {
                let tag = tags.randomElement(using: &rng)!
                let type = Ty.all.randomElement(using: &rng)!
                if stack.isEmpty { rootsOpened += 1 }
                let b = builder.open(tag: tag, type: type)
                let m = stack.last.map { manual.appendChild(tag: tag, type: type, to: $0) } ?? manual.makeNode(tag: tag, type: type)
                #expect(b.index == m.index, "seed \(seed)")
                stack.append(m)
                opened.append(m)
            }
            #expect(builder.depth == stack.count, "seed \(seed)")
            #expect(builder.count == opened.count, "seed \(seed)")
        }
        var built = builder.finish()
        built._shareIdentity(with: manual)  // the same nodes in the same slots: compared id for id
        built._checkInvariants() // the streamed index equals one rebuilt from the links
        manual._checkInvariants()
        #expect(built.count == manual.count)
        #expect(built.roots == manual.roots)
        #expect(built.roots.count > 1, "seed \(seed): the stream should make several roots")
        for node in opened {
            #expect(built.kids(node) == manual.kids(node), "seed \(seed)")
            #expect(built.parent(of: node) == manual.parent(of: node), "seed \(seed)")
            #expect(built.tag(of: node) == manual.tag(of: node), "seed \(seed)")
            #expect(built.typeID(of: node) == manual.typeID(of: node), "seed \(seed)")
            #expect(Array(built.descendants(of: node)) == Array(manual.descendants(of: node)), "seed \(seed)")
            #expect(built.subtreeSize(of: node) == manual.subtreeSize(of: node), "seed \(seed)")
            #expect(built.group(.descendants, of: node, byTags: tags) == manual.group(.descendants, of: node, byTags: tags), "seed \(seed)")
            #expect(built.group(.descendants, of: node, byTags: [1, 2]) == manual.group(.descendants, of: node, byTags: [1, 2]), "seed \(seed)")
            #expect(built.group(.descendants, of: node, byTypes: Ty.all) == manual.group(.descendants, of: node, byTypes: Ty.all), "seed \(seed)")
            #expect(built.group(.ancestors, of: node, byTags: tags) == manual.group(.ancestors, of: node, byTags: tags), "seed \(seed)")
            #expect(built.group(.ancestors, of: node, byTypes: Ty.all) == manual.group(.ancestors, of: node, byTypes: Ty.all), "seed \(seed)")
            #expect(built.group(.siblings, of: node, byTags: tags) == manual.group(.siblings, of: node, byTags: tags), "seed \(seed)")
            #expect(built.group(.siblings, of: node, byTypes: Ty.all) == manual.group(.siblings, of: node, byTypes: Ty.all), "seed \(seed)")
            #expect(built.recursiveSubviews(of: node) == manual.recursiveSubviews(of: node), "seed \(seed)")
        }
        // Pairwise ancestry on a sample.
        for _ in 0 ..< 2000 {
            let x = opened.randomElement(using: &rng)!
            let y = opened.randomElement(using: &rng)!
            #expect(built.isAncestor(x, of: y) == manual.isAncestor(x, of: y), "seed \(seed)")
            #expect(built.isAncestor(x, of: y) == oracleAncestors(built, y).contains(x), "seed \(seed)")
            #expect(built.lowestCommonAncestor(x, y) == manual.lowestCommonAncestor(x, y), "seed \(seed)")
        }
    }

    /// Streams long enough to cross the builder's staging batches many times (a flush in
    /// the middle of open subtrees, exits of nodes flushed long before), with the capacity
    /// given exactly, too small, too large and not at all: the same tree as `appendChild`
    /// makes, with a sound index, which mutations afterwards keep sound.
    @Test(arguments: [nil, 0, 1_000, 25_000, 200_000] as [Int?])
    func longStreamsAcrossStagingBatches(capacity: Int?) {
        var rng = SplitMix64(seed: 77)
        var builder = ViewTreeBuilder(minimumCapacity: capacity ?? 0)
        var manual = ViewTree()
        var stack: [NodeID] = []
        var opened: [NodeID] = []
        let tags = [0, 1, 2, 3, Int.max, Int(Int32.min), -5]
        while opened.count < 25_000 || !stack.isEmpty {
            // Runs of opens (deep paths) and of closes, so that batches end at every depth.
            let closing = !stack.isEmpty && (opened.count >= 25_000 || Int.random(in: 0 ..< 100, using: &rng) < (stack.count > 40 ? 60 : 47))
            if closing {
                builder.close()
                stack.removeLast()
            } else {
                let tag = tags.randomElement(using: &rng)!
                let type = Ty.all.randomElement(using: &rng)!
                let b = builder.open(tag: tag, type: type)
                let m = stack.last.map { manual.appendChild(tag: tag, type: type, to: $0) } ?? manual.makeNode(tag: tag, type: type)
                #expect(b.index == m.index)
                stack.append(m)
                opened.append(m)
            }
        }
        #expect(builder.count == 25_000)
        var built = builder.finish()
        built._shareIdentity(with: manual)  // the same nodes in the same slots: compared id for id
        built._checkInvariants()
        #expect(built.count == manual.count)
        #expect(built.roots == manual.roots)
        var mismatches = 0
        for node in opened where built.kids(node) != manual.kids(node) || built.parent(of: node) != manual.parent(of: node)
            || built.tag(of: node) != manual.tag(of: node) || built.typeID(of: node) != manual.typeID(of: node)
            || built.subtreeSize(of: node) != manual.subtreeSize(of: node) {
            mismatches += 1
        }
        #expect(mismatches == 0)
        for _ in 0 ..< 3000 {
            let x = opened.randomElement(using: &rng)!
            let y = opened.randomElement(using: &rng)!
            #expect(built.isAncestor(x, of: y) == manual.isAncestor(x, of: y))
        }
        let root = built.roots[0]
        #expect(built.group(.descendants, of: root, byTags: tags) == manual.group(.descendants, of: root, byTags: tags))
        #expect(built.group(.descendants, of: root, byTypes: Ty.all) == manual.group(.descendants, of: root, byTypes: Ty.all))
        // Mutations split the full blocks a streamed build leaves.
        for _ in 0 ..< 2000 {
            let x = opened.randomElement(using: &rng)!
            let y = built.appendChild(tag: 1, type: Ty.a, to: x)
            _ = manual.appendChild(tag: 1, type: Ty.a, to: x)
            #expect(built.isAncestor(x, of: y))
        }
        built._checkInvariants()
        #expect(built.group(.descendants, of: root, byTags: [1]) == manual.group(.descendants, of: root, byTags: [1]))
    }

    @Test func aBuiltTreeCanBeMutatedAfterwards() {
        var b = ViewTreeBuilder()
        let r = b.open(type: Ty.a)
        let x = b.open(type: Ty.b)
        b.close()
        let y = b.open(type: Ty.b)
        b.close()
        b.close()
        var tree = b.finish()
        let z = tree.appendChild(type: Ty.c, to: x)
        tree.exchangeChildren(of: r, at: 0, 1)
        expectChildren(tree, r, [y, x])
        expectChildren(tree, x, [z])
        tree._checkInvariants()
        #expect(Array(tree.descendants(of: r)) == [y, x, z])
    }

    /// A streamed build writes no generation column (every node's generation is 0). Ids stay
    /// valid; removing a node past the column's end grows the column to cover it, so its id
    /// goes stale and a node that takes its slot gets a new generation; nodes added after
    /// the build leave the column short; the snapshot image has a generation per slot.
    @Test func aStreamedBuildWritesNoGenerationsYetRemovedIdsGoStale() {
        var b = ViewTreeBuilder(minimumCapacity: 40)
        let root = b.open(type: Ty.a)
        var leaves: [NodeID] = []
        for k in 0 ..< 30 { leaves.append(b.appendLeaf(tag: k, type: Ty.b)) }
        b.close()
        var tree = b.finish()
        #expect(tree._storage.generation.isEmpty)
        #expect(leaves.allSatisfy(tree.contains) && tree.contains(root))
        let extra = tree.appendChild(type: Ty.c, to: root)
        #expect(tree._storage.generation.isEmpty && tree.contains(extra) && tree._storage.generation(of: extra) == 0)

        tree.removeSubtree(leaves[20])
        #expect(tree._storage.generation.count == Int(leaves[20].index) + 1)
        #expect(!tree.contains(leaves[20]))
        #expect(leaves.enumerated().allSatisfy { $0.offset == 20 || tree.contains($0.element) })
        let reused = tree.appendChild(type: Ty.c, to: root)
        #expect(reused.index == leaves[20].index && tree._storage.generation(of: reused) == 1)
        #expect(tree.contains(reused) && !tree.contains(leaves[20]))
        tree.removeSubtree(extra)  // past the column's end again: it grows to cover it
        #expect(!tree.contains(extra) && tree._storage.generation.count == Int(extra.index) + 1)
        tree._checkInvariants()

        let image = tree._image()
        #expect(image.generation.count == tree._storage.slotCount)
        #expect(image.generation[Int(reused.index)] == 1 && image.generation[Int(extra.index)] == 1)
        #expect(image.generation[Int(leaves[3].index)] == 0)
    }

    // MARK: Misuse

    @Test func finishWithOpenNodesTraps() async {
        await #expect(processExitsWith: .failure) {
            var b = ViewTreeBuilder()
            b.open(type: Ty.a)
            b.open(type: Ty.a)
            b.close()
            _ = b.finish()
        }
    }

    @Test func closeWithoutOpenTraps() async {
        await #expect(processExitsWith: .failure) {
            var b = ViewTreeBuilder()
            b.close()
        }
    }

    @Test func closeMoreThanOpenedTraps() async {
        await #expect(processExitsWith: .failure) {
            var b = ViewTreeBuilder()
            b.open(type: Ty.a)
            b.close()
            b.close()
        }
    }
}

/// Attributes: set, read, removed, cleared with their node, copied with the tree, grafted.
@Suite struct AttributeTests {
    @Test func setReadAndRemove() {
        var tree = ViewTree()
        let r = tree.makeNode(type: Ty.a)
        let x = tree.appendChild(type: Ty.b, to: r)
        #expect(tree.attribute(.id, of: x) == nil)
        tree.setAttribute(.id, "main", of: x)
        tree.setAttribute(.className, "a b", of: x)
        #expect(tree.attribute(.id, of: x) == "main")
        #expect(tree.attribute(.className, of: x) == "a b")
        #expect(tree.attribute(.key, of: x) == nil)
        #expect(tree.attribute(.id, of: r) == nil)
        #expect(tree.attributes(of: x).map { "\($0.0)=\($0.1)" } == ["id=main", "class=a b"])
        tree.setAttribute(.id, nil, of: x)
        #expect(tree.attribute(.id, of: x) == nil)
        #expect(tree.recursiveDescription(of: r).contains(#"class = "a b""#))
        tree._checkInvariants()
    }

    @Test func aRemovedNodesSlotComesBackWithout() {
        var tree = ViewTree()
        let r = tree.makeNode(type: Ty.a)
        let x = tree.appendChild(type: Ty.b, to: r)
        tree.setAttribute(.key, "gone", of: x)
        tree.removeSubtree(x)
        tree._checkInvariants()
        let y = tree.appendChild(type: Ty.b, to: r)
        #expect(y.index == x.index)
        #expect(tree.attribute(.key, of: y) == nil)
    }

    @Test func copiesAreIndependentAndGraftsCarryThem() {
        var tree = ViewTree()
        let r = tree.makeNode(type: Ty.a)
        let x = tree.appendChild(type: Ty.b, to: r)
        tree.setAttribute(.key, "one", of: x)
        var copy = tree
        copy.setAttribute(.key, "two", of: x)
        #expect(tree.attribute(.key, of: x) == "one")
        #expect(copy.attribute(.key, of: x) == "two")
        var other = ViewTree()
        var copies: [NodeID: NodeID] = [:]
        other.graft(r, of: tree) { copies[$0] = $1 }
        #expect(other.attribute(.key, of: copies[x]!) == "one")
        #expect(other.attribute(.key, of: copies[r]!) == nil)
    }

    /// Texts repeated among recent ones are stored once, one-letter ones included (whose
    /// hashes once all fell in one slot of the table of recent texts).
    @Test func repeatedTextsAreStoredOnce() {
        let texts = ["name", "value", "a", "b", "x", "y", "id", "ok", "w", "h"]
        var b = ViewTreeBuilder()
        b.open(type: Ty.a)
        for k in 0 ..< 1000 {
            b.open(type: Ty.b)
            b.setAttribute(.key, texts[k % texts.count])
            b.close()
        }
        b.close()
        let tree = b.finish()
        let kids = tree.children(of: tree.roots[0])
        #expect(kids.map { tree.attribute(.key, of: $0)! } == (0 ..< 1000).map { texts[$0 % texts.count] })
        // Ten texts in the table (each a length byte and its bytes), not a thousand.
        let stored = tree._storage.attributes[NodeAttribute.key.rawValue].bytes.count
        #expect(stored == texts.reduce(0) { $0 + 1 + $1.utf8.count })
    }
}

/// `rollBack(to:)`: events after a mark vanish, whether still staged, already copied
/// into the columns or written there directly (a builder given a capacity, the mark
/// before or after the capacity is passed), with marks taken at any depth.
@Suite struct BuilderRollBackTests {
    @Test(arguments: [(1, 10, 0), (2, 3_000, 0), (3, 9_000, 0), (4, 20_000, 0), (5, 3_000, 100_000),
                      (6, 20_000, 100_000), (7, 9_000, 6_000), (8, 9_000, 2_000)] as [(UInt64, Int, Int)])
    func abandonedEventsLeaveNoTrace(seed: UInt64, abandoned: Int, capacity: Int) {
        var rng = SplitMix64(seed: seed)
        var builder = ViewTreeBuilder(minimumCapacity: capacity)
        var reference = ViewTreeBuilder()
        var depth = 0
        /// One random event on both builders (or only on `builder`, when abandoning).
        func step(_ both: Bool, _ builder: inout ViewTreeBuilder, _ reference: inout ViewTreeBuilder) {
            if depth > 0 && Int.random(in: 0 ..< 100, using: &rng) < 48 {
                builder.close()
                if both { reference.close() }
                depth -= 1
            } else {
                let tag = Int.random(in: -3 ..< 4, using: &rng)
                let type = Ty.all.randomElement(using: &rng)!
                builder.open(tag: tag, type: type)
                if tag == 2 { builder.setAttribute(.id, "x\(builder.count)") }
                if both {
                    reference.open(tag: tag, type: type)
                    if tag == 2 { reference.setAttribute(.id, "x\(reference.count)") }
                }
                depth += 1
            }
        }
        for _ in 0 ..< 5_000 { step(true, &builder, &reference) }
        let mark = builder.mark
        let depthAtMark = depth
        for _ in 0 ..< abandoned { step(false, &builder, &reference) }
        builder.rollBack(to: mark)
        depth = depthAtMark
        #expect(builder.count == reference.count)
        #expect(builder.depth == reference.depth)
        for _ in 0 ..< 5_000 { step(true, &builder, &reference) }
        while depth > 0 {
            builder.close()
            reference.close()
            depth -= 1
        }
        var a = builder.finish()
        let b = reference.finish()
        a._shareIdentity(with: b)  // compared slot for slot with b's ids
        a._checkInvariants()
        #expect(a.count == b.count)
        #expect(a.roots == b.roots)
        var differences = 0
        for slot in 0 ..< b.slotCount {
            let x = b.node(atSlot: slot)!
            if a.parent(of: x) != b.parent(of: x) || a.tag(of: x) != b.tag(of: x) || a.typeID(of: x) != b.typeID(of: x)
                || a.subtreeSize(of: x) != b.subtreeSize(of: x) || a.attribute(.id, of: x) != b.attribute(.id, of: x) {
                differences += 1
            }
        }
        #expect(differences == 0)
    }
}

/// `appendLeaf(tag:type:)` and the two-word `setAttribute` are shortcuts: the same tree as
/// the long way, across staging batches, with wide tags and attributes on leaves.
@Suite struct BuilderShortcutTests {
    @Test(arguments: [0, 30_000] as [Int])
    func appendLeafIsOpenThenClose(capacity: Int) {
        var rng = SplitMix64(seed: 5)
        var short = ViewTreeBuilder(minimumCapacity: capacity)
        var long = ViewTreeBuilder(minimumCapacity: capacity)
        var depth = 0
        let tags = [0, 9, Int.max, Int(Int32.min)]
        var leaves = 0
        for k in 0 ..< 25_000 {
            let tag = tags.randomElement(using: &rng)!
            let type = Ty.all.randomElement(using: &rng)!
            switch Int.random(in: 0 ..< 10, using: &rng) {
            case 0 ..< 5:
                // Runs of leaves, so that both events fall on either side of a flush.
                let a = short.appendLeaf(tag: tag, type: type)
                let b = long.open(tag: tag, type: type)
                long.close()
                #expect(a.index == b.index)
                if k % 3 == 0 {
                    short.setAttribute(.className, "leaf \(k % 5)")
                    long.setAttribute(.className, "leaf \(k % 5)")
                }
                leaves += 1
            case 5 ..< 8:
                short.open(tag: tag, type: type)
                long.open(tag: tag, type: type)
                depth += 1
            default:
                if depth > 0 {
                    short.close()
                    long.close()
                    depth -= 1
                }
            }
        }
        for _ in 0 ..< depth {
            short.close()
            long.close()
        }
        var a = short.finish()
        let b = long.finish()
        a._shareIdentity(with: b)  // compared node for node with b's ids
        a._checkInvariants()
        #expect(leaves > 10_000)
        #expect(a.count == b.count && a.roots == b.roots)
        var differ = 0
        for x in b.roots.flatMap({ [$0] + b.descendants(of: $0) })
        where a.kids(x) != b.kids(x) || a.parent(of: x) != b.parent(of: x) || a.tag(of: x) != b.tag(of: x)
            || a.typeID(of: x) != b.typeID(of: x) || a.attribute(.className, of: x) != b.attribute(.className, of: x) {
            differ += 1
        }
        #expect(differ == 0)
    }

    @Test func aTextGivenAsWordsIsTheTextGivenAsBytes() {
        // Every length a pair of words holds, texts that differ in their last byte only.
        var texts: [String] = []
        for n in 0 ... 16 {
            texts.append(String(repeating: "a", count: n))
            if n > 0 { texts.append(String(repeating: "a", count: n - 1) + "b") }
        }
        texts.append("é€😀")  // 9 bytes of UTF-8
        var words = ViewTreeBuilder()
        var bytes = ViewTreeBuilder()
        words.open(type: Ty.a)
        bytes.open(type: Ty.a)
        for text in texts + texts.reversed() {
            words.appendLeaf(type: Ty.b)
            bytes.appendLeaf(type: Ty.b)
            let utf8 = Array(text.utf8)
            var pair: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &pair) { raw in utf8.withUnsafeBytes { raw.copyMemory(from: $0) } }
            words.setAttribute(.key, words: (UInt64(littleEndian: pair.0), UInt64(littleEndian: pair.1)), count: utf8.count)
            utf8.withUnsafeBufferPointer { bytes.setAttribute(.key, utf8: $0) }
        }
        words.close()
        bytes.close()
        let a = words.finish()
        let b = bytes.finish()
        let fromWords = a.kids(a.roots[0]).map { a.attribute(.key, of: $0) }
        let fromBytes = b.kids(b.roots[0]).map { b.attribute(.key, of: $0) }
        #expect(fromWords == (texts + texts.reversed()).map { Optional($0) })
        #expect(fromBytes == fromWords)
    }

    /// `setKey(words:count:)` writes a member name stored lately straight into the keys'
    /// memory while the builder is in direct mode: the same keys as the general path,
    /// with no capacity (never direct), one the build outgrows (direct, then not) and
    /// one that holds it, nodes with no key among them, and names that collide in none
    /// or share a prefix.
    @Test(arguments: [0, 10, 2_000, 5_000])
    func aKeyGivenThroughTheDirectPathIsTheKeyGivenAsBytes(capacity: Int) {
        let names = ["a", "next", "k1", "k2", "id", "name", "a_longer_name16b", "é"]
        var direct = capacity == 0 ? ViewTreeBuilder() : ViewTreeBuilder(minimumCapacity: capacity)
        var bytes = ViewTreeBuilder()
        var expected: [String?] = []
        direct.open(type: Ty.a)
        bytes.open(type: Ty.a)
        for k in 0 ..< 3_000 {
            direct.appendLeaf(type: Ty.b)
            bytes.appendLeaf(type: Ty.b)
            guard k % 7 != 3 else {
                expected.append(nil)
                continue
            }
            let name = names[(k * k + k / 5) % names.count]
            let utf8 = Array(name.utf8)
            var pair: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &pair) { raw in utf8.withUnsafeBytes { raw.copyMemory(from: $0) } }
            direct.setKey(words: (UInt64(littleEndian: pair.0), UInt64(littleEndian: pair.1)), count: utf8.count)
            utf8.withUnsafeBufferPointer { bytes.setAttribute(.key, utf8: $0) }
            expected.append(name)
        }
        direct.close()
        bytes.close()
        let a = direct.finish()
        let b = bytes.finish()
        let fromDirect = a.kids(a.roots[0]).map { a.attribute(.key, of: $0) }
        #expect(fromDirect == expected)
        #expect(b.kids(b.roots[0]).map { b.attribute(.key, of: $0) } == expected)
    }
}

/// A builder given its capacity takes no more memory for an attribute column than that
/// many nodes need: the batch it extends a column by stops at the capacity.
@Suite struct BuilderCapacityTests {
    @Test(arguments: [1, 100, 4_095, 4_096, 10_000])
    func anAttributeColumnStaysWithinTheCapacity(nodes: Int) {
        var b = ViewTreeBuilder(minimumCapacity: nodes)
        b.open(type: Ty.a)
        b.setAttribute(.key, "root")
        for k in 1 ..< nodes {
            b.open(type: Ty.b)
            b.setAttribute(.key, "k\(k % 7)")
            b.close()
        }
        b.close()
        let tree = b.finish()
        let column = tree._storage.attributes[NodeAttribute.key.rawValue]
        #expect(column.start.count == nodes)
        #expect(column.start.capacity < nodes + 64, "\(column.start.capacity) starts for \(nodes) nodes")
        #expect(tree._storage.parent.capacity < nodes + 64)
    }
}

/// A text column's starts: four bytes each while they fit, widened to `Int`s (every start
/// kept) by the first that does not, as a column of more than 4 GiB of texts needs.
@Suite struct TextStartColumnTests {
    @Test func startsAreNarrowUntilOneDoesNotFitThenWideWithEveryStartKept() {
        var column = _TextStartColumn()
        column.appendNone(5)
        column[1] = 0
        column[3] = Int(UInt32.max) - 1
        #expect(!column.isWide)
        #expect(column.capacityBytes == column.capacity * 4)
        #expect(column.array() == [-1, 0, -1, Int(UInt32.max) - 1, -1])
        column[4] = Int(UInt32.max)
        #expect(column.isWide)
        #expect(column.array() == [-1, 0, -1, Int(UInt32.max) - 1, Int(UInt32.max)])
        column[2] = 1 << 40
        column.appendNone(1)
        column.removeLast(2)
        #expect(column.array() == [-1, 0, 1 << 40, Int(UInt32.max) - 1])
        #expect(column.withStarts { starts in starts.indices.map { starts[$0] } } == column.array())
    }

    @Test func startsGivenAsIntsStayAsTheyAre() {
        #expect(!_TextStartColumn([-1, 0, 7]).isWide)
        #expect(_TextStartColumn([-1, 0, 7]).withStarts { $0.isNarrow })
        // A start below -1 (a damaged snapshot's) is kept, to be reported by the check.
        #expect(_TextStartColumn([-7, 0]).array() == [-7, 0])
        #expect(_TextStartColumn([1 << 33]).array() == [1 << 33])
    }
}
