import RelativeViewCore
import RelativeViewFixtures
@testable import RelativeViewSnapshot
import Testing

/// Version 3's checksum as the snapshot format article (RelativeViewSnapshot.docc) defines it, written out here word by word: the
/// loader's (C lanes, with AVX2 or without) must give the same value for every length,
/// across block edges, and any one flipped bit must change it.
@Suite struct ChecksumTests {
    func rotl29(_ x: UInt64) -> UInt64 { x << 29 | x >> 35 }
    func step(_ h: UInt64, _ x: UInt64) -> UInt64 { rotl29((h ^ x) &* 0x9E37_79B9_7F4A_7C15) }
    func mix(_ h: UInt64) -> UInt64 {
        var h = h
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        return h ^ h >> 33
    }

    /// The definition: 1 MiB blocks; in each, 8-byte little-endian words (the last
    /// zero-padded to 64 bytes) to eight lanes, word k to lane k mod 8, `rotl(lane + word,
    /// 29)`; then the block's index, its length and its lanes through `step`, and `mix`;
    /// then the count of blocks and the digests through `step`, and `mix`.
    func reference(_ bytes: [UInt8]) -> UInt64 {
        let block = 1 << 20
        var digests: [UInt64] = []
        for (index, from) in stride(from: 0, to: bytes.count, by: block).enumerated() {
            var chunk = Array(bytes[from ..< min(bytes.count, from + block)])
            let n = chunk.count
            chunk += [UInt8](repeating: 0, count: (64 - n % 64) % 64)
            var lanes: [UInt64] = [0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89,
                                   0x4528_21E6_38D0_1377, 0xBE54_66CF_34E9_0C6C, 0xC0AC_29B7_C97C_50DD, 0x3F84_D5B5_B547_0917]
            for w in 0 ..< chunk.count / 8 {
                let word = (0 ..< 8).reduce(UInt64(0)) { $0 | UInt64(chunk[8 * w + $1]) << (8 * $1) }
                lanes[w % 8] = rotl29(lanes[w % 8] &+ word)
            }
            var h = step(step(0x9216_D5D9_8979_FB1B, UInt64(index)), UInt64(n))
            for lane in lanes { h = step(h, lane) }
            digests.append(mix(h))
        }
        var h = step(0xD1B5_4A32_D192_ED03, UInt64(digests.count))
        for d in digests { h = step(h, d) }
        return mix(h)
    }

    func loaders(_ bytes: [UInt8]) -> (vector: UInt64, scalar: UInt64) {
        bytes.withUnsafeBytes { raw in
            let blocks = SnapshotLayout.checksumBlocks(raw.count)
            let vector = SnapshotLayout.combine((0 ..< blocks).map { SnapshotLayout.blockDigest(raw, index: $0) })
            let scalar = SnapshotLayout.combine((0 ..< blocks).map { SnapshotLayout.blockDigest(raw, index: $0, vector: false) })
            return (vector, scalar)
        }
    }

    @Test func theLoaderComputesTheDefinition() {
        var rng = SplitMix64(seed: 3)
        let block = 1 << 20
        for count in [0, 1, 7, 8, 63, 64, 65, 1000, block - 1, block, block + 1, 2 * block + 100] {
            let bytes = (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            let expected = reference(bytes)
            let (vector, scalar) = loaders(bytes)
            #expect(vector == expected && scalar == expected, "\(count) bytes")
            #expect(bytes.withUnsafeBytes { SnapshotLayout.checksum($0, version: 3) } == expected, "\(count) bytes")
        }
    }

    @Test(.enabled(if: LongTestSwitch.isOn, "long: RELATIVE_VIEW_LONG_TESTS=1 runs it")) func everyFlippedBitOfTwoBlocksChangesIt() {
        var rng = SplitMix64(seed: 4)
        let bytes = (0 ..< (1 << 20) + 200).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
        let whole = loaders(bytes).vector
        // Bits across the first block's words and its edge, and the short second block.
        for byte in Array(0 ..< 200) + Array((1 << 20) - 100 ..< (1 << 20) + 200) {
            for bit in 0 ..< 8 {
                var flipped = bytes
                flipped[byte] ^= 1 << UInt8(bit)
                let (vector, scalar) = loaders(flipped)
                #expect(vector != whole && scalar == vector, "byte \(byte), bit \(bit)")
            }
        }
    }
}
