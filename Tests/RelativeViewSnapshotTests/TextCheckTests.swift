import RelativeViewCore
import RelativeViewSnapshot
import RelativeViewFixtures
import Testing

/// The first check of an attribute column's texts (`_attributeTextsAreSound`, four wide or
/// eight narrow starts at a time with AVX2 where the processor has it, else one) must never pass a column that the
/// check that names flaws (`_attributeTextFlaw`) fails, and must pass every sound column of
/// one- and two-byte lengths (texts under 16,384 bytes); at every length of the texts, down
/// to under four bytes, where the vector path's 4-byte reads would pass the end.
@Suite struct TextCheckTests {
    /// Texts of the given lengths, each with its LEB128 length, and their starts.
    func column(_ lengths: [Int]) -> (bytes: [UInt8], starts: [Int]) {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        for length in lengths {
            starts.append(bytes.count)
            var n = length
            repeat {
                bytes.append(UInt8(n & 0x7F) | (n >= 0x80 ? 0x80 : 0))
                n >>= 7
            } while n > 0
            bytes += [UInt8](repeating: 0x61, count: length)
        }
        return (bytes, starts)
    }

    /// The first check's verdicts, with and without AVX2, and the other check's flaw, of
    /// wide starts; with `narrow`, of the same starts as a version 4 snapshot's 4-byte ones
    /// (`UInt32.max` for -1; a start out of their range as `UInt32.max - 1`, which is out of
    /// the bytes' range as well).
    func verdicts(_ starts: [Int], _ bytes: [UInt8], narrow: Bool = false) -> (vector: Bool, scalar: Bool, flaw: (element: Int, reason: String)?) {
        let narrowStarts = starts.map { $0 == -1 ? UInt32.max : UInt32(exactly: $0) ?? UInt32.max - 1 }
        return starts.withUnsafeBufferPointer { wide in
            narrowStarts.withUnsafeBufferPointer { n in
                let s = narrow ? _TextStarts(narrow: n) : _TextStarts(wide)
                return bytes.withUnsafeBufferPointer { b in
                    (ViewTree._attributeTextsAreSound(starts: s, bytes: b),
                     ViewTree._attributeTextsAreSound(starts: s, bytes: b, vector: false),
                     ViewTree._attributeTextFlaw(starts: s, bytes: b))
                }
            }
        }
    }

    @Test(arguments: [false, true])
    func neverPassesAFlawAndPassesSoundShortTexts(narrow: Bool) {
        // Where the processor has AVX2, the first verdict is the vector path's.
        if !_TourCheck.hasVectorPath { print("TextCheckTests: no AVX2 here; both verdicts are the scalar path's") }
        var rng = SplitMix64(seed: narrow ? 12 : 11)
        var flawed = 0
        for trial in 0 ..< 3000 {
            // Up to 20 texts: past the narrow vector loop's eight starts.
            let texts = Int.random(in: 0 ... 20, using: &rng)
            // Mostly short texts; one in eight of 120 to 300 bytes (a two-byte length).
            let (bytes, textStarts) = column((0 ..< texts).map { _ in
                Int.random(in: 0 ..< 8, using: &rng) == 0 ? Int.random(in: 120 ... 300, using: &rng) : Int.random(in: 0 ... 4, using: &rng)
            })
            // Slots with a text, and slots with none, in some order.
            var starts = textStarts + [Int](repeating: -1, count: Int.random(in: 0 ... 5, using: &rng))
            starts.shuffle(using: &rng)
            let sound = verdicts(starts, bytes, narrow: narrow)
            #expect(sound.vector && sound.scalar && sound.flaw == nil, "trial \(trial): a sound column")
            guard !starts.isEmpty else { continue }
            // One start moved: anywhere in or out of the bytes, or to a length byte raised.
            var damaged = starts
            var damagedBytes = bytes
            let k = Int.random(in: 0 ..< damaged.count, using: &rng)
            switch Int.random(in: 0 ..< 3, using: &rng) {
            case 0: damaged[k] = Int.random(in: -3 ... bytes.count + 3, using: &rng)
            // 2^31 and 2^32 - 2: out of a signed 32-bit compare's range, and the largest
            // narrow start short of none.
            case 1: damaged[k] = [Int.min, Int.max, -2, bytes.count, 1 << 31, (1 << 32) - 2][Int.random(in: 0 ..< 6, using: &rng)]
            default:
                if damaged[k] >= 0 && damaged[k] < bytes.count { damagedBytes[damaged[k]] = UInt8.random(in: 0 ... 255, using: &rng) }
            }
            let v = verdicts(damaged, damagedBytes, narrow: narrow)
            #expect(v.vector == v.scalar, "trial \(trial)")
            if v.flaw != nil {
                flawed += 1
                #expect(!v.vector && !v.scalar, "trial \(trial): passed \(damaged) over \(damagedBytes.count) bytes, which has a flaw")
            }
        }
        #expect(flawed > 300)
    }

    /// A text of 128 bytes up to 16,383 has a two-byte length, which the first check reads;
    /// one of 16,384 bytes or more has three, and the first check leaves it to the other,
    /// which passes it. A two-byte length whose second byte is past the end, or whose text
    /// runs one byte past it, fails both.
    @Test(arguments: [false, true])
    func lengthsOfTwoBytesAndMore(narrow: Bool) {
        let (bytes, starts) = column([3, 200, 1, 0, 5, 2, 16383, 2, 2, 2])
        let two = verdicts(starts, bytes, narrow: narrow)
        #expect(two.vector && two.scalar && two.flaw == nil)
        let (longBytes, longStarts) = column([3, 200, 1, 0, 5, 2, 16384, 2, 2, 2])
        let three = verdicts(longStarts, longBytes, narrow: narrow)
        #expect(!three.vector && !three.scalar && three.flaw == nil)
        // The last text's length cut to its first byte, then its text cut by one byte.
        let (lastBytes, lastStarts) = column([2, 2, 2, 2, 2, 2, 2, 2, 200])
        // Its start last (the scalar tail) and first (a vector lane, where there is one).
        for order in [lastStarts, [lastStarts[8]] + lastStarts.prefix(8)] {
            for cut in [lastBytes.count - 200, lastBytes.count - 1] {
                let v = verdicts(order, Array(lastBytes.prefix(cut)), narrow: narrow)
                #expect(!v.vector && !v.scalar && v.flaw != nil, "cut at \(cut)")
            }
        }
    }
}
