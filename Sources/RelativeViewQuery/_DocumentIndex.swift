import CColumnMemory
import RelativeViewCore
import RelativeViewEngine
import Synchronization

/// A tree's nodes numbered in document order (a node's **rank**: its place in a pre-order
/// walk of the forest, the first root's first), with what a query engine asks of a rank in
/// O(1): the rank past its subtree (`end`: its descendants are the ranks between), its
/// parent's rank and its type. Derived once per version of a tree (``_DerivedCache``) and
/// shared by every query of that version.
///
/// A tree built by streaming (an import, a loaded snapshot of one) and never moved since
/// has its slots in document order already: the rank of a node is its slot, and the tree's
/// own `parent` and `typeID` columns serve as they are. Where the tour still lies in slot
/// order as well, a node's `end` is read from its span (``end(_:span:)``: a check of the
/// spans' order on two threads, nothing made); else the index is the `end` column alone (4
/// bytes a node), from one pass over the tour. Any other tree gets the rank of each slot,
/// the slot of each rank, and parent and type by rank (20 bytes a node).
///
/// Per type, the ranks of the nodes of that type (``ranks(ofType:types:)``, in document
/// order) are built on the first name test that needs them: a step `descendant::b` over a
/// few context nodes reads only the `b`s inside their subtrees. The first few types asked
/// for get a pass each that collects theirs alone; a query past them, all types' at once
/// (a cold query names one or two types: one pass each, not the build of all types' that
/// writes a rank for every node).
final class _DocumentIndex: Sendable {
    /// Nodes in document order (the live nodes).
    let count: Int
    /// Whether an HTML parser read the document (``ViewTree/isHTMLDocument``): no
    /// namespaces, `id` attributes are ids, CSS names ignore ASCII case.
    let isHTML: Bool
    /// Per rank, the rank after its subtree; `nil` where the spans give it (see
    /// ``end(_:span:)``).
    let end: [Int32]?
    /// `nil` when ranks are slots; else per rank its slot, per slot its rank (-1 for a free
    /// slot), and per rank its parent's rank (-1 for a root) and its type's raw value.
    let order: [Int32]?
    let rank: [Int32]?
    /// (Columns, not arrays: an evaluator reads them through the pointer it takes once, the
    /// tree's own column's where ranks are slots, so that a moved tree's type and parent
    /// reads cost what a fresh one's do.)
    let parentByRank: _Column<Int32>?
    let typeByRank: _Column<Int32>?
    /// Where ranks are not slots: per rank, the first entry of its named attributes (-1 for
    /// none), read in rank order where the slots' own column (by slot) would be read at
    /// random: a moved tree's `item[id^='item1']` waited on each.
    let firstByRank: _Column<Int32>?
    /// The runs' ``_AttributeRuns/stamp`` that ``firstByRank`` was read at: an attribute's
    /// edit changes the runs but not the tree's version (nor this index), and an evaluator
    /// reads the slots' own column where the stamps differ.
    let firstsStamp: UInt64
    /// `nil` when ranks are slots, or when every node's stamp is the same (no slot was ever
    /// reused: ``uniformStamp``); else per rank its node id's stamp, so that an answer's
    /// ids are read in rank order (see ``nodeIDs(_:of:)``).
    let stampByRank: [UInt32]?
    /// The stamp of every node's id, where it is the same for all: an answer's ids then
    /// read only the slot of each rank.
    let uniformStamp: UInt32?
    /// Where ranks are not slots but fall in few runs of consecutive slots (a tree after
    /// moves: each moved subtree keeps its slots, so each move makes a few runs), those runs
    /// (see ``_SlotRuns``): small enough to stay in the cache, where the slot of each rank
    /// is a likely cache miss each; `nil` where there would be more than one in
    /// ``_SlotRuns/limit`` ranks.
    let slotRuns: _SlotRuns?
    /// Built on first use (see ``ranks(ofType:types:)``).
    private let lazyPostings = Mutex<_Postings?>(nil)
    /// Per type's raw value, its nodes; built on first use (see ``typeCounts(types:)``).
    private let lazyTypeCounts = Mutex<_TypeCounts?>(nil)
    /// The ranks of the types asked for before all types' postings were made.
    private let lazyTypeRanks = Mutex<[Int32: [Int32]]>([:])
    /// The ranks of the types a snapshot's reader collected as it checked the types (a
    /// query's names), given to ``init(rankedSlots:isHTML:typeCounts:collected:)``.
    private let collected: [Int32: [Int32]]
    private let lazyNamespaces = Mutex<_Namespaces?>(nil)
    /// The children of the large nodes JSONPath indexed (see ``children(of:_:)``).
    private let lazyChildren = Mutex<[Int32: [Int32]]>([:])
    /// Member names' postings (see ``keyPostings(_:)``), and how often they were asked for.
    private let lazyKeys = Mutex<(asked: Int, made: _KeyPostings?)>((0, nil))

