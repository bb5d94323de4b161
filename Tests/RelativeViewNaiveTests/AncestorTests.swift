import Testing
import RelativeViewNaive

/// Builds a chain `views[0] -> views[1] -> … -> views[count]`, where each view
/// is the only subview of the previous one. The array keeps every view alive
/// (superviews are weak).
private func makeChain(ancestorCount count: Int) -> [NaiveView] {
    var views = [NaiveView()]
    for _ in 0..<count {
        let next = NaiveView()
        views[views.count - 1].addSubview(next)
        views.append(next)
    }
    return views
}

@Suite struct AncestorTests {
    @Test func findFirstAncestorReturnsTheNearestMatch() {
        let root = NaiveView()
        root.tag = 1
        let middle = NaiveView()
        middle.tag = 1
        let leaf = NaiveView()
        root.addSubview(middle)
        middle.addSubview(leaf)

        #expect(leaf.findFirstAncestor(by: [1]) === middle)
        #expect(leaf.findFirstAncestor { $0.tag == 1 } === middle)
        #expect(middle.findFirstAncestor(by: [1]) === root)
        #expect(root.findFirstAncestor(by: [1]) == nil)
    }

    @Test func findFirstAncestorVisitsAncestorsNearestFirstAndStopsAtTheMatch() {
        let chain = makeChain(ancestorCount: 4)  // chain[4] is the leaf
        var visited: [NaiveView] = []
        let found = chain[4].findFirstAncestor { ancestor in
            visited.append(ancestor)
            return ancestor === chain[1]
        }
        #expect(found === chain[1])
        #expect(visited.count == 3)
        #expect(visited[0] === chain[3])
        #expect(visited[1] === chain[2])
        #expect(visited[2] === chain[1])
    }

    @Test func aViewIsNeverItsOwnAncestor() {
        let root = NaiveView()
        let leaf = NaiveView()
        leaf.tag = 5
        root.addSubview(leaf)

        #expect(leaf.findFirstAncestor { $0 === leaf } == nil)
        #expect(leaf.findFirstAncestor(by: [5]) == nil)
        #expect(leaf.findFirstAncestor(by: [NaiveView.self]) === root)
        #expect(!leaf.isRelativeAncestor(of: leaf))
        #expect(!root.isRelativeAncestor(of: root))
        #expect(leaf.groupAncestors(by: [5]).isEmpty)
        #expect(leaf.groupAncestors { $0 === leaf ? "self" : nil }.isEmpty)
    }

    @Test func findFirstAncestorByTypeMatchesTheExactTypeOnly() {
        let root = NaiveView()
        let button = NaiveView.Button()
        let leaf = NaiveView()
        root.addSubview(button)
        button.addSubview(leaf)

        #expect(leaf.findFirstAncestor(by: [NaiveView.Control.self]) == nil)
        #expect(leaf.findFirstAncestor(by: [NaiveView.Button.self]) === button)
        #expect(leaf.findFirstAncestor(by: [NaiveView.Control.self, NaiveView.Button.self]) === button)
        // A plain NaiveView type matches the root only, not the button subclass.
        #expect(leaf.findFirstAncestor(by: [NaiveView.self]) === root)
    }

    @Test func isRelativeAncestorIsTrueOnlyForStrictAncestors() {
        let chain = makeChain(ancestorCount: 3)
        let stranger = NaiveView()

        #expect(chain[0].isRelativeAncestor(of: chain[3]))
        #expect(chain[2].isRelativeAncestor(of: chain[3]))
        #expect(!chain[3].isRelativeAncestor(of: chain[0]))
        #expect(!stranger.isRelativeAncestor(of: chain[3]))
        #expect(!chain[0].isRelativeAncestor(of: stranger))
    }

