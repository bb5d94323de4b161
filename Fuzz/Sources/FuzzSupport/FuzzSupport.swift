import CFuzzerDriver
import RelativeViewCore
import RelativeViewFixtures
import RelativeViewImport
#if canImport(Glibc)
import Glibc
#endif

/// Runs libFuzzer with this process's arguments (its flags, corpus directories, or inputs to
/// replay), calling `handler` with each input; exits with libFuzzer's status.
public func runFuzzer(_ handler: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, handler))
}

/// A fuzzer's input as a random number generator: each draw takes one byte for its top
/// eight bits (so a choice among a few options is that byte's choice) and fills the rest
/// from a SplitMix64 stream, so that rejection sampling never spins. When the bytes run
/// out, `isExhausted` turns true and draws come from the stream alone.
public struct FuzzBytes: RandomNumberGenerator {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var stream: SplitMix64

    /// - Complexity: O(1)
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        stream = SplitMix64(seed: UInt64(bytes.count))
    }

    /// Whether every byte was used.
    ///
    /// - Complexity: O(1)
    public var isExhausted: Bool { index >= bytes.count }

    /// - Complexity: O(1)
    public mutating func next() -> UInt64 {
        guard index < bytes.count else { return stream.next() }
        defer { index += 1 }
        return UInt64(bytes[index]) << 56 | stream.next() >> 8
    }
}

/// Imports `bytes` as `format`; crashes (for libFuzzer to keep the input) when a tree comes
/// back unsound, or when an error of a strict format lacks its line and column.
public func fuzzImport(_ bytes: UnsafeRawBufferPointer, as format: ImportFormat, positionRequired: Bool) {
    do {
        let tree = try TreeImporter().importTree(Array(bytes), format: format, path: "fuzz")
        guard tree.count >= 1 else { fatalError("an import succeeded with an empty tree") }
        tree._checkInvariants()
    } catch {
        guard error.path == "fuzz" else { fatalError("the error names \(error.path), not the input: \(error)") }
        if positionRequired && (error.line == nil || error.column == nil) {
            fatalError("an error without its line and column: \(error)")
        }
    }
}
