import RelativeViewCore
import RelativeViewFixtures
import RelativeViewImport
@testable import RelativeViewQuery
import Testing

/// JSONPath beyond the compliance suite: errors at their place, the budget, a moved tree,
/// duplicate member names, a query root other than the tree's, trees that are not JSON.
@Suite struct JSONPathTests {
    static func tree(_ json: String) throws -> ViewTree {
        try TreeImporter().importTree(Array(json.utf8), format: .json, path: "t.json")
    }

    func values(_ tree: ViewTree, _ query: String) throws -> [String] {
        try tree.select(JSONPath(query)).map { try tree.string(as: .json, subtree: $0).trimmingSuffix("\n") }
    }

    @Test(arguments: [
        ("", 0, "the query is empty"),
        (" $", 0, "a query starts with '$'"),
        ("$ ", 1, "unexpected ' ' after the query"),
        ("$.", 2, "expected a member name or '*' after '.'"),
        ("$[01]", 2, "no leading zero"),
        ("$[-0]", 2, "'-0' is not an index"),
        ("$[9007199254740992]", 2, "outside ±(2^53 - 1)"),
        ("$['\\uD800']", 3, "a high surrogate must be followed by a low one"),
        ("$[?@.a == 1 == 2]", 12, "expected ',' or ']'"),
        ("$[?@..a == 1]", 3, "a comparison needs a singular query"),
        ("$[?length(@.*) == 1]", 10, "a ValueType argument must be a singular query"),
        ("$[?count(1) == 1]", 9, "a NodesType argument must be a query"),
        ("$[?true]", 3, "a literal alone is not a test"),
        ("$[?nope(@)]", 3, "unknown function 'nope'"),
        ("$[?match(@.a)]", 3, "match() takes 2 arguments, not 1"),
        ("$[?!!@.a]", 4, "'!' twice"),
        ("$[?! !(@.a)]", 5, "'!' twice"),
    ])
    func errorsNameTheirPlace(query: String, offset: Int, words: String) {
        do {
            _ = try JSONPath(query)
            Issue.record("\(query) compiled")
        } catch {
            #expect(error.language == "JSONPath")
            #expect(error.offset == offset && error.message.contains(words), "\(query): \(error)")
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let query = "$[?" + String(repeating: "(", count: 100_000) + "@" + String(repeating: ")", count: 100_000) + "]"
        #expect(throws: QueryError.self) { try JSONPath(query) }
    }

    @Test func duplicateMembersAreEachSelected() throws {
        let t = try Self.tree(#"{"a":1,"b":{"a":2},"a":3}"#)
        #expect(try values(t, "$.a") == ["1", "3"])
        #expect(try values(t, "$..a") == ["1", "3", "2"])  // the root's members first, then b's
        #expect(try values(t, "$[?@.a]") == ["{\"a\":2}"])
    }

    /// Index and slice selectors on arrays longer than the index keeps lists for walk only
    /// the elements they can select when none counts from the end: the same answers as
    /// the slice arithmetic of RFC 9535 on the whole array, on short and long arrays, the
    /// first query and the second.
    @Test(arguments: [3, 64, 65, 200])
    func slicesOfLongArraysSelectWhatTheRFCSays(length: Int) throws {
        let t = try Self.tree("[" + (0 ..< length).map(String.init).joined(separator: ",") + "]")
        let selectors: [(String, [Int])] = [
            ("[100:110]", Array(100 ..< 110)), ("[0]", [0]), ("[64]", [64]), ("[199]", [199]), ("[5::-1]", Array((0 ... 5).reversed())),
            ("[150:3:-40]", [150, 110, 70, 30]), ("[2:9:3]", [2, 5, 8]), ("[:2]", [0, 1]), ("[70, 1, 70]", [70, 1, 70]),
            ("[-1]", [199]), ("[1:-1:90]", [1, 91, 181]), ("[62:]", Array(62 ..< 200)), ("[::-90]", [199, 109, 19]),
        ]
        for _ in 0 ..< 2 {
            for (selector, indices) in selectors {
                // The RFC's answer on the array as long as it is: the indices that exist (a
                // negative index or a bound is read against the length, so those listed above
                // are for length 200 and checked there only).
                let countsFromEnd = selector.contains("-1]") || selector.contains(":-") || selector.hasSuffix(":]") || selector.contains("::-")
                if countsFromEnd, length != 200 { continue }
                let expected = indices.filter { $0 < length }.map(String.init)
                #expect(try values(t, "$" + selector) == expected, "\(selector) of \(length)")
            }
        }
    }

    @Test func descendantsComeInTheRFCsOrder() throws {
        // `..[0]`: each visited node's first element, nodes visited in document order, so an
        // inner array's element comes after its parent's and before a later sibling's.
        let t = try Self.tree(#"[[["x"],"y"],["z"]]"#)
        #expect(try values(t, "$..[0]") == [#"[["x"],"y"]"#, #"["x"]"#, #""x""#, #""z""#])
        // `..a` where a later member's name is met in an earlier member's subtree first.
        let u = try Self.tree(#"{"k":{"a":1},"a":2}"#)
        #expect(try values(u, "$..a") == ["2", "1"])
        #expect(try u.normalizedPaths(of: u.select(JSONPath("$..a"))) == ["$['a']", "$['k']['a']"])
    }

    @Test func theBudgetEndsAQueryThatWouldNot() throws {
        let t = try Self.tree("[" + (0 ..< 1000).map(String.init).joined(separator: ",") + "]")
        #expect(throws: QueryError.self) { try t.select(JSONPath("$..*"), budget: 100) }
        #expect(try t.select(JSONPath("$..*"), budget: 10_000).count == 1000)
    }

    @Test func aQueryRootOtherThanTheTrees() throws {
        let t = try Self.tree(#"{"a":{"b":[1,2]},"b":[3]}"#)
        let a = try t.select(JSONPath("$.a"))[0]
        let inA = try t.select(JSONPath("$..b[*]"), root: a)
        #expect(inA.map { t.value(of: $0) } == ["1", "2"])
        // Paths are from the tree's root still.
        #expect(t.normalizedPaths(of: inA) == ["$['a']['b'][0]", "$['a']['b'][1]"])
    }

    @Test func aMovedTreeAnswersAsTheSameDocumentReadAfresh() throws {
        var t = try TreeImporter().importTree(SampleDocuments.json(values: 3000, seed: 7), format: .json, path: "sample.json")
        // Members move to other objects, elements to other arrays: still a JSON document.
        t._moveRandomSubtrees(300, seed: 11, json: true)
        let fresh = try Self.tree(t.string(as: .json))
        for q in ["$..*", "$..[0]", "$..[-1:0:-2]", "$..[?@.id]", "$..[?length(@) > 2]", "$..[?@ == true]",
                  "$..[?search(@, 'a[b-d]')]", "$[*]..[?count(@.*) > 1 && !@[0]]"] {
            let ours = try t.select(JSONPath(q)), theirs = try fresh.select(JSONPath(q))
            #expect(ours.count == theirs.count, "\(q)")
            #expect(t.normalizedPaths(of: ours) == fresh.normalizedPaths(of: theirs), "\(q)")
        }
    }

    /// Children with large subtrees between them, found past the sixteenth by a scan of the
    /// parents by rank: the same children in the same order, on the tree as imported and
    /// once moved (its parents by rank then come from the index).
    @Test func childrenPastLargeSubtreesAreFoundByTheirParents() throws {
        let items = (0 ..< 2_000).map { #"{"i":\#($0),"pad":[\#((0 ..< 20).map(String.init).joined(separator: ","))]}"# }
        var t = try Self.tree(#"{"list":["# + items.joined(separator: ",") + "]}")
        #expect(try values(t, "$.list[*].i") == (0 ..< 2_000).map(String.init))
        #expect(try values(t, "$.list[?@.i >= 1990].i") == (1_990 ..< 2_000).map(String.init))
        #expect(try values(t, "$.list[*].pad[19]").count == 2_000)
        // Every third item to the list's end, and a pad to another item: the ranks move.
        let list = Array(t.children(of: Array(t.children(of: t.roots[0]))[0]))
        for (k, item) in list.enumerated() where k % 3 == 0 { t.append(item, to: t.parent(of: item)!) }
        t.append(Array(t.children(of: list[1]))[1], to: list[2])
        let fresh = try Self.tree(t.string(as: .json))
        for q in ["$.list[*].i", "$.list[?@.i >= 1990].i", "$.list[*].pad[19]", "$.list[*]"] {
            #expect(try values(t, q) == values(fresh, q), "\(q)")
        }
        #expect(try values(t, "$.list[*].i").prefix(3) == ["1", "2", "4"])
    }

    @Test func theSecondQueryReadsTheNamesPostingsAndAnswersTheSame() throws {
        // A tree's first query scans for a member name; from its second, the names' postings
        // are made and read. Each answer is checked against the scan's, and against one
        // evaluation with no name to narrow it (`..*` then a filter at the end).
        let t = try TreeImporter().importTree(SampleDocuments.json(values: 5000, seed: 3), format: .json, path: "sample.json")
        let u = try TreeImporter().importTree(SampleDocuments.json(values: 5000, seed: 3), format: .json, path: "sample.json")
        for q in ["$..id", "$..[?@.id > 300]", "$..[?@.kind == 'ab' || @.id]", "$..[?@.id && @.a == false]",
                  "$..[?match(@.name, 'a.*')]", "$..[?@.tags[0] <= 500]", "$..[?@.x]", "$[3]..kind",
                  "$..[?count(@.tags[*]) >= 2]", "$..[?count(@.tags[*]) < 1]", "$..[?length(@.name) > 2]", "$..[?value(@.x[*]) == false]"] {
            let first = try t.select(JSONPath(q))
            let again = try t.select(JSONPath(q))
            let third = try t.select(JSONPath(q))
            #expect(first == again && again == third, "\(q)")
            // A fresh tree's first query of each: a scan, with no postings.
            let fresh = try TreeImporter().importTree(SampleDocuments.json(values: 5000, seed: 3), format: .json, path: "sample.json")
            #expect(try fresh.normalizedPaths(of: fresh.select(JSONPath(q))) == t.normalizedPaths(of: third), "\(q)")
        }
        // The same members by a query no postings serve: every value, then its name.
        let all = try u.select(JSONPath("$..*"))
        let named = all.filter { u.attribute(.key, of: $0) == "id" }
        #expect(Set(try t.normalizedPaths(of: t.select(JSONPath("$..id")))) == Set(u.normalizedPaths(of: named)))
        #expect(!named.isEmpty)
    }

    @Test func aTreeThatIsNotJSON() throws {
        // Markup: an element with children is an object (members unnamed: no key), a leaf a
        // string of its value.
        let t = try TreeImporter().importTree(Array("<a><b>x</b><c/></a>".utf8), format: .xml)
        #expect(try t.select(JSONPath("$.*")).map { t.typeName(of: $0) } == ["b", "c"])
        #expect(try t.select(JSONPath("$..[?@ == 'x']")).map { t.kind(of: $0) } == [.text])
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

/// A hostile query nests deeper than any real one: an error at its place, not a stack
/// overflow in a recursive parser or evaluator (found by Fuzz/fuzz-query).
@Suite struct DeepQueryTests {
    @Test func deepXPathIsAnError() {
        for query in [String(repeating: "(", count: 600) + "1" + String(repeating: ")", count: 600),
                      Array(repeating: "1", count: 5000).joined(separator: " + "),
                      String(repeating: "-", count: 5000) + "1",
                      Array(repeating: "//a", count: 5000).joined(separator: " | "),
                      "//a" + String(repeating: "[b", count: 600) + String(repeating: "]", count: 600)] {
            #expect(throws: QueryError.self) { try XPath(query) }
        }
        #expect((try? XPath(String(repeating: "(", count: 50) + "1" + String(repeating: ")", count: 50))) != nil)
        #expect((try? XPath(Array(repeating: "1", count: 200).joined(separator: " + "))) != nil)
    }

    @Test func deepCSSIsAnError() {
        #expect(throws: QueryError.self) { try CSSSelector(String(repeating: ":not(", count: 500) + "a" + String(repeating: ")", count: 500)) }
        #expect((try? CSSSelector(String(repeating: ":not(", count: 20) + "a" + String(repeating: ")", count: 20))) != nil)
    }

    @Test func deepJSONPathIsAnError() {
        #expect(throws: QueryError.self) { try JSONPath("$[?" + String(repeating: "!(", count: 5000) + "@" + String(repeating: ")", count: 5000) + "]") }
        #expect(throws: QueryError.self) { try JSONPath("$" + String(repeating: "[?@", count: 500) + String(repeating: "]", count: 500)) }
        #expect((try? JSONPath("$[?" + String(repeating: "!(", count: 20) + "@" + String(repeating: ")", count: 20) + "]")) != nil)
        #expect((try? JSONPath("$" + String(repeating: "[?@", count: 20) + String(repeating: "]", count: 20))) != nil)
    }
}

/// One compiled query on one tree from several threads at once: the index they share makes
/// its member-name postings and its large arrays' children on first use (a lock each), and
/// every thread gets the answer one thread alone gets. (Run under ThreadSanitizer in CI.)
@Suite struct JSONPathConcurrencyTests {
    @Test func threadsShareOneTreeAndOneQuery() async throws {
        func imported() throws -> ViewTree {
            try TreeImporter().importTree(SampleDocuments.json(values: 20_000, seed: 5), format: .json, path: "sample.json")
        }
        let queries = try ["$..id", "$..[?@.id > 500]", "$[-1:-200:-3]", "$[*][?@.kind]", "$..[?count(@.tags[*]) >= 2]"].map(JSONPath.init)
        let one = try imported()
        let alone = try queries.map { try one.normalizedPaths(of: one.select($0)) }
        // A fresh tree, first asked by four threads at once: they race to make its index,
        // its postings and its children lists.
        let tree = try imported()
        let answers = try await withThrowingTaskGroup(of: [[String]].self) { group in
            for _ in 0 ..< 4 {
                group.addTask { try queries.map { try tree.normalizedPaths(of: tree.select($0)) } + queries.map { try tree.normalizedPaths(of: tree.select($0)) } }
            }
            var all: [[[String]]] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        #expect(answers.count == 4)
        for answer in answers { #expect(answer == alone + alone) }
        #expect(alone.allSatisfy { !$0.isEmpty })
    }

    /// A filter over many children and a child segment over many nodes, shared among
    /// threads: the same nodes in the same order as on one thread, and the budget still
    /// ends a query that needs more.
    @Test func threadsGiveTheSameNodelist() throws {
        let items = (0 ..< 20_000).map { #"{"i":\#($0),"odd":\#($0 % 2 == 1),"pad":[\#($0 % 7),"x"]}"# }
        let t = try JSONPathTests.tree(#"{"list":["# + items.joined(separator: ",") + "]}")
        for q in ["$.list[?@.i > 100 && @.odd == true].i", "$.list[*].i", "$.list[*].*", "$.list[*].pad[0]", "$.list[?@.pad[0] == 3]",
                  "$.list[*][?@ == 'x']", "$.list[?search(@.pad[1], '^x')]"] {
            let one = try t.select(JSONPath(q))
            for threads in [2, 3] {
                #expect(try t.select(JSONPath(q), threads: threads) == one, "\(q) on \(threads) threads")
            }
        }
        #expect(try t.select(JSONPath("$.list[?@.odd == true].i"), threads: 2).count == 10_000)
        #expect(try t.select(JSONPath("$.list[?search(@.pad[1], '^x')]"), threads: 2).count == 20_000)
        #expect(throws: QueryError.self) { try t.select(JSONPath("$.list[*].*"), budget: 50_000, threads: 2) }
        #expect(throws: QueryError.self) { try t.select(JSONPath("$.list[?@.i > 0]"), budget: 50_000, threads: 2) }
    }
}

/// `match()` and `search()` look for what every match must hold (a run of plain characters,
/// a prefix) before Swift's `Regex` runs: a filter, never a different answer. Checked
/// against `Regex` alone on generated patterns and strings.
@Suite struct IRegexpPrefilterTests {
    @Test func thePrefilterNeverRejectsAMatch() throws {
        var rng = SplitMix64(seed: 9)
        let atoms = ["a", "b", "c", "ab", "\\.", ".", "[ab]", "(ab|c)", "(a)", "\\n", "é", "^", "$"]
        let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{0,1}"]
        var checked = 0, rejected = 0
        for _ in 0 ..< 400 {
            var pattern = ""
            for _ in 0 ..< Int.random(in: 1 ... 5, using: &rng) {
                pattern += atoms[Int.random(in: 0 ..< atoms.count, using: &rng)] + quantifiers[Int.random(in: 0 ..< quantifiers.count, using: &rng)]
            }
            if Int.random(in: 0 ..< 5, using: &rng) == 0 { pattern += "|" + atoms[Int.random(in: 0 ..< atoms.count, using: &rng)] }
            for whole in [true, false] {
                guard let p = _IRegexp(pattern, whole: whole), let regex = _JSONPathEvaluator.compile(p) else { continue }
                for _ in 0 ..< 20 {
                    let subject = String((0 ..< Int.random(in: 0 ... 6, using: &rng)).map { _ in "abc.\né".randomElement(using: &rng)! })
                    let matches = whole ? subject.wholeMatch(of: regex) != nil : subject.contains(regex)
                    let may = Array(subject.utf8).withUnsafeBufferPointer { p.mayMatch($0) }
                    #expect(may || !matches, "\(pattern) on \(subject.debugDescription): rejected a match")
                    checked += 1
                    if !may { rejected += 1 }
                }
            }
        }
        #expect(checked > 5000 && rejected > 500, "\(checked) checked, \(rejected) rejected")
        #expect(_IRegexp("post[0-4]\\.com", whole: false)?.required == Array("post".utf8))
        #expect(_IRegexp("A[a-z]+ B[a-z]+", whole: true)?.prefix == Array("A".utf8))
        #expect(_IRegexp("(ab)c", whole: true)?.prefix == [])
        #expect(_IRegexp("ab|cd", whole: true)?.required == [])
    }
}

/// The byte automaton that answers `match()` and `search()` on subjects of ASCII, checked
/// against Swift's `Regex` alone on generated patterns and strings: every answer it gives
/// is `Regex`'s.
@Suite struct ByteAutomatonTests {
    @Test func itAnswersAsRegexDoes() throws {
        var rng = SplitMix64(seed: 11)
        let atoms = ["a", "b", "c", "\\.", ".", "[ab]", "[^a]", "[a-c]", "[-b]", "[b-]", "\\n", "\\$", "\\\\", "\\^",
                     "[\\]a]", "[^\\n]", "é", "(a)", "a|b"]
        let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{0,1}", "{1,3}", "{2,}", "{0}"]
        var answered = 0, matched = 0, declined = 0
        for _ in 0 ..< 1_500 {
            var pattern = Int.random(in: 0 ..< 6, using: &rng) == 0 ? "^" : ""
            for _ in 0 ..< Int.random(in: 1 ... 5, using: &rng) {
                pattern += atoms[Int.random(in: 0 ..< atoms.count, using: &rng)] + quantifiers[Int.random(in: 0 ..< quantifiers.count, using: &rng)]
            }
            if Int.random(in: 0 ..< 6, using: &rng) == 0 { pattern += "$" }
            for whole in [true, false] {
                guard let p = _IRegexp(pattern, whole: whole), let regex = _JSONPathEvaluator.compile(p) else { continue }
                guard let automaton = p.automaton else { declined += 1; continue }
                for _ in 0 ..< 24 {
                    let subject = String((0 ..< Int.random(in: 0 ... 8, using: &rng)).map { _ in "abc.\n$\\^]-é".randomElement(using: &rng)! })
                    let expected = whole ? subject.wholeMatch(of: regex) != nil : subject.contains(regex)
                    let answer = Array(subject.utf8).withUnsafeBufferPointer { automaton.matches($0, whole: whole) }
                    if let answer {
                        #expect(answer == expected, "\(pattern) (\(whole ? "match" : "search")) on \(subject.debugDescription): \(answer), Regex says \(expected)")
                        answered += 1
                        if answer { matched += 1 }
                    } else {
                        #expect(subject.utf8.contains { $0 >= 0x80 }, "declined a subject of ASCII")
                    }
                }
            }
        }
        #expect(answered > 20_000 && matched > 3_000 && declined > 300, "\(answered) answered, \(matched) matched, \(declined) patterns declined")
        #expect(_IRegexp("post[0-4]\\.com", whole: false)?.automaton != nil)
        #expect(_IRegexp("A[a-z]+ B[a-z]+", whole: true)?.automaton != nil)
        #expect(_IRegexp("(ab)c", whole: true)?.automaton == nil)
        #expect(_IRegexp("a{64}", whole: true)?.automaton == nil)
        #expect(_IRegexp("\\p{Lu}", whole: true)?.automaton == nil)
    }
}
