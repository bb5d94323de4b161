// swift-tools-version: 6.1
import PackageDescription

// The package-benchmark suite of RelativeView, kept in its own package so that the library
// does not depend on the benchmark package. Run it from this folder: `swift package benchmark`.
let package = Package(
    name: "RelativeViewBenchmarks",
    dependencies: [
        // Only the malloc interposer trait: the default traits also pull in a runtime interposer.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "RelativeView", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "RelativeViewBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RelativeView", package: "RelativeView"),
                .product(name: "RelativeViewNaive", package: "RelativeView"),
                .product(name: "RelativeViewFixtures", package: "RelativeView"),
                .product(name: "RelativeViewImport", package: "RelativeView"),
            ],
            path: "Benchmarks/RelativeViewBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
