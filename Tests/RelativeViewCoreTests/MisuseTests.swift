import Testing
@testable import RelativeViewCore

/// Misuse traps with a precondition, checked in a child process with exit tests.
@Suite struct MisuseTests {
    /// r [a [a1 [a11]], b]; returned ids: r, a, a1, a11, b.
    static func small() -> (ViewTree, NodeID, NodeID, NodeID, NodeID, NodeID) {
        var t = ViewTree()
        let r = t.makeNode(type: Ty.a)
        let a = t.appendChild(type: Ty.a, to: r)
        let a1 = t.appendChild(type: Ty.a, to: a)
        let a11 = t.appendChild(type: Ty.a, to: a1)
        let b = t.appendChild(type: Ty.a, to: r)
        return (t, r, a, a1, a11, b)
    }

    /// The same calls without the misuse do not trap: the traps below are about the misuse.
    @Test func theControlCasesDoNotTrap() {
        var (t, r, a, a1, a11, b) = Self.small()
        #expect(t.tag(of: a11) == 0)
        #expect(t.parent(of: a1) == a)
        #expect(t.isAncestor(r, of: a11))
        t.append(b, to: a11)
        t.insert(a11, into: r, at: 1)
        t.insert(a11, before: a)
        #expect(t.child(of: r, at: 0) == a11)
        t._checkInvariants()
    }

    // MARK: Stale ids

