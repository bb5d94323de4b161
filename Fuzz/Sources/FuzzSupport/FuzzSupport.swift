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
        let tree = try TreeImporter(content: .skeleton).importTree(Array(bytes), format: format, path: "fuzz")
        guard tree.count >= 1 else { fatalError("an import succeeded with an empty tree") }
        tree._checkInvariants()
    } catch {
        guard error.path == "fuzz" else { fatalError("the error names \(error.path), not the input: \(error)") }
        if positionRequired && (error.line == nil || error.column == nil) {
            fatalError("an error without its line and column: \(error)")
        }
    }
}

/// Imports `bytes` whole as `format` and writes the tree back out; crashes when the XML
/// written is not XML (the import's own XML reader rejects it: the writer must refuse
/// what XML cannot hold, with an `ExportError`, rather than write it), or when JSON read
/// whole and written as JSON does not read back to the same values (types, member names,
/// values as written, in order).
public func fuzzWriteBack(_ bytes: UnsafeRawBufferPointer, as format: ImportFormat) {
    guard let tree = try? TreeImporter().importTree(Array(bytes), format: format, path: "fuzz") else { return }
    if let xml = try? tree.bytes(as: .xml) {
        do {
            _ = try TreeImporter().importTree(xml, format: .xml, path: "written")
        } catch {
            fatalError("the XML written of a tree read as \(format) is not XML: \(error)\n\(String(decoding: xml.prefix(2000), as: UTF8.self))")
        }
    }
    guard format == .json else { return }
    func values(_ t: ViewTree) -> [String] { nodeLines(t) { x in t.attribute(.key, of: x) ?? "-" } }
    guard let json = try? tree.bytes(as: .json) else { fatalError("a tree read as JSON could not be written as JSON") }
    guard let again = try? TreeImporter().importTree(json, format: .json, path: "written") else {
        fatalError("the JSON written of a JSON document does not read back:\n\(String(decoding: json.prefix(2000), as: UTF8.self))")
    }
    if values(again) != values(tree) { fatalError("the JSON written of a JSON document reads back to other values") }
}

/// Reads `bytes` as XML twice, through the reader's own scanner first and through libxml2
/// alone, keeping the skeleton and then the whole document; crashes when the two disagree:
/// one accepts and the other rejects, or the trees differ in a parent, a type, a tag, an
/// `id` or a `class`, a named attribute or a value. (Both reject with the same error by
/// construction: the fast path reports none of its own.)
public func fuzzXMLPathsAgree(_ bytes: UnsafeRawBufferPointer) {
    func read(fastPath: Bool, content: ImportContent) -> [String]? {
        var builder = ViewTreeBuilder()
        do {
            try MarkupTreeReader(fastPath: fastPath, content: content).read(Array(bytes), path: "fuzz", dialect: .xml, into: &builder)
        } catch {
            return nil
        }
        let tree = builder.finish()
        return nodeLines(tree) { x in
            let named = tree.namedAttributes(of: x).map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            return "\(tree.tag(of: x)) \(tree.attribute(.id, of: x) ?? "-") \(tree.attribute(.className, of: x) ?? "-") \(named)"
        }
    }
    for content in ImportContent.allCases {
        let fast = read(fastPath: true, content: content)
        let libxml2 = read(fastPath: false, content: content)
        if fast != libxml2 {
            fatalError("the fast path and libxml2 disagree (\(content)): \(fast.map { "\($0.count) nodes" } ?? "rejected") against \(libxml2.map { "\($0.count) nodes" } ?? "rejected")")
        }
    }
}

/// One line per slot of `tree`, for comparing two trees: "free" for a free slot, else the
/// node's parent slot, its type's name, `attributes(node)` and its value.
private func nodeLines(_ tree: ViewTree, _ attributes: (NodeID) -> String) -> [String] {
    (0 ..< tree.slotCount).map { slot in
        guard let x = tree.node(atSlot: slot) else { return "free" }
        return "\(tree.parent(of: x)?.index ?? -1) \(TypeRegistry.shared.name(of: tree.typeID(of: x))) \(attributes(x)) \(tree.value(of: x) ?? "-")"
    }
}