    /// Per member name (a node's `key` attribute), the ranks of the nodes of that name, in
    /// document order: JSONPath's `..name`, and a descendant filter that needs a member,
    /// read only them.
    struct _KeyPostings: Sendable {
        /// Open addressing: a name's hash picks a place, and the first place from it that
        /// holds its number (or -1: no such name).
        let table: [Int32]
        /// Name `i` is `names[nameStart[i] ..< nameStart[i + 1]]`; its ranks are
        /// `ranks[start[i] ..< start[i + 1]]`.
        let nameStart: [Int32]
        let names: [UInt8]
        let start: [Int32]
        let ranks: [Int32]

        static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            return h
        }

        /// The ranks of the members named `name`.
        func ranks(named name: UnsafeBufferPointer<UInt8>) -> Range<Int> {
            let mask = table.count - 1
            var at = Int(truncatingIfNeeded: Self.hash(name)) & mask
            while true {
                let i = Int(table[at])
                if i < 0 { return 0 ..< 0 }
                let (a, b) = (Int(nameStart[i]), Int(nameStart[i + 1]))
                if b - a == name.count, names[a ..< b].elementsEqual(name) { return Int(start[i]) ..< Int(start[i + 1]) }
                at = (at + 1) & mask
            }
        }

        /// The postings of the `count` ranks' names (`key(r)`: nil for a node with none).
        init(count: Int, key: (Int32) -> UnsafeBufferPointer<UInt8>?) {
            var table = [Int32](repeating: -1, count: 1024)
            var nameStart: [Int32] = [0]
            var names: [UInt8] = []
            var ids = [Int32](repeating: -1, count: count)
            var sizes: [Int32] = []
            for r in 0 ..< count {
                guard let name = key(Int32(r)) else { continue }
                var at = Int(truncatingIfNeeded: Self.hash(name)) & (table.count - 1)
                var id: Int32 = -1
                while true {
                    let i = Int(table[at])
                    if i < 0 { break }
                    let (a, b) = (Int(nameStart[i]), Int(nameStart[i + 1]))
                    if b - a == name.count, names[a ..< b].elementsEqual(name) { id = Int32(i); break }
                    at = (at + 1) & (table.count - 1)
                }
                if id < 0 {
                    id = Int32(sizes.count)
                    names += name
                    nameStart.append(Int32(names.count))
                    sizes.append(0)
                    table[at] = id
                    if sizes.count * 2 > table.count {
                        // Twice the places, the names placed anew.
                        table = [Int32](repeating: -1, count: table.count * 2)
                        for j in 0 ..< sizes.count {
                            let text = names[Int(nameStart[j]) ..< Int(nameStart[j + 1])]
                            var p = text.withUnsafeBufferPointer { Int(truncatingIfNeeded: Self.hash($0)) } & (table.count - 1)
                            while table[p] >= 0 { p = (p + 1) & (table.count - 1) }
                            table[p] = Int32(j)
                        }
                    }
                }
                ids[r] = id
                sizes[Int(id)] += 1
            }
            var start = [Int32](repeating: 0, count: sizes.count + 1)
            for i in 0 ..< sizes.count { start[i + 1] = start[i] + sizes[i] }
            var next = start
            var ranks = [Int32](repeating: 0, count: Int(start[sizes.count]))
            for r in 0 ..< count where ids[r] >= 0 {
                let i = Int(ids[r])
                ranks[Int(next[i])] = Int32(r)
                next[i] += 1
            }
            (self.table, self.nameStart, self.names, self.start, self.ranks) = (table, nameStart, names, start, ranks)
        }
    }

    /// The member names' postings, made by `make` on the second time they are asked for in
    /// this version of the tree (nil the first time): a tree asked once scans, a tree asked
    /// again is indexed.
    func keyPostings(_ make: () -> _KeyPostings) -> _KeyPostings? {
        let (asked, made) = lazyKeys.withLock { kept in
            kept.asked += 1
            return (kept.asked, kept.made)
        }
        if let made { return made }
        guard asked >= 2 else { return nil }
        let built = make()
        lazyKeys.withLock { $0.made = built }
        return built
    }

    /// Which elements are in a namespace, for XPath's unprefixed name tests.
    struct _Namespaces: Sendable {
        /// Whether the document declares any namespace (`xmlns`, `xmlns:p`).
        let declared: Bool
        /// Per rank (empty if none is declared): the element is in a namespace.
        let inNamespace: [Bool]
    }

    /// The namespace flags, built on first use by one walk in document order with the
    /// default namespace's scopes.
    func namespaces(_ e: borrowing _XPathEvaluator) -> _Namespaces {
        lazyNamespaces.withLock { kept in
            if let kept { return kept }
            let made = Self.makeNamespaces(e)
            kept = made
            return made
        }
    }

    private static func makeNamespaces(_ e: borrowing _XPathEvaluator) -> _Namespaces {
        // An HTML parser's `xmlns` is an attribute like any other (libxml2's HTML tree).
        if e.index.isHTML { return _Namespaces(declared: false, inNamespace: []) }
        let registry = TypeRegistry.shared
        var kinds: [Int32: (isDefault: Bool, isPrefixed: Bool)] = [:]
        func declaration(_ name: Int32) -> (isDefault: Bool, isPrefixed: Bool) {
            if let k = kinds[name] { return k }
            let text = registry.name(of: TypeID(rawValue: name))
            let k = (text == "xmlns", text.hasPrefix("xmlns:"))
            kinds[name] = k
            return k
        }
        // Whether any attribute is a declaration: none if no type is named as one (no
        // entry read: a cold query of XMark spent 7 ms of CPU hashing the names of its
        // 454,048 entries), else whether an entry has such a name (an entry no run holds
        // any more may say yes: the flags below are then made, and are right all the same).
        let isDeclaration = registry.nameTable { $0 == "xmlns" || $0.hasPrefix("xmlns:") }
        var declared = false
        if isDeclaration.contains(true) {
            for a in 0 ..< e.view.entryCount {
                let name = Int(e.view.name(a))
                if name >= 0 && name < isDeclaration.count && isDeclaration[name] { declared = true; break }
            }
        }
        guard declared else { return _Namespaces(declared: false, inNamespace: []) }
        var flags = [Bool](repeating: false, count: Int(e.count))
        // The default namespace's scopes: where each ends, and whether it names a namespace.
        var scopes: [(end: Int32, inNamespace: Bool)] = []
        var names: [Int32: Bool] = [:]  // whether a type's name has a prefix
        for r in 0 ..< e.count {
            while let last = scopes.last, last.end <= r { scopes.removeLast() }
            let t = e.type(r)
            if t == e.textType || t == e.cdataType || t == e.commentType { continue }
            let prefixed: Bool
            if let known = names[t] {
                prefixed = known
            } else {
                let name = registry.name(of: TypeID(rawValue: t))
                prefixed = name.contains(":") && !name.hasPrefix("?")
                names[t] = prefixed
            }
            for a in e.view.run(e.lookedUpSlot(r)) where declaration(e.view.name(a)).isDefault {
                scopes.append((e.end(r), !e.view.attributeValue(a).isEmpty))
            }
            flags[Int(r)] = prefixed || (scopes.last?.inNamespace ?? false)
        }
        return _Namespaces(declared: true, inNamespace: flags)
    }

    /// The index of a document whose ranks are its slots and whose spans give each end (a
    /// snapshot's columns read in place, checked: `_SnapshotQuerySource`): nothing to make.
    /// `typeCounts`, where its reader counted the types as it checked them: per type's raw
    /// value, its nodes in all and in the first half of the ranks (see ``_TypeCounts``).
    /// `collected`: per type's raw value, its ranks in order, where the reader collected
    /// them as it checked the types (all of that type's nodes: see ``_SnapshotQuerySource``).
    init(rankedSlots count: Int, isHTML: Bool, typeCounts: (total: [Int32], firstHalf: [Int32])? = nil, collected: [Int32: [Int32]] = [:]) {
        (self.count, self.isHTML) = (count, isHTML)
        (end, order, rank, parentByRank, typeByRank, firstByRank, stampByRank, uniformStamp, slotRuns) = (nil, nil, nil, nil, nil, nil, nil, nil, nil)
        firstsStamp = 0
        if let typeCounts {
            precondition(typeCounts.total.count == typeCounts.firstHalf.count, "type counts of two sizes")
            for (t, ranks) in collected {
                precondition(t >= 0 && Int(t) < typeCounts.total.count && Int(typeCounts.total[Int(t)]) == ranks.count, "a type's collected ranks are not as many as its count")
            }
            lazyTypeCounts.withLock { $0 = _TypeCounts(total: typeCounts.total, firstHalf: typeCounts.firstHalf) }
        } else {
            precondition(collected.isEmpty, "collected ranks without type counts")
        }
        self.collected = collected
    }

    init(_ tree: ViewTree) {
        count = tree.count
        isHTML = tree.isHTMLDocument
        collected = [:]
        // A tree whose slots are its ranks (every slot live, each entered in slot order) needs
        // nothing where the tour lies in slot order (each end read from its span), else the
        // `end` column alone, from a walk of the tour that an enter out of order ends, and the
        // general walk below starts afresh.
        if tree.slotCount == tree.count, Self.spansGiveEnds(tree) {
            (end, order, rank, parentByRank, typeByRank, firstByRank, stampByRank, uniformStamp, slotRuns) = (nil, nil, nil, nil, nil, nil, nil, nil, nil)
        firstsStamp = 0
            return
        }
        if tree.slotCount == tree.count, let end = Self.endsInSlotOrder(tree) {
            self.end = end
            (order, rank, parentByRank, typeByRank, firstByRank, stampByRank, uniformStamp, slotRuns) = (nil, nil, nil, nil, nil, nil, nil, nil)
            firstsStamp = 0
            return
        }
        let slots = tree.slotCount
        // Huge pages where the kernel has them, as an import's columns (``_large``): read at
        // random by rank (a name's nodes, an answer's ids), each 4 KB page a TLB miss.
        var end = [Int32]._large(repeating: 0, count: tree.count)
        var order = [Int32]._large(repeating: 0, count: tree.count)
        var rank = [Int32]._large(repeating: -1, count: slots)
        end.withUnsafeMutableBufferPointer { end in
            order.withUnsafeMutableBufferPointer { order in
                rank.withUnsafeMutableBufferPointer { rank in
                    var r: Int32 = 0
                    tree._forEachTokenRun(of: nil) { tokens in
                        for t in tokens {
                            if t >= 0 {
                                order[Int(r)] = t
                                rank[Int(t)] = r
                                r &+= 1
                            } else {
                                end[Int(rank[Int(~t)])] = r
                            }
                        }
                    }
                    precondition(Int(r) == order.count, "the index's tour holds \(r) nodes, the tree \(order.count)")
                }
            }
        }
        self.end = end
        uniformStamp = tree._storage.uniformStamp
        slotRuns = _SlotRuns(order)
        stampByRank = uniformStamp == nil ? tree._storage.stamps(of: order) : nil
        self.order = order
        self.rank = rank
        var parents = _Column<Int32>._large(repeating: -1, count: order.count)
        var types = _Column<Int32>._large(repeating: 0, count: order.count)
        let (anyAttribute, stamp) = tree._withWriterView { ($0.names != nil && $0.first.count > 0, $0.attributeStamp) }
        var firsts = anyAttribute ? _Column<Int32>._large(repeating: -1, count: order.count) : nil
        tree._withWriterView { view in
            for (r, x) in order.enumerated() {
                let p = view.parent[Int(x)]
                parents[r] = p >= 0 ? rank[Int(p)] : -1
                types[r] = view.typeID[Int(x)]
                if Int(x) < view.first.count { firsts?[r] = view.first[Int(x)] }
            }
        }
        parentByRank = parents
        typeByRank = types
        firstByRank = firsts
        firstsStamp = stamp
    }

    /// The end of rank `r`, a slot, from its `span` (the tree's, ``_WriterView/span``),
    /// where the index keeps no `end` column (``spansGiveEnds(_:)``).
    @inline(__always) static func end(_ r: Int32, span s: _TourBlocks.Span) -> Int32 {
        r &+ Int32(truncatingIfNeeded: (s.exit &- s.enter &+ 1) >> 1)
    }

    /// Every rank's end: the index's column, or read from the spans, for tests.
    func ends(of tree: ViewTree) -> [Int32] {
        if let end { return end }
        return tree._withWriterView { view in (0 ..< Int32(count)).map { Self.end($0, span: view.span[Int($0)]) } }
    }

    /// Whether the spans alone give each node's end, and the slots are its ranks: the tour
    /// lies in slot order (``_TourBlocks/liesInSlotOrder(tokens:)``: a loaded snapshot, a
    /// tree just imported), so a position is a place in the tour, and the slots are entered
    /// in slot order, which holds if and only if each slot's enter comes before the next
    /// slot's. A node's subtree then holds `(exit - enter + 1) / 2` nodes (the tokens between
    /// its two are its descendants' two each), and its end is its slot plus that. No token is
    /// read, nothing is written, and the pieces go to both threads.
    ///
    /// - Complexity: O(n), in pieces both threads take.
    static func spansGiveEnds(_ tree: ViewTree) -> Bool {
        let n = tree.count
        let tour = tree._storage.tour
        guard n > 0, tour.liesInSlotOrder(tokens: 2 * n) else { return false }
        // A loaded snapshot's tour check saw the order already (this version's).
        if tree._storage.slotOrderVersion == tree._storage.version { return true }
        return tour.span.withUnsafeBufferPointer { spans -> Bool in
            let from = UInt(bitPattern: spans.baseAddress)
            let piece = 1 << 18
            let share = _WorkShare<Bool>()
            share.post(pieces: (n + piece - 1) / piece) { k in
                let spans = UnsafePointer<_TourBlocks.Span>(bitPattern: from).unsafelyUnwrapped
                // One slot past the piece, for the order of its last slot and the next.
                let (lo, hi) = (k * piece, min(n - 1, (k + 1) * piece))
                var ordered = true
                for x in lo ..< hi { ordered = ordered && spans[x].enter < spans[x &+ 1].enter }
                return ordered
            }
            let side = _SideTask(worthIt: n >= 2 * piece) { share.help() }
            let inOrder = share.finish().allSatisfy { $0 }
            side.wait()
            return inOrder
        }
    }

    /// Per slot the slot after its subtree, if `tree` (every slot live) enters its slots in
    /// slot order; `nil` at the first enter out of order.
    ///
    /// - Complexity: O(n) on one pass over the tour, writing only the result (a loaded
    ///   snapshot's first query pays for 4 bytes a node, not 12).
    static func endsInSlotOrder(_ tree: ViewTree) -> [Int32]? {
        var inOrder = true
        let end = [Int32](unsafeUninitializedCapacity: tree.count) { end, initialized in
            var r: Int32 = 0
            tree._forEachTokenRun(of: nil) { tokens in
                guard inOrder else { return }
                for t in tokens {
                    if t >= 0 {
                        guard t == r else { inOrder = false; return }
                        r &+= 1
                    } else {
                        end[Int(~t)] = r
                    }
                }
            }
            precondition(!inOrder || Int(r) == tree.count, "the index's tour holds \(r) nodes, the tree \(tree.count)")
            initialized = tree.count
        }
        return inOrder ? end : nil
    }

    /// The ids of the nodes at `ranks` in `tree` (this index's tree).
    func nodeIDs(_ ranks: [Int32], of tree: ViewTree) -> [NodeID] {
        if let slotRuns, let uniformStamp {
            // Answers fewer than the runs lie mostly a run apart: a slot read from the order
            // for each (a read of its own, unlike a walk to the next run, which waits on the
            // last) beats the walk; more, and most lie in the run of the answer before.
            guard let order, ranks.count < slotRuns.ranks.count else { return slotRuns.nodeIDs(ranks, stamp: uniformStamp) }
            return tree._storage.nodeIDs(ranks: ranks, order: order, stamp: uniformStamp)
        }
        if let order, let stampByRank { return tree._storage.nodeIDs(ranks: ranks, order: order, stamps: stampByRank) }
        if let order, let uniformStamp { return tree._storage.nodeIDs(ranks: ranks, order: order, stamp: uniformStamp) }
        return tree._storage.nodeIDs(ranks: ranks, order: nil)
    }

    /// The index of `tree`'s current version: the one its storage keeps, or a new one.
    static func of(_ tree: ViewTree) -> _DocumentIndex {
        tree._storage.derived.value(for: tree._storage.version) { _DocumentIndex(tree) }
    }

    /// The children of rank `r` (a node with many: JSONPath's `[i]`, `[-i]` and slices on
    /// a large array), made by `make` on first use and kept for this version of the tree: an
    /// index from the end is then O(1), as in the peers' arrays.
    func children(of r: Int32, _ make: () -> [Int32]) -> [Int32] {
        if let kept = lazyChildren.withLock({ $0[r] }) { return kept }
        let made = make()
        lazyChildren.withLock { $0[r] = made }
        return made
    }

    /// The ranks of the nodes of each type, in document order.
    struct _Postings: Sendable {
        /// Per type's raw value (below `start.count - 1`): its ranks are
        /// `ranks[start[type] ..< start[type + 1]]`.
        let start: [Int32]
        let ranks: [Int32]
    }

    /// The ranks of the nodes of one type, in document order: `ranks[lower ..< upper]`.
    struct _TypeRanks: Sendable {
        let ranks: [Int32]
        let lower: Int
        let upper: Int
        static let none = _TypeRanks(ranks: [], lower: 0, upper: 0)

        /// The first index in `lower ..< upper` whose rank is at least `target` (`upper`
        /// if none): looked for from `hint` on, by steps that double, where the ranks before
        /// `hint` are below `target` (a set in document order asks for the next range a
        /// little further on), else by halves from `lower`.
        ///
        /// - Complexity: O(log d), d the indices between `hint` and the answer (O(log n)
        ///   from `lower`)
        func seek(_ target: Int32, from hint: Int) -> Int {
            var a = min(max(hint, lower), upper)
            if a > lower && ranks[a - 1] >= target { a = lower }
            // ranks[a - 1] < target (or a == lower): double a step until one reaches target.
            var step = 1
            var b = a
            while b < upper && ranks[b] < target {
                a = b + 1
                b = a + step
                step <<= 1
            }
            b = min(b, upper)
            // The answer lies in a ... b.
            while a < b {
                let m = (a + b) / 2
                if ranks[m] < target { a = m + 1 } else { b = m }
            }
            return a
        }
    }

    /// How many types get a pass of their own before the postings of every type are made.
    static let typesScannedApart = 3

    /// The ranks of type `t`'s nodes (from `types`: per rank, its type's raw value): one
    /// pass over `types` that collects them, for each of the first
    /// ``typesScannedApart`` types asked for; then, and for every type after, the postings
    /// of all types, made once (``postings(types:)``).
    ///
    /// - Complexity: O(n) on the first call for a type, O(1) after.
    func ranks(ofType t: Int32, types: UnsafeBufferPointer<Int32>) -> _TypeRanks {
        let countsByHalf = counts(types)
        let counts = countsByHalf.total
        guard t >= 0, Int(t) < counts.count, counts[Int(t)] > 0 else { return .none }
        if let given = collected[t] { return _TypeRanks(ranks: given, lower: 0, upper: given.count) }
        if let all = lazyPostings.withLock({ $0 }) { return Self.slice(all, t) }
        let (kept, scanned) = lazyTypeRanks.withLock { ($0[t], $0.count) }
        if let kept { return _TypeRanks(ranks: kept, lower: 0, upper: kept.count) }
        guard scanned < Self.typesScannedApart else { return Self.slice(postings(types: types), t) }
        let made = Self.collect(t, count: Int(counts[Int(t)]), firstHalf: Int(countsByHalf.firstHalf[Int(t)]), in: types)
        lazyTypeRanks.withLock { $0[t] = made }
        return _TypeRanks(ranks: made, lower: 0, upper: made.count)
    }

    static func slice(_ all: _Postings, _ t: Int32) -> _TypeRanks {
        guard Int(t) + 1 < all.start.count else { return .none }
        return _TypeRanks(ranks: all.ranks, lower: Int(all.start[Int(t)]), upper: Int(all.start[Int(t) + 1]))
    }

    /// Per type's raw value, how many ranks have it (`types`: per rank, its type's raw
    /// value): one pass, over the two halves of a large tree on two threads, made on first
    /// use. It says which types the tree has (a name test's types) and sizes the postings.
    ///
    /// - Complexity: O(n + types) on the first call, O(1) after.
    func typeCounts(types: UnsafeBufferPointer<Int32>) -> [Int32] { counts(types).total }

    private func counts(_ types: UnsafeBufferPointer<Int32>) -> _TypeCounts {
        lazyTypeCounts.withLock { kept in
            if let kept { return kept }
            // Every type a tree holds is registered, so below the registry's count.
            let made = Self.counts(types, bound: TypeRegistry.shared.count)
            kept = made
            return made
        }
    }

    /// Per type's raw value below `bound`, how many ranks of `types` have it: in all, and
    /// in the first half (see ``inHalves(_:_:)``), where the second half's postings start.
    struct _TypeCounts: Sendable {
        let total: [Int32]
        let firstHalf: [Int32]
    }

    /// See ``typeCounts(types:)``; a value outside `0 ..< bound` (no type) is not counted.
    static func counts(_ types: UnsafeBufferPointer<Int32>, bound: Int) -> _TypeCounts {
        let halves = inHalves(types) { _, t in
            var c = [Int32](repeating: 0, count: bound)
            c.withUnsafeMutableBufferPointer { c in
                for x in t where x >= 0 && Int(x) < bound { c[Int(x)] &+= 1 }
            }
            return c
        }
        var total = halves[0]
        if halves.count == 2 { for i in total.indices { total[i] &+= halves[1][i] } }
        return _TypeCounts(total: total, firstHalf: halves[0])
    }

    /// Calls `body` with each half of `types` (a large tree's; else with all of it), the
    /// second on a thread of its own, and gives their answers in order.
    static func inHalves<R: Sendable>(_ types: UnsafeBufferPointer<Int32>,
                                      _ body: @escaping @Sendable (_ half: Int, _ types: UnsafeBufferPointer<Int32>) -> R) -> [R] {
        let n = types.count
        let base = UInt(bitPattern: types.baseAddress)
        let halves = n >= 1 << 20 ? [0 ..< n / 2, n / 2 ..< n] : [0 ..< n]
        let run = { @Sendable (h: Int) -> R in
            let start = UnsafePointer<Int32>(bitPattern: base).map { $0 + halves[h].lowerBound }
            return body(h, UnsafeBufferPointer(start: start, count: halves[h].count))
        }
        guard halves.count == 2 else { return [run(0)] }
        let side = _SideTask { run(1) }
        let first = run(0)
        return [first, side.wait()]
    }

    /// The ranks in `types` of type `t`, of which there are `count`, `firstHalf` of them in
    /// the first half (see ``inHalves(_:_:)``), in order: each half written in place by
    /// CColumnMemory's `rv_collect_type` (eight types to a compare with AVX2), where an
    /// append per match took some 3 ms of each type's scan of XMark's 4.7 M nodes.
    static func collect(_ t: Int32, count: Int, firstHalf: Int, in types: UnsafeBufferPointer<Int32>) -> [Int32] {
        let half = types.count >= 1 << 20 ? types.count / 2 : types.count
        return [Int32](unsafeUninitializedCapacity: count) { out, initialized in
            let base = UInt(bitPattern: out.baseAddress)
            let found = inHalves(types) { h, part in
                let at = h == 0 ? 0 : firstHalf
                let room = h == 0 ? firstHalf : count - firstHalf
                guard let from = part.baseAddress, let out = UnsafeMutablePointer<Int32>(bitPattern: base) else { return 0 }
                return rv_collect_type(from, part.count, t, Int32(h == 0 ? 0 : half), out + at, room)
            }
            precondition(found.count == 1 ? found[0] == count : found[0] == firstHalf && found[1] == count - firstHalf,
                         "a type's nodes are not as many as its count: the columns changed under the index")
            initialized = count
        }
    }

    /// The postings of every type, built on first use from `types` (per rank, its type's
    /// raw value) and their counts (``typeCounts(types:)``): one filling pass, over the two
    /// halves of the ranks on two threads (a large tree's).
    func postings(types: UnsafeBufferPointer<Int32>) -> _Postings {
        let counts = counts(types)
        return lazyPostings.withLock { kept in
            if let kept { return kept }
            let made = Self.makePostings(types, counts: counts)
            kept = made
            return made
        }
    }

    /// See ``postings(types:)``.
    ///
    /// - Complexity: O(n + types)
    static func makePostings(_ types: UnsafeBufferPointer<Int32>, counts: _TypeCounts) -> _Postings {
        let n = types.count
        let bound = counts.total.count
        var start = [Int32](repeating: 0, count: bound + 1)
        for t in 0 ..< bound { start[t + 1] = start[t] + counts.total[t] }
        let half = n >= 1 << 20 ? n / 2 : n
        // Where each half's ranks of a type begin: the first half's at the type's start.
        let firstAt = [Array(start[0 ..< bound]), (0 ..< bound).map { start[$0] + counts.firstHalf[$0] }]
        let total = Int(start[bound])
        let ranks = [Int32](unsafeUninitializedCapacity: total) { ranks, initialized in
            let out = UInt(bitPattern: ranks.baseAddress)
            _ = inHalves(types) { h, t in
                let ranks = UnsafeMutablePointer<Int32>(bitPattern: out)
                var next = firstAt[h]
                next.withUnsafeMutableBufferPointer { next in
                    var r = Int32(h == 0 ? 0 : half)
                    for x in t {
                        if x >= 0 && Int(x) < bound {
                            ranks.unsafelyUnwrapped[Int(next[Int(x)])] = r
                            next[Int(x)] &+= 1
                        }
                        r &+= 1
                    }
                }
                return 0
            }
            initialized = total
        }
        return _Postings(start: start, ranks: ranks)
    }
}

