import Foundation
import Testing

/// What a report says: which tree, tags and types it measured, rows that found nothing
/// marked as such, times in a person's units, the spread of several runs, and an estimate
/// of what is left in the progress.
@Suite struct ReportContentTests {
    /// The `tree` object of a JSON report.
    static func tree(_ text: String) throws -> [String: Any] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require(report["tree"] as? [String: Any])
    }

    @Test func aGeneratedTreesReportNamesItsShapeTagsAndTypes() throws {
        let run = try BenchRun(["--nodes", "200", "--shape", "wide", "--tags", "3,5", "--types", "Label", "--ops", "groupDescendantsByTags", "--min-time", "1", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let tree = try Self.tree(run.stdout)
        #expect(tree["shape"] as? String == "wide")
        #expect(tree["tags"] as? [Int] == [3, 5])
        #expect(tree["types"] as? [String] == ["Label"])
        let table = try BenchRun(["--nodes", "200", "--shape", "wide", "--tags", "3,5", "--types", "Label", "--ops", "isRelativeAncestor", "--min-time", "1", "--queries", "10"])
        #expect(table.stdout.contains("grouping by tags 3,5 and types Label"), "\(table.stdout)")
    }

    /// A document with no nonzero tag is grouped by tag 0, which every node has, and the
    /// report says so: its groupings by tags find nodes, and give a speed-up.
    @Test func aDocumentWithoutTagsIsGroupedByTagZeroAndSaysSo() throws {
        let path = try temporaryFile("untagged.xml", "<list>" + String(repeating: "<item><name/></item>", count: 100) + "</list>")
        defer { removeTemporaryDirectory(of: path) }
        let run = try BenchRun(["--input", path, "--ops", "groupDescendantsByTags,groupSiblingsByTags", "--min-time", "1", "--queries", "20", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let tree = try Self.tree(run.stdout)
        #expect(tree["shape"] as? String == "imported" && tree["tags"] as? [Int] == [0])
        #expect((tree["tagsChosen"] as? String)?.contains("no nonzero tag: grouping by tag 0") == true, "\(tree)")
        let rows = try jsonRows(run.stdout)
        #expect(rows.count == 4)
        for row in rows {
            #expect(row["status"] as? String == "measured" && row["agree"] as? Bool == true, "\(row)")
            #expect((row["matched"] as? Int ?? 0) > 0 && row["speedup"] as? Double != nil, "\(row)")
        }
        let whole = try #require(rows.first { $0["op"] as? String == "groupDescendantsByTags" })
        #expect(whole["matched"] as? Int == 200, "every node but the root")
    }

    /// Tags no node has: the rows say that nothing matched, with no speed-up, in every format.
    @Test func aGroupingThatMatchedNothingIsMarkedNotReportedAsASpeedup() throws {
        let arguments = ["--nodes", "300", "--tags", "1000,2000", "--ops", "groupDescendantsByTags,groupAncestorsByTags,findFirstAncestorByTags,isRelativeAncestor", "--min-time", "1", "--queries", "20"]
        let json = try BenchRun(arguments + ["--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        for row in try jsonRows(json.stdout) {
            let op = row["op"] as? String ?? ""
            #expect(row["agree"] as? Bool == true, "\(row)")
            if op == "isRelativeAncestor" {
                #expect(row["status"] as? String == "measured" && row["matched"] is NSNull, "\(row)")
            } else {
                #expect(row["status"] as? String == "noMatch" && row["matched"] as? Int == 0 && row["speedup"] is NSNull, "\(row)")
            }
        }
        let table = try BenchRun(arguments)
        #expect(table.stdout.contains("no match"), "\(table.stdout)")
        #expect(table.stdout.contains("nothing matched in the answers to the first 20 queries (tags 1000,2000"), "\(table.stdout)")
        let csv = csvRows(try BenchRun(arguments + ["--format", "csv"]).stdout)
        #expect(csv.filter { $0["status"] == "noMatch" }.count == 6 && csv.allSatisfy { $0["status"] == "noMatch" ? $0["speedup"] == "" : true })
    }

    /// Times in ns, µs, ms or s, never raw nanoseconds; JSON keeps the exact numbers.
    @Test func theTablePrintsTimesInUnits() throws {
        let run = try BenchRun(["--nodes", "2000", "--ops", "build,isRelativeAncestor,groupDescendantsByTags", "--min-time", "1", "--queries", "50"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").filter { $0.hasPrefix("build ") || $0.hasPrefix("isRelativeAncestor ") || $0.hasPrefix("groupDescendantsByTags ") }
        #expect(rows.count == 6, "\(run.stdout)")
        let unit = /\d+(\.\d+)? (ns|µs|ms|s)/
        for row in rows {
            let cells = row.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            // op, layer, nodes, queries, arena, naive, speed-up, agree
            #expect(cells.count == 8, "\(row)")
            #expect(cells.count > 5 && cells[4].wholeMatch(of: unit) != nil && cells[5].wholeMatch(of: unit) != nil, "\(row)")
        }
        let json = try jsonRows(try BenchRun(["--nodes", "2000", "--ops", "isRelativeAncestor", "--min-time", "1", "--queries", "50", "--format", "json"]).stdout)
        #expect(json.allSatisfy { ($0["arenaNsPerOp"] as? Double ?? 0) > 0 })
    }

    /// `--runs 3`: each query row holds its three runs, the medians and the spread.
    @Test func severalRunsGiveTheMedianAndTheSpread() throws {
        let run = try BenchRun(["--nodes", "500", "--ops", "build,isRelativeAncestor,groupSiblingsByTags", "--runs", "3", "--min-time", "1", "--queries", "30", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        for row in try jsonRows(run.stdout) {
            let runs = row["runs"] as? [[String: Any]]
            if row["op"] as? String == "build" {
                #expect(runs == nil, "build runs once")
                continue
            }
            let each = try #require(runs, "\(row)")
            #expect(each.count == 3)
            let arena = each.compactMap { $0["arenaNsPerOp"] as? Double }.sorted()
            #expect(arena.count == 3 && row["arenaNsPerOp"] as? Double == arena[1], "the row's time is the median run's")
            #expect(each.allSatisfy { ($0["speedup"] as? Double ?? 0) > 0 })
        }
        let table = try BenchRun(["--nodes", "500", "--ops", "isRelativeAncestor", "--runs", "3", "--min-time", "1", "--queries", "30"])
        #expect(table.stdout.contains("runs (low-high)") && table.stdout.contains("3: "), "\(table.stdout)")
    }

    /// The progress line estimates what is left once a step is done.
    @Test func theProgressEstimatesWhatIsLeft() throws {
        let run = try BenchRun(["--nodes", "300", "--ops", "isRelativeAncestor,isRelativeSibling", "--min-time", "1", "--queries", "10"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains(/\[\d+\/\d+, about \d+ (s|min) left\]/), "\(run.stderr)")
    }
}
