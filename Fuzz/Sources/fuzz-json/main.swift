import FuzzSupport
import RelativeViewImport

/// One input: a document imported as JSON; see `fuzzImport`. (Exported under libFuzzer's
/// name too, for the case where its own main is the one linked.)
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzImport(UnsafeRawBufferPointer(start: data, count: count), as: .json, positionRequired: true)
    fuzzWriteBack(UnsafeRawBufferPointer(start: data, count: count), as: .json)
    return 0
}

runFuzzer(fuzzOne)
