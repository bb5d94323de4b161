import CMallocStats
import Foundation

/// Bytes the process has allocated, read around a build to get bytes per node.
///
/// With glibc's allocator this is `mallinfo2()` (heap in use plus mmapped blocks), which
/// counts what was asked for and not pages touched; with another allocator (jemalloc) it
/// falls back to the resident set size from `/proc/self/statm`.
enum MemoryProbe {
    static func allocatedBytes(systemAllocator: Bool) -> Int {
        if systemAllocator {
            let bytes = relative_view_allocated_bytes()
            if bytes >= 0 { return Int(bytes) }
        }
        return residentBytes()
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