    @Test func groupAncestorsByTypeUsesTypeNamesAsKeysAndKeepsNearestFirstOrder() {
        let outerScroll = NaiveView.ScrollView()
        let table = NaiveView.TableView()
        let innerScroll = NaiveView.ScrollView()
        let cell = NaiveView.TableViewCell()
        let leaf = NaiveView.Label()
        outerScroll.addSubview(table)
        table.addSubview(innerScroll)
        innerScroll.addSubview(cell)
        cell.addSubview(leaf)

        let groups = leaf.groupAncestors(by: [NaiveView.ScrollView.self, NaiveView.TableViewCell.self])
        #expect(Set(groups.keys) == ["ScrollView", "TableViewCell"])
        let scrolls = groups["ScrollView"] ?? []
        #expect(scrolls.count == 2)
        #expect(scrolls.first === innerScroll)
        #expect(scrolls.last === outerScroll)
        #expect(groups["TableViewCell"]?.count == 1)
        #expect(groups["TableViewCell"]?.first === cell)
        // TableView is a ScrollView subclass but is not matched by ScrollView.self.
        #expect(groups["TableView"] == nil)
    }

    @Test func groupAncestorsByTagKeepsNearestFirstOrder() {
        let chain = makeChain(ancestorCount: 5)
        for (index, view) in chain.enumerated() { view.tag = index % 2 }
        // chain[5] is the leaf; ancestors nearest first: 4, 3, 2, 1, 0.
        let groups = chain[5].groupAncestors(by: [0, 1])
        let evens = groups[0] ?? []
        let odds = groups[1] ?? []
        #expect(evens.count == 3)
        #expect(odds.count == 2)
        for (view, expected) in zip(evens, [chain[4], chain[2], chain[0]]) {
            #expect(view === expected)
        }
        for (view, expected) in zip(odds, [chain[3], chain[1]]) {
            #expect(view === expected)
        }
    }

    @Test func emptyTypeAndTagListsMatchNothing() {
        let chain = makeChain(ancestorCount: 3)
        let leaf = chain[3]
        #expect(leaf.findFirstAncestor(by: [NaiveView.Type]()) == nil)
        #expect(leaf.findFirstAncestor(by: [Int]()) == nil)
        let byType: [String: [NaiveView]] = leaf.groupAncestors(by: [NaiveView.Type]())
        let byTag: [Int: [NaiveView]] = leaf.groupAncestors(by: [Int]())
        #expect(byType.isEmpty)
        #expect(byTag.isEmpty)
    }

    @Test func duplicateTagsDoNotDuplicateResults() {
        let chain = makeChain(ancestorCount: 3)
        chain[0].tag = 7
        chain[2].tag = 7
        let groups = chain[3].groupAncestors(by: [7, 7, 7])
        #expect(groups.count == 1)
        #expect(groups[7]?.count == 2)
        #expect(groups[7]?.first === chain[2])
        #expect(groups[7]?.last === chain[0])

        let typeGroups = chain[3].groupAncestors(by: [NaiveView.self, NaiveView.self])
        #expect(typeGroups["NaiveView"]?.count == 3)
    }

    @Test func groupKeyReturningNilLeavesAnAncestorOut() {
        let chain = makeChain(ancestorCount: 4)
        let groups = chain[4].groupAncestors { ancestor -> String? in
            ancestor === chain[2] ? nil : "kept"
        }
        let kept = groups["kept"] ?? []
        #expect(groups.count == 1)
        #expect(kept.count == 3)
        #expect(!kept.contains { $0 === chain[2] })
        #expect(chain[4].groupAncestors { _ -> Int? in nil }.isEmpty)
    }

    @Test(arguments: [0, 1, 2, 10, 100])
    func chainsOfAncestors(ancestorCount count: Int) {
        let chain = makeChain(ancestorCount: count)
        let leaf = chain[count]

        let groups = leaf.groupAncestors { _ in "all" }
        if count == 0 {
            #expect(groups.isEmpty)
            #expect(leaf.findFirstAncestor { _ in true } == nil)
        } else {
            let all = groups["all"] ?? []
            #expect(all.count == count)
            // Nearest first: chain[count - 1], …, chain[0].
            #expect(all.indices.allSatisfy { all[$0] === chain[count - 1 - $0] })
            #expect(leaf.findFirstAncestor { _ in true } === chain[count - 1])
            #expect(leaf.findFirstAncestor { $0.superview == nil } === chain[0])
            #expect(chain[0].isRelativeAncestor(of: leaf))
            #expect(!leaf.isRelativeAncestor(of: chain[0]))
        }
        #expect(leaf.groupAncestors(by: [NaiveView.self])["NaiveView"]?.count == (count == 0 ? nil : count))
    }
}
