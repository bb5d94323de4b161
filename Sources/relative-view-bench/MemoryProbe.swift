import CMallocStats
import Foundation

/// The allocator this binary runs on: jemalloc with the `Jemalloc` trait, else the system's.
let allocatorName = String(cString: relative_view_allocator_name())

/// Bytes the process has allocated, read around a build to get bytes per node.
///
/// With glibc's allocator this is `mallinfo2()` (heap in use plus mmapped blocks); with
/// jemalloc, its `stats.allocated`. Both count what was asked for, not pages touched. Where
/// neither answers, it falls back to the resident set size from `/proc/self/statm`.
enum MemoryProbe {
    static func allocatedBytes() -> Int {
        let bytes = relative_view_allocated_bytes()
        if bytes >= 0 { return Int(bytes) }
        return residentBytes()
    }

    /// The most memory the process has had resident so far (`VmHWM` in
    /// `/proc/self/status`), or 0 where the system does not say.
    static func peakResidentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1024
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
