import Foundation
import RelativeViewFixtures
import Testing

/// The committed scaling report (`docs/benchmarks.md`, made by `scripts/bench-report.sh`)
/// measures every query of the table: a query added to `RelativeQuery` fails here until the
/// report is made again.
@Suite struct CommittedReportTests {
    /// The report's text, read from the package's `docs/`.
    static func report() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/benchmarks.md"), encoding: .utf8)
    }

    @Test func everyQueryOfTheTableHasItsRowsOnBothLayers() throws {
        let report = try Self.report()
        let rows = Set(report.split(separator: "\n").compactMap { line -> String? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return cells.count >= 2 ? "\(cells[0]) \(cells[1])" : nil
        })
        var missing: [String] = []
        for query in RelativeQuery.allCases {
            for layer in ["core", "facade"] where !rows.contains("\(query.rawValue) \(layer)") {
                missing.append("\(query.rawValue) (\(layer))")
            }
        }
        #expect(missing.isEmpty, "docs/benchmarks.md lacks \(missing.joined(separator: ", ")): run scripts/bench-report.sh")
    }

    @Test func theReportNamesItsMachineCommitAndDate() throws {
        let report = try Self.report()
        #expect(report.contains("Machine: "))
        #expect(report.range(of: #"commit [0-9a-f]{7,}; \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC"#, options: .regularExpression) != nil)
    }
}
