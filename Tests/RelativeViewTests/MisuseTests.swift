import Testing
import RelativeView

/// Misuse traps with a precondition (checked in a child process with exit tests).
@Suite struct MisuseTests {
    @Test func addingSelf() async {
        await #expect(processExitsWith: .failure) {
            let v = View()
            v.addSubview(v)
        }
    }

    @Test func trapMessagesAreClear() async throws {
        let selfResult = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let v = View()
            v.addSubview(v)
        }
        let selfMessage = String(decoding: try #require(selfResult).standardErrorContent, as: UTF8.self)
        #expect(selfMessage.contains("subview of itself"), "\(selfMessage)")
        let rangeResult = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let parent = View()
            parent.addSubview(View())
            parent.insertSubview(View(), at: 5)
        }
        let rangeMessage = String(decoding: try #require(rangeResult).standardErrorContent, as: UTF8.self)
        #expect(rangeMessage.contains("out of range"), "\(rangeMessage)")
    }

    @Test func addingSelfWhenInATree() async {
        await #expect(processExitsWith: .failure) {
            let root = View()
            let v = View()
            root.addSubview(v)
            v.addSubview(View())
            v.addSubview(v)
        }
    }

    @Test func addingAParentUnderItsChild() async {
        await #expect(processExitsWith: .failure) {
            let a = View()
            let b = View()
            a.addSubview(b)
            b.addSubview(a)
        }
    }

    @Test func addingAnAncestorUnderADeepDescendant() async {
        await #expect(processExitsWith: .failure) {
            let root = View()
            var last = root
            for _ in 0 ..< 10 {
                let next = View()
                last.addSubview(next)
                last = next
            }
            last.addSubview(root)
        }
    }

    @Test func addingAMiddleAncestorUnderADeepDescendant() async {
        // The ancestor being moved has a superview itself.
        await #expect(processExitsWith: .failure) {
            let root = View()
            var chain = [root]
            for _ in 0 ..< 10 {
                let next = View()
                chain.last!.addSubview(next)
                chain.append(next)
            }
            chain[9].addSubview(chain[3])
        }
    }

    @Test func addingAnAncestorUnderADescendantOnAFreshIndex() async {
        await #expect(processExitsWith: .failure) {
            let a = View(), b = View(), c = View()
            a.addSubview(b)
            b.addSubview(c)
            for _ in 0 ..< 10 { _ = a.isRelativeAncestor(of: c) }  // the index is rebuilt
            c.addSubview(b)
        }
    }

    @Test func insertingAnAncestorUnderItsDescendant() async {
        await #expect(processExitsWith: .failure) {
            let a = View(), b = View()
            a.addSubview(b)
            b.insertSubview(a, at: 0)
        }
    }

    @Test func insertingAnAncestorAboveADescendant() async {
        await #expect(processExitsWith: .failure) {
            let a = View(), b = View(), c = View()
            a.addSubview(b)
            b.addSubview(c)
            b.insertSubview(a, aboveSubview: c)
        }
    }

    @Test func insertingPastTheEnd() async {
        await #expect(processExitsWith: .failure) {
            let parent = View()
            parent.addSubview(View())
            parent.insertSubview(View(), at: 2)
        }
    }

    @Test func insertingIntoALoneViewAtOne() async {
        await #expect(processExitsWith: .failure) {
            View().insertSubview(View(), at: 1)
        }
    }

    @Test func insertingAtANegativeIndex() async {
        await #expect(processExitsWith: .failure) {
            let parent = View()
            parent.addSubview(View())
            parent.insertSubview(View(), at: -1)
        }
    }

    @Test func reinsertingAtTheOldCount() async {
        // The index is counted after the view leaves its old place: 2 is past the end here.
        await #expect(processExitsWith: .failure) {
            let parent = View()
            let child = View()
            parent.addSubview(child)
            parent.addSubview(View())
            parent.insertSubview(child, at: 2)
        }
    }

    @Test func exchangingOutOfRange() async {
        await #expect(processExitsWith: .failure) {
            let parent = View()
            parent.addSubview(View())
            parent.addSubview(View())
            parent.exchangeSubview(at: 0, withSubviewAt: 2)
        }
    }

    @Test func exchangingOutOfRangeFirstIndex() async {
        await #expect(processExitsWith: .failure) {
            let parent = View()
            parent.addSubview(View())
            parent.exchangeSubview(at: 1, withSubviewAt: 0)
        }
    }

    @Test func exchangingANegativeIndex() async {
        await #expect(processExitsWith: .failure) {
            let parent = View()
            parent.addSubview(View())
            parent.exchangeSubview(at: 0, withSubviewAt: -1)
        }
    }

    @Test func exchangingOnALoneView() async {
        await #expect(processExitsWith: .failure) {
            View().exchangeSubview(at: 0, withSubviewAt: 0)
        }
    }

    @Test func exchangingOnALeaf() async {
        await #expect(processExitsWith: .failure) {
            let parent = View(), leaf = View()
            parent.addSubview(leaf)
            leaf.exchangeSubview(at: 0, withSubviewAt: 0)
        }
    }

    @Test func insertingAboveANonSubview() async {
        await #expect(processExitsWith: .failure) {
            let parent = View()
            parent.addSubview(View())
            parent.insertSubview(View(), aboveSubview: View())
        }
    }

    @Test func insertingBelowANonSubview() async {
        await #expect(processExitsWith: .failure) {
            let parent = View()
            parent.addSubview(View())
            parent.insertSubview(View(), belowSubview: View())
        }
    }

    @Test func insertingAboveAGrandchild() async {
        // A subview of a subview is not a subview.
        await #expect(processExitsWith: .failure) {
            let parent = View(), child = View(), grandchild = View()
            parent.addSubview(child)
            child.addSubview(grandchild)
            parent.insertSubview(View(), aboveSubview: grandchild)
        }
    }

    @Test func insertingBelowAViewOfAnotherTree() async {
        await #expect(processExitsWith: .failure) {
            let parent = View(), other = View(), sibling = View()
            parent.addSubview(View())
            other.addSubview(sibling)
            parent.insertSubview(View(), belowSubview: sibling)
        }
    }

    /// The same calls in range do not trap (the exit tests above fail for the right reason).
    @Test func inRangeCallsDoNotTrap() async {
        await #expect(processExitsWith: .success) {
            let parent = View()
            let a = View(), b = View()
            parent.addSubview(a)
            parent.addSubview(b)
            parent.insertSubview(View(), at: 2)
            parent.insertSubview(a, at: 2)
            parent.exchangeSubview(at: 0, withSubviewAt: 2)
            parent.insertSubview(View(), aboveSubview: b)
            parent.insertSubview(View(), belowSubview: a)
            a.addSubview(View())
            parent.addSubview(a)
        }
    }
}
