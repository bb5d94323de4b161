import RelativeView
import RelativeViewFixtures
import RelativeViewImport
import RelativeViewSnapshot
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
    /// How the tags were chosen for an imported tree without `--tags`.
    var tagsChosen: String? = nil

    /// Type names an imported tree can be grouped by in one run: one per stock subclass.
    static let maximumImportedTypes = StockCatalog.names.count - 1

    /// The tree of `nodes` nodes that `options` describe (`nodes` is ignored for `--input`),
    /// with what importing it took and the imported tree itself.
    static func make(_ options: BenchOptions, nodes: Int, progress: Progress) throws(ImportError) -> (TreeSource, Report.Import?, ViewTree?) {
        guard options.input != nil else {
            let types = options.types ?? ["Button", "Label"]
            return (TreeSource(
                spec: TreeSpec(shape: options.shape, nodes: nodes, seed: options.seed), tags: options.tags ?? [7, 13],
                typeNames: types, typeIndices: types.compactMap(StockCatalog.index(named:)), typeIDs: StockCatalog.typeIDs()), nil, nil)
        }
        let (tree, figures) = try importTree(options, progress: progress)
        guard !tree.isEmpty else { throw ImportError(path: options.inputLabel, message: "the tree has no nodes: there is nothing to measure") }
        return (imported(tree, source: options.inputLabel, options: options), figures, tree)
    }

    /// The spec's tree in the arena core, with its real types.
    func coreTree() -> ViewTree {
        var tree = ViewTree(minimumCapacity: spec.count)
        var ids: [NodeID] = []
        ids.reserveCapacity(spec.count)
        spec.buildCore(into: &tree, ids: &ids, typeIDs: typeIDs)
        tree.compactIndex()
        return tree
    }

    /// The tree of `--input`, and what its import took. Reports progress through `progress`
    /// (bytes parsed of the total) every half second once the import has run a second.
    static func importTree(_ options: BenchOptions, progress: Progress) throws(ImportError) -> (tree: ViewTree, figures: Report.Import) {
        let input = options.input ?? ""
        let clock = ContinuousClock()
        let start = clock.now
        if options.inputFormat == nil && ViewTree.isSnapshot(atPath: input) {
            let tree: ViewTree
            do {
                tree = try ViewTree(contentsOfSnapshot: input, mapped: !options.snapshotRead)
            } catch {
                throw ImportError(path: input, message: "snapshot: byte \(error.offset): \(error.reason)")
            }
            let seconds = nanoseconds(clock.now - start) / 1e9
            let bytes = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? nil
            var figures = Report.Import(
                format: options.snapshotRead ? "snapshot (read)" : "snapshot (mapped)", bytes: bytes, nodes: tree.count, seconds: seconds,
                arenaBytesPerNode: Double(tree.memoryFootprint) / Double(max(1, tree.count)), peakResidentBytes: MemoryProbe.peakResidentBytes())
            figures.readsFileInPlace = tree._borrowsMemory
            return (tree, figures)
        }
        if let given = options.inputFormat, ViewTree.isSnapshot(atPath: input) {
            throw ImportError(path: input, message: "is a snapshot (it starts with the snapshot magic), not \(given.rawValue): give it without --input-format")
        }
        let format = options.inputFormat ?? ImportFormat.detect(path: input)
        var lastNote = start
        let tree = try TreeImporter(content: options.importContent).importTree(contentsOf: input, format: format) { read, total in
            let now = clock.now
            guard now - start > .seconds(1), now - lastNote > .milliseconds(500) else { return }
            lastNote = now
            let of = total.map { " of \(megabytes($0)) (\(fixed(100 * Double(read) / Double(max(1, $0)), 0))%)" } ?? ""
            progress.note("importing \(input): \(megabytes(read))\(of) parsed")
        }
        let seconds = nanoseconds(clock.now - start) / 1e9
        let bytes: Int? = format == .directory ? nil : (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? nil
        var figures = Report.Import(
            format: format.map { "\($0)" } ?? "unknown", bytes: bytes, nodes: tree.count, seconds: seconds,
            arenaBytesPerNode: Double(tree.memoryFootprint) / Double(max(1, tree.count)), peakResidentBytes: MemoryProbe.peakResidentBytes())
        if format != .directory { figures.content = options.importContent.rawValue }
        return (tree, figures)
    }

    /// The depth of the deepest node of a tree, in one pass over its index.
    static func maxDepth(of tree: ViewTree) -> Int {
        tree._maximumDepth()
    }

    /// An imported (or loaded) tree as a spec: its nodes numbered in pre-order, so that a
    /// parent comes before its children whatever the tree's slots are.
    private static func imported(_ tree: ViewTree, source: String, options: BenchOptions) -> TreeSource {
        let registry = TypeRegistry.shared
        let nodes = tree._image().nodes
        let n = nodes.count
        var parents = [Int32](repeating: -1, count: n)
        var tags = [Int](repeating: 0, count: n)
        var typeOfNode: [TypeID] = []
        typeOfNode.reserveCapacity(n)
        var typeCounts: [TypeID: Int] = [:]
        var tagCounts: [Int: Int] = [:]
        for (k, entry) in nodes.enumerated() {
            guard let node = tree.node(atSlot: Int(entry.slot)) else { preconditionFailure("the pre-order names a free slot") }
            parents[k] = entry.parent
            tags[k] = tree.tag(of: node)
            typeOfNode.append(tree.typeID(of: node))
            typeCounts[typeOfNode[k], default: 0] += 1
            if tags[k] != 0 { tagCounts[tags[k], default: 0] += 1 }
        }
        // By default: the two most frequent names below the root, and the two most frequent nonzero tags.
        let byFrequency = typeCounts.sorted { ($0.value, registry.name(of: $1.key)) > ($1.value, registry.name(of: $0.key)) }
        let names = options.types ?? byFrequency.filter { $0.key != typeOfNode[0] || byFrequency.count == 1 }.prefix(2).map { registry.name(of: $0.key) }
        // Without --tags: the two most frequent nonzero tags, or, in a document that has
        // none, tag 0, which every node then has (a grouping that matched nothing would
        // measure nothing).
        let frequent = tagCounts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(2).map(\.key)
        let chosenTags = options.tags ?? (frequent.isEmpty ? [0] : frequent)
        let tagsChosen: String? = options.tags != nil ? nil : frequent.isEmpty
            ? "the document has no nonzero tag: grouping by tag 0, which every node has"
            : "the document's \(frequent.count == 1 ? "only nonzero tag" : "two most frequent nonzero tags")"
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
            typeNames: names, typeIndices: names.indices.map { $0 + 1 }, typeIDs: typeIDs, tagsChosen: tagsChosen)
    }
}