/// The slot of each rank of a tree whose ranks fall in runs of consecutive slots: per run
/// its first rank and that rank's slot, and per block of ``block`` ranks the run its first
/// rank lies in and, where the whole block lies in that run, the slot less the rank. A
/// rank's slot is then one read of a small array (4 bytes a block: a scan in rank order
/// reads each of its cache lines once for 1,024 ranks), or a few where a run starts inside
/// its block, and no search.
struct _SlotRuns: Sendable {
    /// At most one run in this many ranks, or no runs are kept.
    static let limit = 32
    static let blockShift = 6
    static let block = 1 << blockShift
    /// Per run, its first rank and that rank's slot (the first run starts at rank 0).
    let ranks: [Int32]
    let slots: [Int32]
    /// Per block of ranks, the run its first rank lies in.
    let blockRun: [Int32]
    /// Per block of ranks, each rank's slot less the rank where the block lies in one run,
    /// else ``mixed``.
    let blockDelta: [Int32]
    /// A block in which a run starts, past its first rank.
    static let mixed = Int32.min

    /// The runs of consecutive slots in `order` (per rank its slot), or `nil` if there are
    /// more than one in ``limit`` ranks.
    ///
    /// - Complexity: O(order.count)
    init?(_ order: [Int32]) {
        var ranks: [Int32] = []
        var slots: [Int32] = []
        var blockRun: [Int32] = []
        blockRun.reserveCapacity((order.count + Self.block - 1) >> Self.blockShift)
        let most = order.count / Self.limit + 1
        // The slot that would continue the current run.
        var next: Int32 = -1
        for (r, x) in order.enumerated() {
            if x != next {
                guard ranks.count < most else { return nil }
                ranks.append(Int32(r))
                slots.append(x)
            }
            if r & (Self.block - 1) == 0 { blockRun.append(Int32(ranks.count - 1)) }
            next = x &+ 1
        }
        // A block lies in one run if the next run (after the one its first rank lies in)
        // starts at or after the next block.
        let blockDelta = blockRun.indices.map { b -> Int32 in
            let j = Int(blockRun[b])
            guard j + 1 == ranks.count || Int(ranks[j + 1]) >= (b + 1) << Self.blockShift else { return Self.mixed }
            return slots[j] &- ranks[j]
        }
        (self.ranks, self.slots, self.blockRun, self.blockDelta) = (ranks, slots, blockRun, blockDelta)
    }

