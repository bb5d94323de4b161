#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelativeViewCore

// MARK: Writing

extension ViewTree {
    /// The tree as a snapshot, in the documented little-endian format, version 6: its node
    /// columns and its index as the tree holds them in memory (the index laid out in tour
    /// order, 64 tokens to a block), its types by name, its wide tags, geometry and
    /// attributes (4 bytes a slot for where each text starts), its content (each node's
    /// value and named attributes), then the digest of each 1 MiB block of all that, and a
    /// checksum. A tree without content whose texts of one attribute take 2^32 - 1 bytes or
    /// more is written in version 3, which has 8-byte starts (a tree with content and such
    /// texts cannot be saved). `init(snapshot:)` reads it back with the same node ids; a
    /// mapped load reads the columns in place, checked, with no copy.
    ///
    /// A tree of n slots, all live, with no geometry, attributes or content takes 44n bytes
    /// (24 per slot in its columns, 12 per token of the index, two tokens a node), plus the
    /// header, its type names, 8 bytes of digest per MiB and 8 bytes of checksum;
    /// generations add 4 bytes a slot once a node was removed.
    ///
    /// - Complexity: O(n)
    public func snapshot() -> [UInt8] {
        let version = SnapshotLayout.versionWritten(mostAttributeTextBytes: _mostTextBytes)
        precondition(version >= 5 || !hasContent, "a tree whose texts take 4 GiB or more cannot keep its content in a snapshot")
        return _snapshot(version: version)
    }

    /// The most text bytes one text section would hold: an attribute column's, the
    /// values', or the named attributes' values.
    private var _mostTextBytes: Int {
        let c = _storage.content
        return Swift.max(_mostAttributeTextBytes, c.text.withParts { _, b in b.count }, c.attributes.texts.withParts { _, b in b.count })
    }

    /// Version 5's content sections for a tree of `slots` slots: the value starts (narrow)
    /// and bytes as the tree holds them, and the named attributes with their runs laid out
    /// in slot order from entry 0 (their values' bytes as the tree holds them).
    func _contentImage(slots: Int) -> (valueStarts: [UInt32], valueBytes: [UInt8], namedFirst: [Int32], namedNames: [UInt32], namedValueStarts: [UInt32], namedValueBytes: [UInt8]) {
        let c = _storage.content
        let noText = SnapshotLayout.noText
        let (valueStarts, valueBytes): ([UInt32], [UInt8]) = c.text.withParts { starts, bytes in
            precondition(UInt64(bytes.count) < UInt64(noText), "value texts too long for 4-byte starts")
            return ((0 ..< Swift.min(starts.count, slots)).map { starts[$0] < 0 ? noText : UInt32(starts[$0]) }, Array(bytes))
        }
        let a = c.attributes
        var namedFirst: [Int32] = []
        var names: [UInt32] = []
        var values: [UInt32] = []
        let lastSlot = (0 ..< Swift.min(a.first.count, slots)).last { a.first[$0] >= 0 }
        if let lastSlot {
            namedFirst.reserveCapacity(lastSlot + 1)
            for x in 0 ... lastSlot {
                let run = a.run(of: x)
                namedFirst.append(run.isEmpty ? -1 : Int32(names.count))
                for e in run {
                    names.append(a.name[e])
                    values.append(UInt32(a.value[e]))
                }
            }
        }
        let namedBytes = a.texts.withParts { _, bytes in Array(bytes) }
        precondition(UInt64(namedBytes.count) < UInt64(noText), "attribute value texts too long for 4-byte starts")
        return (valueStarts, valueBytes, namedFirst, names, values, namedBytes)
    }

