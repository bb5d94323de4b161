import CColumnMemory
import RelativeViewCore

/// Asks the memory for the attributes of the nodes a loop over a set will test next, in
/// three stages, so that their misses of the caches overlap instead of following each other.
///
/// A set's nodes lie far apart in the slots (XMark's `item`s, one in about 160 nodes), and
/// a test of a node's attributes reads three places in turn, each only once the one before
/// has come: where its entries start (``_WriterView/first``, by slot), the entries' names
/// and value starts, and the value's bytes. Each was a miss, and a loop waited on each in
/// turn. A loop ``push(_:)``es the rank it will test ``distance`` nodes later: that rank's
/// start is asked for now, the entries of the rank pushed half the distance ago (whose
/// start has come) and the first value's bytes of the one pushed a quarter ago.
///
/// On a moved tree the ranks' slots are out of order, so the hardware's own look-ahead,
/// which follows ascending addresses, finds none of them.
struct _AttributesAhead {
    static let distance = 16
    private let runs: _SlotRuns?
    private let slotsByRank: [Int32]?
    private let first: UnsafeBufferPointer<Int32>
    private let names: UnsafePointer<UInt32>?
    private let values: UnsafePointer<Int>?
    private let narrowValues: UnsafePointer<UInt32>?
    private let bytes: UnsafePointer<UInt8>?
    /// The entries: a first entry past them is not read (a snapshot's runs read in place are
    /// checked only as they are read, after the look-ahead: ``_WriterView/runChecker``).
    private let entries: Int
    /// The run of slots of the last rank pushed.
    private var run = _SlotRuns.Run.none
    /// The slots of the last ``distance`` ranks pushed (-1 where none yet).
    private var slots = InlineArray<16, Int32>(repeating: -1)
    private var pushed = 0

    /// `firstsByRank`: the first entries by rank where the index keeps them (then read
    /// there, by rank, not at each rank's slot).
    init(view: _WriterView, runs: _SlotRuns?, slotsByRank: [Int32]?, firstsByRank: UnsafeBufferPointer<Int32>? = nil) {
        (self.runs, self.slotsByRank) = (firstsByRank == nil ? runs : nil, firstsByRank == nil ? slotsByRank : nil)
        (first, names, values, narrowValues, bytes) = (firstsByRank ?? view.first, view.names, view.values, view.narrowValues, view.attributeBytes)
        entries = view.entryCount
    }

    /// The rank a loop will test ``distance`` nodes from now.
    @inline(__always) mutating func push(_ r: Int32) {
        var x = r
        if let runs {
            if r < run.low || r >= run.high { run = runs.run(of: r) }
            x = r &+ run.delta
        } else if let slotsByRank {
            x = slotsByRank[Int(r)]
        }
        let n = first.count
        guard let base = first.baseAddress, let names, values != nil || narrowValues != nil else { return }
        if Int(x) < n { rv_prefetch(base + Int(x)) }
        slots[pushed & 15] = x
        let half = slots[(pushed &- 8) & 15]
        if half >= 0 && Int(half) < n {
            let f = Int(base[Int(half)])
            if f >= 0 && f < entries {
                rv_prefetch(names + f)
                if let narrowValues { rv_prefetch(narrowValues + f) } else { rv_prefetch(values.unsafelyUnwrapped + f) }
            }
        }
        let quarter = slots[(pushed &- 4) & 15]
        if quarter >= 0 && Int(quarter) < n, let bytes {
            let f = Int(base[Int(quarter)])
            if f >= 0 && f < entries { rv_prefetch(bytes + (narrowValues.map { Int($0[f]) } ?? values.unsafelyUnwrapped[f])) }
        }
        pushed &+= 1
    }
}
