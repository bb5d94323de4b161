#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelativeViewCore

// MARK: Writing

extension ViewTree {
    /// The tree as a snapshot: its columns, its child order, its types by name, its wide
    /// tags, geometry and attributes, in the documented little-endian format, version 1,
    /// ending with a checksum. `init(snapshot:)` reads it back with the same node ids.
    ///
    /// A tree of n slots with no geometry or attributes takes 20n bytes (16 per live node,
    /// 4 per free slot, 4 per slot) plus the header, its type names and 8 bytes of checksum.
    ///
    /// - Complexity: O(n)
    public func snapshot() -> [UInt8] {
        var image = _image()
        let slots = image.slotCount

        // The types of the live nodes, as a table of names: the nodes hold indices into it.
        var fileIndex = [Int32](repeating: -1, count: TypeRegistry.shared.count)
        var used: [Int32] = []
        for k in image.nodes.indices {
            let raw = Int(image.nodes[k].type)
            if fileIndex[raw] < 0 {
                fileIndex[raw] = Int32(used.count)
                used.append(Int32(raw))
            }
            image.nodes[k].type = fileIndex[raw]
        }
        let entries = TypeRegistry.shared.namesAndKinds(ofRawValues: used)
        var names: [UInt8] = []
        var typeEntries: [UInt32] = []
        for entry in entries {
            names.append(contentsOf: entry.name.utf8)
            typeEntries += [UInt32(names.count), entry.isClass ? 1 : 0]
        }

        var counts = SnapshotLayout.Counts()
        counts.slots = UInt64(slots)
        counts.live = UInt64(image.nodes.count)
        counts.free = UInt64(image.free.count)
        counts.types = UInt64(entries.count)
        counts.typeNameBytes = UInt64(names.count)
        counts.wideTags = UInt64(image.wideTags.count)
        counts.geometry = UInt64(image.frameOrigin.count)
        for (a, column) in image.attributes.enumerated() {
            counts.attributeStarts[a] = UInt64(column.start.count)
            counts.attributeBytes[a] = UInt64(column.start.isEmpty ? 0 : column.bytes.count)
        }
        guard let (sections, fileSize) = counts.layout() else { preconditionFailure("a tree too large for a snapshot") }
        var bytes = [UInt8](repeating: 0, count: Int(fileSize))
        bytes.withUnsafeMutableBytes { raw in
            let out = SnapshotWriter(raw: raw)
            for (k, byte) in SnapshotLayout.magic.enumerated() { raw[k] = byte }
            typealias F = SnapshotLayout.Field
            out.store(SnapshotLayout.version, at: F.version)
            out.store(SnapshotLayout.byteOrderMark, at: F.byteOrder)
            out.store(UInt32(SnapshotLayout.headerSize), at: F.headerSize)
            out.store(UInt32(0), at: F.flags)
            out.store(fileSize, at: F.fileSize)
            out.store(counts.slots, at: F.slotCount)
            out.store(counts.live, at: F.liveCount)
            out.store(counts.free, at: F.freeCount)
            out.store(counts.types, at: F.typeCount)
            out.store(counts.typeNameBytes, at: F.typeNameBytes)
            out.store(counts.wideTags, at: F.wideTagCount)
            out.store(counts.geometry, at: F.geometryCount)
            for a in 0 ..< 3 {
                out.store(counts.attributeStarts[a], at: F.attributeStarts + 8 * a)
                out.store(counts.attributeBytes[a], at: F.attributeBytes + 8 * a)
            }
            func at(_ section: SnapshotLayout.Section) -> Int { Int(sections[section.rawValue].lowerBound) }
            out.storeColumn(image.generation, at: at(.generation))
            out.storeNodes(image.nodes, at: at(.nodes))
            out.storeColumn(image.free, at: at(.free))
            for (k, entry) in image.wideTags.enumerated() {
                out.store(Int64(entry.slot), at: at(.wideTags) + 16 * k)
                out.store(Int64(entry.tag), at: at(.wideTags) + 16 * k + 8)
            }
            out.storeColumn(typeEntries, at: at(.typeEntries))
            out.storeColumn(names, at: at(.typeNames))
            out.storeColumn(image.frameOrigin.flatMap { [$0.x.bitPattern, $0.y.bitPattern] }, at: at(.frameOrigin))
            out.storeColumn(image.frameSize.flatMap { [$0.x.bitPattern, $0.y.bitPattern] }, at: at(.frameSize))
            out.storeColumn(image.boundsOrigin.flatMap { [$0.x.bitPattern, $0.y.bitPattern] }, at: at(.boundsOrigin))
            for (a, column) in image.attributes.enumerated() where !column.start.isEmpty {
                let attribute = NodeAttribute.allCases[a]
                out.storeColumn(column.start.map(Int64.init), at: at(.starts(attribute)))
                out.storeColumn(column.bytes, at: at(.bytes(attribute)))
            }
            let body = Int(fileSize) - SnapshotLayout.trailerSize
            out.store(SnapshotLayout.checksum(UnsafeRawBufferPointer(rebasing: raw[..<body])), at: body)
        }
        return bytes
    }

    /// Writes ``snapshot()`` to `path`: to a new file beside it, then renamed over it, so
    /// that `path` holds either its old contents or the whole snapshot, never a part.
    ///
    /// - Throws: ``SnapshotError`` naming the system call that failed.
    /// - Complexity: O(n)
    public func writeSnapshot(to path: String) throws(SnapshotError) {
        let bytes = snapshot()
        let temporary = "\(path).\(getpid()).partial"
        func failure(_ call: String, _ file: String = path) -> SnapshotError {
            SnapshotError(path: file, offset: 0, reason: "\(call) failed: \(String(cString: strerror(errno)))")
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("open", temporary) }
        var written = 0
        var error: SnapshotError?
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    error = failure("write", temporary)
                    return
                }
                written += n
            }
        }
        if error == nil && fsync(fd) != 0 { error = failure("fsync", temporary) }
        if close(fd) != 0 && error == nil { error = failure("close", temporary) }
        if error == nil && rename(temporary, path) != 0 { error = failure("rename") }
        if let error {
            unlink(temporary)
            throw error
        }
    }
}

extension ViewTree {
    /// The checksum a snapshot ends with, of `bytes` (all of a snapshot but its last 8
    /// bytes): four lanes over 8-byte little-endian words, documented with the format, so
    /// that a tool can write or repair a snapshot of its own. Any two inputs of one length
    /// that differ within one 8-byte word (one flipped bit, say) get different checksums.
    ///
    /// - Complexity: O(bytes)
    public static func snapshotChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        SnapshotLayout.checksum(bytes)
    }
}

/// Stores little-endian values into a snapshot being written.
private struct SnapshotWriter {
    let raw: UnsafeMutableRawBufferPointer

    func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        raw.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }

    func storeNodes(_ nodes: [_ArenaImage.Node], at offset: Int) {
        for (k, node) in nodes.enumerated() {
            let at = offset + SnapshotLayout.nodeSize * k
            store(node.slot, at: at)
            store(node.parent, at: at + 4)
            store(node.tag, at: at + 8)
            store(node.type, at: at + 12)
        }
    }

    func storeColumn<T: FixedWidthInteger>(_ column: [T], at offset: Int) {
        #if _endian(little)
        column.withUnsafeBytes { source in
            guard let from = source.baseAddress, source.count > 0 else { return }
            (raw.baseAddress! + offset).copyMemory(from: from, byteCount: source.count)
        }
        #else
        for (k, value) in column.enumerated() { store(value, at: offset + k * MemoryLayout<T>.size) }
        #endif
    }
}
