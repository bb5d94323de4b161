import RelativeViewCore
import RelativeViewFixtures
@testable import RelativeViewSnapshot
import Testing

/// The check of the named attributes' runs in a snapshot runs in two pieces of slots, the
/// second on a thread of its own for a large column, chained in slot order. Whatever the
/// split, its verdict must be the whole walk's: the same first flaw, at the same place,
/// in the same words, or none.
@Suite struct RunCheckTests {
    /// Runs laid out as a snapshot writes them (one slot in three without), then damaged
    /// at random: a first entry, a name, a value start or a last-entry mark.
    @Test(arguments: 0 ..< 40)
    func everySplitGivesTheWholeWalksVerdict(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let slots = Int.random(in: 1 ... 60, using: &rng)
        var first: [Int32] = []
        var names: [UInt32] = []
        var valueAt: [UInt32] = []
        let bytes: [UInt8] = [3, 0x61, 0x62, 0x63, 1, 0x78]  // two texts: "abc" at 0, "x" at 4
        let typeCount = 5
        for _ in 0 ..< slots {
            guard Int.random(in: 0 ..< 3, using: &rng) != 0 else {
                first.append(-1)
                continue
            }
            first.append(Int32(names.count))
            let n = Int.random(in: 1 ... 3, using: &rng)
            for k in 0 ..< n {
                names.append(UInt32.random(in: 0 ..< UInt32(typeCount), using: &rng) | (k == n - 1 ? _AttributeRuns.lastBit : 0))
                valueAt.append([0, 4].randomElement(using: &rng)!)
            }
        }
        if seed > 0 {
            // Damage one thing (seed 0 stays sound).
            switch Int.random(in: 0 ..< 5, using: &rng) {
            case 0: first[Int.random(in: 0 ..< slots, using: &rng)] = Int32.random(in: -3 ... Int32(names.count + 2), using: &rng)
            case 1 where !names.isEmpty: names[Int.random(in: 0 ..< names.count, using: &rng)] = UInt32(typeCount + 1)
            case 2 where !valueAt.isEmpty: valueAt[Int.random(in: 0 ..< valueAt.count, using: &rng)] = UInt32.random(in: 1 ... 9, using: &rng)
            case 3 where !names.isEmpty: names[Int.random(in: 0 ..< names.count, using: &rng)] ^= _AttributeRuns.lastBit
            default:
                if !names.isEmpty { names.removeLast(); valueAt.removeLast() }
            }
        }
        // Some slots free (their parent entry at `free` or below), one of them perhaps with
        // a run: a flaw a load reports.
        var parent = [Int32](repeating: 0, count: slots)
        for x in 0 ..< slots where Int.random(in: 0 ..< 8, using: &rng) == 0 && (first[x] == -1 || seed % 3 == 0) {
            parent[x] = _TreeStorage.free
        }
        let anyFree = parent.contains(_TreeStorage.free)
        let places = (first: 1000, names: 5000, values: 9000)
        func verdict(_ splits: [Int]) -> String? {
            first.withUnsafeBufferPointer { f in
                bytes.withUnsafeBufferPointer { b in
                    parent.withUnsafeBufferPointer { p in
                        let bounds = [0] + splits + [slots]
                        let pieces = (0 ..< bounds.count - 1).map { k in
                            SnapshotReader.checkRuns(
                                bounds[k] ..< bounds[k + 1], first: f.baseAddress!, names: names, valueAt: valueAt, namedBytes: b,
                                parent: p.baseAddress, anyFree: anyFree, typeCount: typeCount, places: places)
                        }
                        return SnapshotReader.runsFlaw(pieces, entries: names.count, places: (places.first, places.names))
                            .map { "\($0.place): \($0.reason)" }
                    }
                }
            }
        }
        let whole = verdict([])
        // The walk of every slot in one pass, as the load did it before the split (41a300d),
        // with the same words: the oracle.
        let reference: String? = bytes.withUnsafeBufferPointer { b in
            var next = 0
            for x in 0 ..< slots where first[x] != -1 {
                let place = places.first + 4 * x
                guard first[x] == Int32(next) else {
                    return "\(place): slot \(x)'s named attributes start at entry \(first[x]), not \(next) (runs follow each other in slot order)"
                }
                guard !anyFree || !_TreeStorage.isFree(parent[x]) else { return "\(place): free slot \(x) has named attributes" }
                while true {
                    guard next < names.count else { return "\(place): slot \(x)'s named attributes run past the \(names.count) entries" }
                    let name = names[next] & ~_AttributeRuns.lastBit
                    guard Int(name) < typeCount else {
                        return "\(places.names + 4 * next): named attribute \(next) has name \(name), not in the type table of \(typeCount)"
                    }
                    let v = valueAt[next]
                    guard v != SnapshotLayout.noText, Int(v) < b.count, let (count, from) = _TextColumn.checkedLength(in: b, at: Int(v)),
                          count >= 0, count <= b.count - from else {
                        return "\(places.values + 4 * next): named attribute \(next)'s value at \(v) lies outside the \(b.count) bytes"
                    }
                    let last = names[next] & _AttributeRuns.lastBit != 0
                    next += 1
                    if last { break }
                }
            }
            guard next == names.count else { return "\(places.names + 4 * next): named attribute \(next) belongs to no slot's run" }
            return nil
        }
        #expect(whole == reference)
        if seed == 0 && !anyFree { #expect(whole == nil) }
        for k in 0 ... slots {
            #expect(verdict([k]) == whole, "split at slot \(k) of \(slots)")
        }
        #expect(verdict([slots / 3, 2 * slots / 3]) == whole, "three pieces")
    }
}