    @Test func tagOfARemovedNodeTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, _, a, _, a11, _) = MisuseTests.small()
            t.removeSubtree(a)
            _ = t.tag(of: a11)
        }
    }

    @Test func removingANodeWithAParentKeepingItsChildrenTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (t, _, a, _, _, _) = MisuseTests.small()
            var tree = t
            tree.removeRootKeepingChildren(a)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("only a root can be removed keeping its children"), "\(message)")
    }

    /// A node of a large removed subtree, whose slot waits to be freed, is stale at once.
    @Test func aNodeOfALargeRemovedSubtreeIsStaleAtOnce() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var t = ViewTree()
            let r = t.makeNode(type: Ty.a)
            let a = t.appendChild(type: Ty.a, to: r)
            var last = a
            for _ in 0 ..< 2_000 { last = t.appendChild(type: Ty.a, to: a) }
            t.removeSubtree(a)
            precondition(t._hasPendingRemovals, "the subtree waits to be freed")
            _ = t.parent(of: last)
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("stale NodeID"), "\(message)")
    }

    @Test func parentOfARemovedNodeTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, _, a, _, _, _) = MisuseTests.small()
            t.removeSubtree(a)
            _ = t.parent(of: a)
        }
    }

    @Test func isAncestorWithARemovedNodeTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, r, _, a1, _, _) = MisuseTests.small()
            t.removeSubtree(a1)
            _ = t.isAncestor(r, of: a1)
        }
        await #expect(processExitsWith: .failure) {
            var (t, _, _, a1, a11, _) = MisuseTests.small()
            t.removeSubtree(a1)
            _ = t.isAncestor(a11, of: a1)
        }
    }

    @Test func aStaleIdWhoseSlotWasReusedTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, r, _, _, _, b) = MisuseTests.small()
            t.removeSubtree(b)
            let c = t.appendChild(tag: 9, type: Ty.b, to: r)
            precondition(c.index == b.index) // the slot really is reused
            _ = t.tag(of: b)
        }
        await #expect(processExitsWith: .failure) {
            var (t, r, _, _, _, b) = MisuseTests.small()
            t.removeSubtree(b)
            _ = t.appendChild(tag: 9, type: Ty.b, to: r)
            t.append(b, to: r)
        }
    }

    @Test func idsOutsideTheArenaAreNotContained() {
        let (t, r, _, _, _, _) = Self.small()
        #expect(t.contains(r))
        #expect(!t.contains(NodeID(index: -1, stamp: 0)))
        #expect(!t.contains(NodeID(index: Int32(t.slotCount), stamp: r.stamp)))
        #expect(!t.contains(NodeID(index: r.index, stamp: r.stamp &+ 1)))
        #expect(t.node(atSlot: -1) == nil && t.node(atSlot: t.slotCount) == nil)
        #expect(t.node(atSlot: Int(r.index)) == r)
    }

    @Test func idsOutsideTheArenaTrap() async {
        await #expect(processExitsWith: .failure) {
            let (t, _, _, _, _, _) = MisuseTests.small()
            _ = t.tag(of: NodeID(index: 5, stamp: 0))
        }
        await #expect(processExitsWith: .failure) {
            let (t, _, _, _, _, _) = MisuseTests.small()
            _ = t.parent(of: NodeID(index: -1, stamp: 0))
        }
        await #expect(processExitsWith: .failure) {
            // An id of a bigger tree.
            var big = ViewTree()
            var last = big.makeNode(type: Ty.a)
            for _ in 0 ..< 10 { last = big.appendChild(type: Ty.a, to: last) }
            let (t, r, _, _, _, _) = MisuseTests.small()
            _ = t.isAncestor(r, of: last)
        }
    }

    // MARK: Ids of another tree

    /// Two trees built the same way have nodes in the same slots at the same generations:
    /// only the trees' identities tell their ids apart. A copy keeps its tree's identity.
    @Test func anIdOfAnotherTreeIsNotContained() {
        let (t, r, a, a1, a11, b) = Self.small()
        let (u, ur, _, _, _, _) = Self.small()
        for id in [r, a, a1, a11, b] {
            #expect(t.contains(id) && !u.contains(id), "\(id)")
        }
        #expect(!t.contains(ur) && r.index == ur.index && r != ur)
        let copy = t
        #expect([r, a, a1, a11, b].allSatisfy(copy.contains))
        var builder = ViewTreeBuilder()
        let streamed = builder.open(type: Ty.a)
        builder.close()
        let built = builder.finish()
        #expect(built.contains(streamed) && !t.contains(streamed) && streamed.index == r.index)
    }

    /// The message a trap prints, from an exit test's standard error.
    private static func trapMessage(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func anIdOfAnotherTreeTrapsAndSaysSo() async {
        let sameSlot = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (_, _, a, _, _, _) = MisuseTests.small()
            let (u, _, _, _, _, _) = MisuseTests.small()
            _ = u.parent(of: a)
        }
        #expect(Self.trapMessage(sameSlot).contains("belongs to another tree"), "\(Self.trapMessage(sameSlot))")
        let noSuchSlot = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var big = ViewTree()
            var last = big.makeNode(type: Ty.a)
            for _ in 0 ..< 10 { last = big.appendChild(type: Ty.a, to: last) }
            let (t, r, _, _, _, _) = MisuseTests.small()
            _ = t.isAncestor(r, of: last)
        }
        #expect(Self.trapMessage(noSuchSlot).contains("belongs to another tree: this tree has no slot 10"), "\(Self.trapMessage(noSuchSlot))")
        let stale = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var (t, _, _, _, _, b) = MisuseTests.small()
            t.removeSubtree(b)
            _ = t.tag(of: b)
        }
        #expect(Self.trapMessage(stale).contains("its node was removed from this tree"), "\(Self.trapMessage(stale))")
    }

    @Test func removingTwiceTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, _, _, _, _, b) = MisuseTests.small()
            t.removeSubtree(b)
            t.removeSubtree(b)
        }
    }

    // MARK: Cycles

    @Test func appendingANodeUnderItselfTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, _, a, _, _, _) = MisuseTests.small()
            t.append(a, to: a)
        }
        await #expect(processExitsWith: .failure) {
            var t = ViewTree()
            let leaf = t.makeNode(type: Ty.a)
            t.append(leaf, to: leaf)
        }
    }

    @Test func appendingANodeUnderItsChildTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, _, a, a1, _, _) = MisuseTests.small()
            t.append(a, to: a1)
        }
    }

    @Test func appendingANodeUnderADeepDescendantTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, r, _, _, a11, _) = MisuseTests.small()
            t.append(r, to: a11) // stale index: the cycle check walks
        }
        await #expect(processExitsWith: .failure) {
            var (t, r, _, _, a11, _) = MisuseTests.small()
            t.append(r, to: a11)
        }
    }

    @Test func insertingANodeUnderItsDescendantTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, _, a, _, a11, _) = MisuseTests.small()
            t.insert(a, into: a11, at: 0)
        }
        await #expect(processExitsWith: .failure) {
            var (t, _, a, _, _, _) = MisuseTests.small()
            t.insert(a, into: a, at: 0)
        }
    }

    @Test func insertingBeforeADescendantsSiblingTraps() async {
        // a11 is a child of a1, a descendant of a: putting a next to a11 puts a under a1.
        await #expect(processExitsWith: .failure) {
            var (t, _, a, _, a11, _) = MisuseTests.small()
            t.insert(a, before: a11)
        }
        await #expect(processExitsWith: .failure) {
            var (t, _, a, _, a11, _) = MisuseTests.small()
            t.insert(a, after: a11)
        }
        // a1 is a child of a: putting a next to it puts a under itself.
        await #expect(processExitsWith: .failure) {
            var (t, _, a, a1, _, _) = MisuseTests.small()
            t.insert(a, before: a1)
        }
    }

    @Test func insertingANodeNextToItselfTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, _, a, _, _, _) = MisuseTests.small()
            t.insert(a, before: a)
        }
        await #expect(processExitsWith: .failure) {
            var (t, _, _, _, _, b) = MisuseTests.small()
            t.insert(b, after: b)
        }
    }

    // MARK: Ranges and roots

    @Test func insertAtAnIndexOutOfRangeTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, r, _, _, _, _) = MisuseTests.small()
            let n = t.makeNode(type: Ty.a)
            t.insert(n, into: r, at: 3) // r has 2 children: 0 ... 2 are valid
        }
        await #expect(processExitsWith: .failure) {
            var (t, r, a, _, _, _) = MisuseTests.small()
            t.insert(a, into: r, at: 2) // after detaching a, r has 1 child: 0 ... 1 are valid
        }
        await #expect(processExitsWith: .failure) {
            var (t, r, _, _, _, _) = MisuseTests.small()
            let n = t.makeNode(type: Ty.a)
            t.insert(n, into: r, at: -1)
        }
    }

    @Test func childAtAnIndexOutOfRangeTraps() async {
        await #expect(processExitsWith: .failure) {
            let (t, r, _, _, _, _) = MisuseTests.small()
            _ = t.child(of: r, at: 2)
        }
        await #expect(processExitsWith: .failure) {
            let (t, r, _, _, _, _) = MisuseTests.small()
            _ = t.child(of: r, at: -1)
        }
        await #expect(processExitsWith: .failure) {
            let (t, _, _, _, a11, _) = MisuseTests.small()
            _ = t.child(of: a11, at: 0)
        }
    }

    @Test func exchangeChildrenOutOfRangeTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, r, _, _, _, _) = MisuseTests.small()
            t.exchangeChildren(of: r, at: 0, 2)
        }
    }

    @Test func insertingNextToARootTraps() async {
        await #expect(processExitsWith: .failure) {
            var (t, r, _, _, _, _) = MisuseTests.small()
            let n = t.makeNode(type: Ty.a)
            t.insert(n, before: r)
        }
        await #expect(processExitsWith: .failure) {
            var (t, r, _, _, _, _) = MisuseTests.small()
            let n = t.makeNode(type: Ty.a)
            t.insert(n, after: r)
        }
    }

    @Test func smallerTreeOfANonRootTraps() async {
        await #expect(processExitsWith: .failure) {
            let (t, r, a, _, _, _) = MisuseTests.small()
            _ = t.smallerTree(r, a)
        }
    }
}
