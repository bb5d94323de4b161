// swift-tools-version: 6.1
import PackageDescription

// libFuzzer harnesses for RelativeView, in a package of their own: they link only when built
// with `-sanitize=fuzzer,address` (each main hands its input handler to libFuzzer's
// LLVMFuzzerRunDriver), which the library's own build must never need. Run one with
// `scripts/fuzz.sh TARGET SECONDS` from the repository's root. (SwiftPM renames an
// executable's main for testable executables, so the usual LLVMFuzzerTestOneInput built
// with -parse-as-library does not link; a main of our own that calls the driver does.)
let import_ = [
    Target.Dependency.product(name: "RelativeViewImport", package: "RelativeView"),
    .product(name: "RelativeViewCore", package: "RelativeView"),
    "FuzzSupport",
]
let package = Package(
    name: "RelativeViewFuzz",
    dependencies: [
        .package(name: "RelativeView", path: ".."),
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: [
            "CFuzzerDriver",
            .product(name: "RelativeViewImport", package: "RelativeView"),
            .product(name: "RelativeViewFixtures", package: "RelativeView"),
        ]),
        .executableTarget(name: "fuzz-json", dependencies: import_),
        .executableTarget(name: "fuzz-xml", dependencies: import_),
        .executableTarget(name: "fuzz-html", dependencies: import_),
        .executableTarget(name: "fuzz-names", dependencies: import_),
        .executableTarget(name: "fuzz-snapshot", dependencies: [
            .product(name: "RelativeViewSnapshot", package: "RelativeView"),
            .product(name: "RelativeView", package: "RelativeView"),
            "FuzzSupport",
        ]),
        .executableTarget(name: "fuzz-query", dependencies: [
            .product(name: "RelativeViewQuery", package: "RelativeView"),
            .product(name: "RelativeViewImport", package: "RelativeView"),
            .product(name: "RelativeViewCore", package: "RelativeView"),
            "FuzzSupport",
        ]),
        .executableTarget(name: "fuzz-tree", dependencies: [
            .product(name: "RelativeViewFixtures", package: "RelativeView"),
            "FuzzSupport",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
