import RelativeView
import RelativeViewFixtures
import RelativeViewImport
import Foundation

/// The tree a run measures, generated (`--shape`) or imported (`--input`), as a
/// `TreeSpec` that every implementation builds node for node, with the tags and types
/// its groupings use.
///
/// The facade and the naive core know types only as Swift classes, so on an imported tree
/// each type name grouped by (`--types`, at most 9) stands as one stock class in their
/// trees (`Control` for the first, `Button` for the second...), every other name as the
/// base class. The core keeps the real names. Grouping by a stand-in class does the work
/// grouping by that name would; answers are compared through the stand-in.
struct TreeSource {
    var spec: TreeSpec
    /// The tags grouped by.
    var tags: [Int]
    /// The type names grouped by, as the user gave them.
    var typeNames: [String]
    /// The stock-catalog index standing for each of `typeNames` in every implementation.
    var typeIndices: [Int]
    /// The core type of each stock-catalog index (the real names' for an imported tree).
    var typeIDs: [TypeID]

    /// Type names an imported tree can be grouped by in one run: one per stock subclass.
    static let maximumImportedTypes = StockCatalog.names.count - 1

    /// The tree of `nodes` nodes that `options` describe (`nodes` is ignored for `--input`).
    static func make(_ options: BenchOptions, nodes: Int, progress: Progress) throws(ImportError) -> (TreeSource, Report.Import?) {
        guard let input = options.input else {
            let types = options.types ?? ["Button", "Label"]
            return (TreeSource(
                spec: TreeSpec(shape: options.shape, nodes: nodes, seed: options.seed), tags: options.tags ?? [7, 13],
                typeNames: types, typeIndices: types.compactMap(StockCatalog.index(named:)), typeIDs: StockCatalog.typeIDs()), nil)
        }
        let (tree, figures) = try importTree(options, progress: progress)
        return (imported(tree, source: input, options: options), figures)
    }

    /// The tree of `--input`, and what its import took. Reports progress through `progress`
    /// (bytes parsed of the total) every half second once the import has run a second.
    static func importTree(_ options: BenchOptions, progress: Progress) throws(ImportError) -> (tree: ViewTree, figures: Report.Import) {
        let input = options.input ?? ""
        let format = options.inputFormat ?? ImportFormat.detect(path: input)
        let clock = ContinuousClock()
        let start = clock.now
        var lastNote = start
        let tree = try TreeImporter().importTree(contentsOf: input, format: format) { read, total in
            let now = clock.now
            guard now - start > .seconds(1), now - lastNote > .milliseconds(500) else { return }
            lastNote = now
            let of = total.map { " of \(megabytes($0)) (\(fixed(100 * Double(read) / Double(max(1, $0)), 0))%)" } ?? ""
            progress.note("importing \(input): \(megabytes(read))\(of) parsed")
        }
        let seconds = nanoseconds(clock.now - start) / 1e9
        let bytes: Int? = format == .directory ? nil : (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? nil
        let figures = Report.Import(
            format: format.map { "\($0)" } ?? "unknown", bytes: bytes, nodes: tree.count, seconds: seconds,
            arenaBytesPerNode: Double(tree.memoryFootprint) / Double(max(1, tree.count)), peakResidentBytes: MemoryProbe.peakResidentBytes())
        return (tree, figures)
    }

    /// The depth of the deepest node of an imported tree, in one pass over its slots (which
    /// are pre-order numbers: a parent's slot comes before its children's).
    static func maxDepth(of tree: ViewTree) -> Int {
        var depth = [Int32](repeating: 0, count: tree.slotCount)
        var deepest: Int32 = 0
        for slot in 0 ..< tree.slotCount {
            guard let node = tree.node(atSlot: slot), let parent = tree.parent(of: node) else { continue }
            depth[slot] = depth[Int(parent.index)] + 1
            deepest = max(deepest, depth[slot])
        }
        return Int(deepest)
    }

    /// An imported tree (slots are pre-order numbers: the builder never frees one).
    private static func imported(_ tree: ViewTree, source: String, options: BenchOptions) -> TreeSource {
        let registry = TypeRegistry.shared
        let n = tree.slotCount
        var parents = [Int32](repeating: -1, count: n)
        var tags = [Int](repeating: 0, count: n)
        var typeOfNode: [TypeID] = []
        typeOfNode.reserveCapacity(n)
        var typeCounts: [TypeID: Int] = [:]
        var tagCounts: [Int: Int] = [:]
        for slot in 0 ..< n {
            guard let node = tree.node(atSlot: slot) else { preconditionFailure("an imported tree has no free slots") }
            parents[slot] = tree.parent(of: node).map(\.index) ?? -1
            tags[slot] = tree.tag(of: node)
            typeOfNode.append(tree.typeID(of: node))
            typeCounts[typeOfNode[slot], default: 0] += 1
            if tags[slot] != 0 { tagCounts[tags[slot], default: 0] += 1 }
        }
        // By default: the two most frequent names below the root, and the two most frequent nonzero tags.
        let byFrequency = typeCounts.sorted { ($0.value, registry.name(of: $1.key)) > ($1.value, registry.name(of: $0.key)) }
        let names = options.types ?? byFrequency.filter { $0.key != typeOfNode[0] || byFrequency.count == 1 }.prefix(2).map { registry.name(of: $0.key) }
        let chosenTags = options.tags ?? {
            let frequent = tagCounts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(2).map(\.key)
            return frequent.isEmpty ? [7, 13] : frequent
        }()
        var typeIDs = StockCatalog.typeIDs()
        var standIn: [TypeID: UInt8] = [:]
        for (k, name) in names.enumerated() {
            let id = registry.typeID(named: name)
            typeIDs[k + 1] = id
            standIn[id] = UInt8(k + 1)
        }
        // Names not grouped by stand as the base class; in the core, as a name no document has.
        typeIDs[0] = registry.typeID(named: "(not grouped by)")
        let types = typeOfNode.map { standIn[$0] ?? 0 }
        return TreeSource(
            spec: TreeSpec(parents: parents, tags: tags, types: types, source: source), tags: chosenTags,
            typeNames: names, typeIndices: names.indices.map { $0 + 1 }, typeIDs: typeIDs)
    }
}
