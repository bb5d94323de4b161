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
        .library(name: "RelativeViewNaive", targets: ["RelativeViewNaive"]),
        // Seeded trees and the stock-class catalog shared by the CLI, the tests and Benchmarks/.
        .library(name: "RelativeViewFixtures", targets: ["RelativeViewFixtures"]),
        .executable(name: "relative-view-bench", targets: ["relative-view-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(name: "RelativeViewCore", swiftSettings: checkedSettings),
        .target(name: "RelativeView", dependencies: ["RelativeViewCore"], swiftSettings: checkedSettings),
        .target(name: "RelativeViewNaive"),
        // glibc's mallinfo2(), which Swift's Glibc module does not export: bytes per node in the CLI.
        .target(name: "CMallocStats"),
        .target(name: "RelativeViewFixtures", dependencies: ["RelativeView", "RelativeViewNaive"]),
        .executableTarget(
            name: "relative-view-bench",
            dependencies: [
                "RelativeView",
                "RelativeViewNaive",
                "RelativeViewFixtures",
                "CMallocStats",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RelativeViewCoreTests", dependencies: ["RelativeViewCore", "RelativeViewFixtures"]),
        .testTarget(name: "RelativeViewTests", dependencies: ["RelativeView", "RelativeViewFixtures"]),
        .testTarget(name: "RelativeViewNaiveTests", dependencies: ["RelativeViewNaive"]),
        .testTarget(name: "ConformanceTests", dependencies: ["RelativeView", "RelativeViewNaive", "RelativeViewFixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