    /// The slot of rank `r`: from its block's delta, or the run its block starts in or
    /// one after it.
    @inline(__always) func slot(_ r: Int32) -> Int32 {
        let b = Int(r) >> Self.blockShift
        let d = blockDelta[b]
        if d != Self.mixed { return r &+ d }
        return slotInMixedBlock(r)
    }

    /// One run: ranks `low ..< high`, the slot of each the rank plus `delta`.
    struct Run {
        var low: Int32
        var high: Int32
        var delta: Int32
        /// No rank lies in it.
        static let none = Run(low: 0, high: 0, delta: 0)
    }

    /// The index of the run rank `r` (one of the index's) lies in: the last that starts at
    /// or before `r`, found from the run its block's first rank lies in.
    func runIndex(of r: Int32) -> Int {
        precondition(r >= 0 && Int(r) >> Self.blockShift < blockRun.count, "rank \(r) is not one of the index's")
        var j = Int(blockRun[Int(r) >> Self.blockShift])
        while j &+ 1 < ranks.count && ranks[j &+ 1] <= r { j &+= 1 }
        return j
    }

    /// The run rank `r` (one of the index's) lies in.
    func run(of r: Int32) -> Run {
        let j = runIndex(of: r)
        return Run(low: ranks[j], high: j &+ 1 < ranks.count ? ranks[j &+ 1] : .max, delta: slots[j] &- ranks[j])
    }

