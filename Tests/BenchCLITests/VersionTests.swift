import Foundation
import Testing

/// `relative-view-bench --version` and CHANGELOG.md name the same release, so the two cannot
/// drift apart.
@Suite struct VersionTests {
    /// The package root: this file is Tests/BenchCLITests/VersionTests.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The newest released version in CHANGELOG.md: the first `## [x.y.z] - date` heading
    /// (`## [Unreleased]` is skipped).
    static func latestChangelogVersion() throws -> String {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) where line.hasPrefix("## [") {
            let version = line.dropFirst(4).prefix { $0 != "]" }
            if version.first?.isNumber == true { return String(version) }
        }
        Issue.record("CHANGELOG.md has no released version heading")
        return ""
    }

    @Test func versionIsTheChangelogsLatestRelease() throws {
        let run = try BenchRun(["--version"])
        #expect(run.status == 0)
        let changelog = try Self.latestChangelogVersion()
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == changelog)
    }
}
