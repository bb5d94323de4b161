import FuzzSupport
import RelativeViewFixtures

// Each input: the bytes choose a sequence of mutations and queries (`CoreVsNaive`, the
// conformance tests' engine), run on the arena core and the naive core; any answer that
// differs, or a broken invariant of the index, crashes, and libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var choices = FuzzBytes(UnsafeRawBufferPointer(start: data, count: count))
    var run = CoreVsNaive(roots: 3, maximumNodes: 200)
    var steps = 0
    while !choices.isExhausted && steps < 1_000 {
        let issues = run.step(using: &choices)
        if !issues.isEmpty { fatalError("step \(steps): \(issues.joined(separator: "; "))") }
        steps += 1
    }
    return 0
}

runFuzzer(fuzzOne)
