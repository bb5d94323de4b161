import FuzzSupport
import RelativeViewImport

/// One input: a document imported as XML (see `fuzzImport`), and read again through
/// libxml2 alone, which must agree with the reader's fast path (see `fuzzXMLPathsAgree`).
/// (Exported under libFuzzer's name too, for the case where its own main is the one linked.)
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzImport(UnsafeRawBufferPointer(start: data, count: count), as: .xml, positionRequired: true)
    fuzzWriteBack(UnsafeRawBufferPointer(start: data, count: count), as: .xml)
    fuzzXMLPathsAgree(UnsafeRawBufferPointer(start: data, count: count))
    return 0
}

runFuzzer(fuzzOne)
