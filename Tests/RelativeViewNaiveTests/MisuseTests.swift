import Testing
import RelativeViewNaive

/// Misuse traps (preconditions), checked in a child process with exit tests.
@Suite struct MisuseTests {
    @Test func addingAViewToItselfTraps() async {
        await #expect(processExitsWith: .failure) {
            let view = NaiveView()
            view.addSubview(view)
        }
    }

    @Test func addingAViewUnderItsChildTraps() async {
        await #expect(processExitsWith: .failure) {
            let root = NaiveView()
            let child = NaiveView()
            root.addSubview(child)
            child.addSubview(root)
        }
    }

    @Test func addingAViewUnderADeepDescendantTraps() async {
        await #expect(processExitsWith: .failure) {
            let root = NaiveView()
            var last = root
            for _ in 0..<10 {
                let next = NaiveView()
                last.addSubview(next)
                last = next
            }
            last.addSubview(root)
        }
    }

    @Test func insertingAViewUnderItsDescendantTraps() async {
        await #expect(processExitsWith: .failure) {
            let root = NaiveView()
            let child = NaiveView()
            root.addSubview(child)
            child.insertSubview(root, at: 0)
        }
    }

    @Test func insertingAViewAboveASiblingUnderItsDescendantTraps() async {
        await #expect(processExitsWith: .failure) {
            let root = NaiveView()
            let child = NaiveView()
            let grandchild = NaiveView()
            root.addSubview(child)
            child.addSubview(grandchild)
            child.insertSubview(root, aboveSubview: grandchild)
        }
    }

    @Test func insertingPastTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            let parent = NaiveView()
            parent.addSubview(NaiveView())
            parent.insertSubview(NaiveView(), at: 2)
        }
    }

    @Test func insertingAtANegativeIndexTraps() async {
        await #expect(processExitsWith: .failure) {
            NaiveView().insertSubview(NaiveView(), at: -1)
        }
    }

    @Test func reinsertingAtTheOldCountTraps() async {
        // The index is checked after the view is removed from its old place.
        await #expect(processExitsWith: .failure) {
            let parent = NaiveView()
            let child = NaiveView()
            parent.addSubview(child)
            parent.addSubview(NaiveView())
            parent.insertSubview(child, at: 2)
        }
    }

    @Test func insertingAboveANonSubviewTraps() async {
        await #expect(processExitsWith: .failure) {
            NaiveView().insertSubview(NaiveView(), aboveSubview: NaiveView())
        }
    }

    @Test func insertingBelowANonSubviewTraps() async {
        await #expect(processExitsWith: .failure) {
            let parent = NaiveView()
            let child = NaiveView()
            let grandchild = NaiveView()
            parent.addSubview(child)
            child.addSubview(grandchild)
            parent.insertSubview(NaiveView(), belowSubview: grandchild)
        }
    }

    @Test func exchangingOutOfRangeTraps() async {
        await #expect(processExitsWith: .failure) {
            let parent = NaiveView()
            parent.addSubview(NaiveView())
            parent.exchangeSubview(at: 0, withSubviewAt: 1)
        }
    }
}