    /// The ids of the nodes at `ranks`, each with the stamp `stamp`: a walk along the runs
    /// beside the ranks, as a merge, in one loop over the buffers. The run of the rank
    /// before is kept, and a rank in it takes its slot with one comparison (about ten
    /// answers a run for `keyword, emph` after 10^4 moves of XMark); a rank past it walks
    /// on to the run it lies in (`item`: some 1.4 runs an answer); a rank more than a block
    /// past it, or before it, finds its run from its block's (``blockRun``) first. The
    /// former `ranks.map`, with the run kept in the closure's context and a block's delta
    /// read wherever the rank left the run, took 3.6 times the pristine tree's ids (`item`:
    /// 1.62x of the pristine evaluation); with every run found from the block's and the
    /// next two starts compared with no branch (a chain of four dependent reads an answer),
    /// longer still.
    ///
    /// - Complexity: O(ranks.count + the runs walked)
    func nodeIDs(_ ranks: [Int32], stamp: UInt32) -> [NodeID] {
        let runCount = self.ranks.count
        return [NodeID](unsafeUninitializedCapacity: ranks.count) { out, initialized in
            ranks.withUnsafeBufferPointer { answers in
                self.ranks.withUnsafeBufferPointer { starts in
                    slots.withUnsafeBufferPointer { slots in
                        blockRun.withUnsafeBufferPointer { blockRun in
                            // The run kept, the `j`th: ranks `low ..< high`, slot = rank + delta.
                            var j = -1
                            var (low, high, delta): (Int32, Int32, Int32) = (0, 0, 0)
                            for i in 0 ..< answers.count {
                                let r = answers[i]
                                if r < low || r >= high {
                                    let b = Int(r) >> Self.blockShift
                                    precondition(r >= 0 && b < blockRun.count, "rank \(r) is not one of the index's")
                                    if j < 0 || r < low || b > (Int(high) >> Self.blockShift) + 1 { j = Int(blockRun[b]) }
                                    while j &+ 1 < runCount && starts[j &+ 1] <= r { j &+= 1 }
                                    low = starts[j]
                                    high = j &+ 1 < runCount ? starts[j &+ 1] : .max
                                    delta = slots[j] &- low
                                }
                                (out.baseAddress! + i).initialize(to: NodeID(index: r &+ delta, stamp: stamp))
                            }
                        }
                    }
                }
            }
            initialized = ranks.count
        }
    }

    /// The slot of rank `r` in a block where a run starts past its first rank.
    @inline(never) func slotInMixedBlock(_ r: Int32) -> Int32 {
        let j = runIndex(of: r)
        return slots[j] &+ (r &- ranks[j])
    }
}
