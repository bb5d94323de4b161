#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The switch for the tests that take long (chains a million deep, every flipped bit of a
/// file, files of 16 MiB and more, more seeds of the random runs, runs of the CLI that wait
/// for a budget): each has the trait `.enabled(if: LongTestSwitch.isOn, …)` (whole suites
/// of them are named `…LongTests`), and runs only when the environment sets
/// `RELATIVE_VIEW_LONG_TESTS=1`, so that `swift test` stays within a few minutes on two
/// cores. `.ci/run` runs every test with it set.
public enum LongTestSwitch {
    /// The environment variable that turns the long suites on.
    ///
    /// - Complexity: O(1)
    public static let variable = "RELATIVE_VIEW_LONG_TESTS"

    /// Whether the long suites run: the variable is set to `1`.
    ///
    /// - Complexity: O(1)
    public static var isOn: Bool {
        getenv(variable).map { String(cString: $0) == "1" } ?? false
    }
}
