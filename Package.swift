// swift-tools-version: 6.1
import PackageDescription

/// Debug builds check the arena's invariants after every mutation (see `ViewTree+Invariants.swift`).
let checkedSettings: [SwiftSetting] = [
    .define("RELATIVE_VIEW_CHECK_INVARIANTS", .when(configuration: .debug)),
]

let package = Package(
    name: "RelativeView",
    products: [
        .library(name: "RelativeView", targets: ["RelativeView"]),
        .library(name: "RelativeViewCore", targets: ["RelativeViewCore"]),
        // The Relativity layout DSL (anchors, -->, distribution, |--|, pixel rounding) on View frames.
        .library(name: "RelativeLayout", targets: ["RelativeLayout"]),
        .library(name: "RelativeViewNaive", targets: ["RelativeViewNaive"]),
        // Snapshots: a ViewTree saved to a checked binary file and loaded back (mapped or read).
        .library(name: "RelativeViewSnapshot", targets: ["RelativeViewSnapshot"]),
        // XML, HTML (libxml2), JSON and directory trees streamed into a ViewTree; separate so
        // that `import RelativeView` never needs libxml2.
        .library(name: "RelativeViewImport", targets: ["RelativeViewImport"]),
        // Seeded trees and the stock-class catalog shared by the CLI, the tests and Benchmarks/.
        .library(name: "RelativeViewFixtures", targets: ["RelativeViewFixtures"]),
        // Questions over a tree: XPath 1.0 (and CSS selectors next), evaluated set at a time
        // over the tree's document order.
        .library(name: "RelativeViewQuery", targets: ["RelativeViewQuery"]),
        .executable(name: "relative-view-bench", targets: ["relative-view-bench"]),
        // The user's tool: converts documents and snapshots (`relative-view convert IN OUT`).
        .executable(name: "relative-view", targets: ["relative-view"]),
    ],
    traits: [
        .trait(name: "Jemalloc", description: "Link jemalloc (apt libjemalloc-dev) into relative-view-bench as its allocator, in release builds."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation` (the DocC catalogs under Sources/*/*.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The machinery under the core, not a product (as swift-collections keeps
        // InternalCollectionsUtilities): columns, the live index's blocks, thread helpers.
        .target(name: "RelativeViewEngine", dependencies: ["CColumnMemory"], swiftSettings: checkedSettings),
        // mremap(2) for the columns, which grow by moving pages rather than copying bytes; a
        // prefetch; a type's ranks collected from a type column with AVX2.
        .target(name: "CColumnMemory"),
        .target(name: "RelativeViewCore", dependencies: ["RelativeViewEngine"], swiftSettings: checkedSettings),
        // A snapshot load's hot loops: the position-local check of a saved tour, the
        // checksum's lanes, the texts' first check, and a cold query's checks of the structure
        // and of the named attributes' runs, each with an AVX2 path (gathers, 64-bit lanes)
        // that Swift's SIMD types do not give.
        .target(name: "CSnapshotKernels"),
        .target(name: "RelativeView", dependencies: ["RelativeViewCore", "RelativeViewSnapshot", "RelativeViewQuery"], swiftSettings: checkedSettings),
        .target(name: "RelativeLayout", dependencies: ["RelativeView"]),
        .target(name: "RelativeViewNaive"),
        .target(name: "RelativeViewSnapshot", dependencies: ["RelativeViewCore", "RelativeViewEngine", "CSnapshotKernels", "CColumnMemory"]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "RelativeViewImport", dependencies: ["RelativeViewCore", "RelativeViewEngine", "CLibXML2", "CByteCount"]),
        .target(name: "CByteCount"),
        .target(name: "RelativeViewQuery", dependencies: ["RelativeViewCore", "RelativeViewEngine", "CColumnMemory"], swiftSettings: checkedSettings),
        // Bytes allocated, for bytes per node in the CLI: glibc's mallinfo2() (which Swift's Glibc
        // module does not export) or jemalloc's statistics. jemalloc's header and library come
        // with the Jemalloc trait in release builds only. Release only, because SwiftPM 6.x
        // enables every trait for the symbol-graph commands (dump-symbol-graph, and so the DocC
        // plugin's generate-documentation), which build in debug: they must not need jemalloc
        // on a machine without libjemalloc-dev. An allocator is only worth measuring in release.
        .target(
            name: "CMallocStats",
            cSettings: [.define("RELATIVE_VIEW_JEMALLOC", .when(configuration: .release, traits: ["Jemalloc"]))],
            linkerSettings: [.linkedLibrary("jemalloc", .when(configuration: .release, traits: ["Jemalloc"]))]
        ),
        .target(name: "RelativeViewFixtures", dependencies: ["RelativeView", "RelativeViewNaive"]),
        // The naive worker's death signal (Linux's prctl(PR_SET_PDEATHSIG), a variadic C call
        // Swift cannot make): the worker dies with the CLI, even when the CLI is killed.
        .target(name: "CParentDeath"),
        .executableTarget(
            name: "relative-view-bench",
            dependencies: [
                "RelativeView",
                "RelativeLayout",
                "RelativeViewNaive",
                "RelativeViewImport",
                "RelativeViewSnapshot",
                "RelativeViewFixtures",
                "CMallocStats",
                "CParentDeath",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "relative-view",
            dependencies: [
                "RelativeViewImport",
                "RelativeViewQuery",
                "RelativeViewSnapshot",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RelativeViewCoreTests", dependencies: ["RelativeViewCore", "RelativeViewEngine", "RelativeViewFixtures", "CColumnMemory"]),
        .testTarget(name: "RelativeViewTests", dependencies: ["RelativeView", "RelativeViewFixtures"]),
        .testTarget(name: "RelativeLayoutTests", dependencies: ["RelativeLayout"]),
        .testTarget(name: "RelativeViewNaiveTests", dependencies: ["RelativeViewNaive"]),
        .testTarget(
            name: "RelativeViewSnapshotTests",
            dependencies: ["RelativeViewSnapshot", "RelativeViewCore", "RelativeViewEngine", "RelativeViewFixtures", "RelativeViewNaive"],
            // A snapshot written by an earlier run, read by RoundTripTests.aSnapshotFromAnotherRun.
            exclude: ["Resources"]
        ),
        .testTarget(name: "RelativeViewImportTests", dependencies: ["RelativeViewImport", "RelativeViewCore", "RelativeViewSnapshot", "RelativeViewFixtures", "CByteCount", "CColumnMemory"]),
        // XPath against libxml2's own (the oracle: the same documents and expressions, the same nodes).
        // CSS against lxml with cssselect (Resources/css-cases.json, from scripts/make-css-cases.py).
        .testTarget(name: "RelativeViewQueryTests", dependencies: ["RelativeViewQuery", "RelativeViewImport", "RelativeViewSnapshot", "RelativeViewCore", "RelativeViewEngine", "RelativeViewFixtures", "CLibXML2"],
                    exclude: ["Resources"]),
        .testTarget(name: "ConformanceTests", dependencies: ["RelativeView", "RelativeViewNaive", "RelativeViewFixtures"]),
        .testTarget(name: "BenchCLITests", dependencies: ["relative-view-bench", "relative-view", "RelativeViewFixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