    /// The tree as a snapshot of format `version` (1 to 4; see the module's documentation):
    /// version 1 stores the pre-order and the free list (20 bytes a slot), which a load
    /// builds the columns and the index from; version 2 is version 3 with a checksum of one
    /// piece; version 3 is version 4 with 8-byte attribute starts. Older readers read the
    /// older versions. Version 4 needs each attribute's texts to take fewer than 2^32 - 1
    /// bytes.
    ///
    /// - Complexity: O(n)
    package func _snapshot(version: UInt32) -> [UInt8] {
        precondition(SnapshotLayout.versions.contains(version), "no snapshot format version \(version)")
        // Nodes of removed subtrees that wait to be freed are written as free slots: a
        // copy frees them first (O(n), as the snapshot is).
        if _hasPendingRemovals { return _settled()._snapshot(version: version) }
        var image = _image(preOrder: version == 1)
        let slots = image.slotCount
        let columns = version >= 2 ? _columnImage() : nil

        // The types as a table of names. Version 1 lists the live nodes' types in the order
        // of first use and numbers the nodes by it; version 2 lists every id up to the
        // largest in use, so that the nodes keep their ids as numbers, and a process that
        // registered the same types in the same order (the same program, say) reads the
        // type columns in place.
        var rawValues: [Int32] = []
        var used: Set<Int32> = []
        if version == 1 {
            var fileIndex = [Int32](repeating: -1, count: TypeRegistry.shared.count)
            for k in image.nodes.indices {
                let raw = Int(image.nodes[k].type)
                if fileIndex[raw] < 0 {
                    fileIndex[raw] = Int32(rawValues.count)
                    rawValues.append(Int32(raw))
                }
                image.nodes[k].type = fileIndex[raw]
            }
        } else if let columns {
            // The types of the live nodes: their enter tokens' copies.
            used = Set((0 ..< 2 * columns.liveCount).lazy.filter { columns.token[$0] >= 0 }.map { columns.tourType[$0] })
            // Version 5: the names of the named attributes are in the table too (as ids no
            // node has, unless a node has them as its type).
            let named = version >= 5 ? _storage.content.attributes.name.lazy.map { Int32(bitPattern: $0 & ~_AttributeRuns.lastBit) }.max() : nil
            if let largest = [used.max(), named ?? nil].compactMap({ $0 }).max() { rawValues = Array(0 ... largest) }
        }
        let entries = TypeRegistry.shared.namesAndKinds(ofRawValues: rawValues)
        var names: [UInt8] = []
        var typeEntries: [UInt32] = []
        for (t, entry) in entries.enumerated() {
            names.append(contentsOf: entry.name.utf8)
            let unused = version >= 2 && !used.contains(rawValues[t])
            typeEntries += [UInt32(names.count), (entry.isClass ? 1 : 0) | (unused ? SnapshotLayout.unusedKind : 0)]
        }

        var counts = SnapshotLayout.Counts()
        counts.version = version
        counts.slots = UInt64(slots)
        counts.live = UInt64(columns?.liveCount ?? image.nodes.count)
        counts.free = UInt64(image.free.count)
        counts.generation = UInt64(columns?.generation.count ?? slots)
        counts.types = UInt64(entries.count)
        counts.typeNameBytes = UInt64(names.count)
        counts.wideTags = UInt64(image.wideTags.count)
        counts.geometry = UInt64(image.frameOrigin.count)
        let content = version >= 5 ? _contentImage(slots: slots) : nil
        if let content {
            counts.content = SnapshotLayout.ContentCounts(
                valueStarts: UInt64(content.valueStarts.count), valueBytes: UInt64(content.valueBytes.count),
                namedFirst: UInt64(content.namedFirst.count), namedEntries: UInt64(content.namedNames.count),
                namedValueBytes: UInt64(content.namedValueBytes.count))
        }
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
            out.store(version, at: F.version)
            out.store(SnapshotLayout.byteOrderMark, at: F.byteOrder)
            out.store(UInt32(SnapshotLayout.headerSize(version)), at: F.headerSize)
            out.store(isHTMLDocument ? SnapshotLayout.htmlFlag : 0, at: F.flags)
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
            if let content {
                out.store(counts.content.valueStarts, at: F.valueStarts)
                out.store(counts.content.valueBytes, at: F.valueBytes)
                out.store(counts.content.namedFirst, at: F.namedFirst)
                out.store(counts.content.namedEntries, at: F.namedEntries)
                out.store(counts.content.namedValueBytes, at: F.namedValueBytes)
                out.storeColumn(content.valueStarts, at: at(.valueStarts))
                out.storeColumn(content.valueBytes, at: at(.valueBytes))
                out.storeColumn(content.namedFirst, at: at(.namedFirst))
                out.storeColumn(content.namedNames, at: at(.namedNames))
                out.storeColumn(content.namedValueStarts, at: at(.namedValueStarts))
                out.storeColumn(content.namedValueBytes, at: at(.namedValueBytes))
            }
            if let columns {
                out.store(counts.generation, at: F.generationCount)
                out.store(Int64(columns.freeHead), at: F.freeHead)
                out.storeColumn(columns.generation, at: at(.generation))
                out.storeColumn(columns.parent, at: at(.parent))
                out.storeColumn(columns.typeID, at: at(.typeID))
                out.storeColumn(columns.narrowTag, at: at(.narrowTag))
                out.storeColumn(columns.span, at: at(.span))
                out.storeColumn(columns.token, at: at(.tourToken))
                out.storeColumn(columns.tourTag, at: at(.tourTag))
                out.storeColumn(columns.tourType, at: at(.tourType))
            } else {
                out.storeColumn(image.generation, at: at(.generation))
                out.storeNodes(image.nodes, at: at(.nodes))
                out.storeColumn(image.free, at: at(.free))
            }
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
                if version >= 4 {
                    precondition(UInt64(column.bytes.count) < UInt64(SnapshotLayout.noText), "attribute texts too long for 4-byte starts")
                    out.storeColumn(column.start.map { $0 < 0 ? SnapshotLayout.noText : UInt32($0) }, at: at(.starts(attribute)))
                } else {
                    out.storeColumn(column.start.map(Int64.init), at: at(.starts(attribute)))
                }
                out.storeColumn(column.bytes, at: at(.bytes(attribute)))
            }
            SnapshotLayout.seal(raw, version: version, digestsStart: at(.digests))
        }
        return bytes
    }

    /// Writes ``snapshot()`` to `path`: to a new file beside it, then renamed over it, so
    /// that `path` holds either its old contents or the whole snapshot, never a part.
    ///
    /// - Throws: ``SnapshotError`` naming the system call that failed.
    /// - Complexity: O(n)
    public func writeSnapshot(to path: String) throws(SnapshotError) {
        guard !hasContent || _mostTextBytes < Int(SnapshotLayout.noText) else {
            throw SnapshotError(path: path, offset: 0, reason: "the tree's texts take 4 GiB or more: version 5's 4-byte starts cannot point into them all")
        }
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
    /// The checksum a snapshot of format `formatVersion` ends with, of `bytes`, documented
    /// with the format, so that a tool can write or repair a snapshot of its own: for
    /// versions 1 and 2, four lanes over 8-byte little-endian words; from version 3 (3 to 6
    /// share it), eight lanes over each block of 1 MiB, the blocks' digests then combined.
    /// `bytes` are all of a snapshot but its last 8 bytes up to version 5; of version 6 (the
    /// one written), the bytes before its block digests, which it stores before the
    /// checksum (``sealSnapshot(_:)`` writes both). Any two inputs of one length that differ
    /// within one 8-byte word (one flipped bit, say) get different checksums.
    ///
    /// - Complexity: O(bytes)
    public static func snapshotChecksum(_ bytes: UnsafeRawBufferPointer, formatVersion: UInt32 = 4) -> UInt64 {
        SnapshotLayout.checksum(bytes, version: formatVersion)
    }

    /// Writes the checksum a snapshot ends with, and in version 6 (the one written) its
    /// block digests before it, from its other bytes, as ``snapshot()`` does: for a tool
    /// that writes or repairs a snapshot of its own. The version is the one the header
    /// says (bytes 8 to 11); version 6's digests lie where its length puts them (a reader
    /// checks that its counts put them there too). Bytes too few for a checksum, or a
    /// version 6 length that no digests fit, are left as they are.
    ///
    /// - Complexity: O(bytes)
    public static func sealSnapshot(_ bytes: UnsafeMutableRawBufferPointer) {
        guard bytes.count >= 12 + SnapshotLayout.trailerSize else { return }
        let version = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: SnapshotLayout.Field.version, as: UInt32.self))
        var start = 0
        if version >= 6 {
            guard let s = SnapshotLayout.digestsStart(fileSize: bytes.count) else { return }
            start = s
        }
        SnapshotLayout.seal(bytes, version: version, digestsStart: start)
    }
}

/// Stores little-endian values into a snapshot being written.
private struct SnapshotWriter {
    let raw: UnsafeMutableRawBufferPointer

    func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        raw.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }

    func storeNodes(_ nodes: [_PreorderImage.Node], at offset: Int) {
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
