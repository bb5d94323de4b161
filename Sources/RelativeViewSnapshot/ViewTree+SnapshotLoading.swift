import RelativeViewEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelativeViewCore
import Synchronization

extension ViewTree {
    /// The tree a snapshot holds (see ``snapshot()``), checked as untrusted input.
    ///
    /// Validation is O(n) and complete: the header (magic, version, byte order, header
    /// size, flags, a length that matches the counts), the checksum, the type table (names
    /// of valid UTF-8), and every invariant of a tree (parents that are live slots, a free
    /// list that holds each free slot once, an index that nests each node in its parent,
    /// so no cycle, wide tags, geometry and attribute texts where they may be). A version 2
    /// snapshot's columns and index are copied out of `bytes` and checked in one pass; a
    /// version 1 snapshot's are built in the pass that checks its pre-order. Node ids (slot
    /// and generation) are the saved tree's. Types come back by name: a type saved from a class comes back
    /// as that class's `TypeID` if this process registered a class of that name, else as
    /// the bare name's (`TypeRegistry.typeID(named:)`).
    ///
    /// - Throws: ``SnapshotError`` with the byte offset of the first defect found.
    /// - Complexity: O(n + bytes)
    public init(snapshot bytes: UnsafeRawBufferPointer) throws(SnapshotError) {
        self = try SnapshotReader(bytes: bytes, path: nil).read()
    }

    /// The tree a snapshot in memory holds; see `init(snapshot:)` for a raw buffer.
    ///
    /// - Throws: ``SnapshotError`` with the byte offset of the first defect found.
    /// - Complexity: O(n + bytes)
    public init(snapshot bytes: [UInt8]) throws(SnapshotError) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(SnapshotError) in try SnapshotReader(bytes: raw, path: nil).read() } }
        self = try result.get()
    }

    /// The tree the snapshot file at `path` holds, checked as `init(snapshot:)`
    /// checks bytes in memory.
    ///
    /// With `mapped` (the default) the file is mapped read-only (`mmap`) and read in place:
    /// no copy of the file is made in this process, and its pages are the page cache's,
    /// shared with every process that maps it. A version 2 snapshot's node columns and
    /// index are read where they lie, after one checking pass, so the tree keeps the whole
    /// file mapped and costs little memory of its own; its first change of any kind copies
    /// them into memory of its own (O(n), once). The two type columns are copied when this
    /// process numbers the file's types otherwise than the writer did. Of a version 1
    /// snapshot the columns and index are built; its attribute texts and their starts stay
    /// where they lie, and being the file's last sections, only the pages from them on stay
    /// mapped, for as long as the tree has them (its first change to an attribute copies
    /// them). Without `mapped` the file is read into fresh memory, which is kept in the
    /// same way; a file of 8 MB or more is read in two halves at once, the second on a
    /// thread of its own. (A file of 1 MB or more is also checked on two threads: the
    /// checksum, the index and the attribute texts, in pieces that either thread takes; the
    /// second starts with the checksum, whose blocks (versions 3 and 4) it shares.) As with any
    /// mapped file, another process that truncates or rewrites the file in place while it
    /// is mapped ends this one (`SIGBUS`, or a trap that names the cause when a text is
    /// read); a writer that replaces the file (as ``writeSnapshot(to:)`` does, by renaming
    /// a new one over it) does not. Load files that others may change in place with
    /// `mapped: false`.
    ///
    /// - Throws: ``SnapshotError``: the system call that failed, or the first defect found.
    /// - Complexity: O(n + bytes)
    public init(contentsOfSnapshot path: String, mapped: Bool = true) throws(SnapshotError) {
        self = try Self._withSnapshotFile(path, mapped: mapped) { (bytes, owner) throws(SnapshotError) in
            try SnapshotReader(bytes: bytes, path: path, owner: owner).read()
        }
    }

    /// Calls `body` with the bytes of the snapshot file at `path`, mapped read-only (see
    /// `init(contentsOfSnapshot:mapped:)`) or read into memory, and the object that keeps
    /// them: valid as long as it lives (a tree that reads its attribute texts in place
    /// keeps it, and then only the pages from the first text section on stay mapped),
    /// unmapped after.
    ///
    /// - Throws: ``SnapshotError`` naming the system call that failed, or what `body` throws.
    /// - Complexity: O(bytes) plus `body`.
    package static func _withSnapshotFile<T>(
        _ path: String, mapped: Bool, _ body: (UnsafeRawBufferPointer, AnyObject?) throws(SnapshotError) -> T
    ) throws(SnapshotError) -> T {
        func failure(_ call: String, code: Int32 = errno) -> SnapshotError {
            SnapshotError(path: path, offset: 0, reason: "\(call) failed: \(String(cString: strerror(code)))")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("fstat") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SnapshotError(path: path, offset: 0, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        if size == 0 { return try body(UnsafeRawBufferPointer(start: nil, count: 0), nil) }
        var memory: SnapshotMemory
        var got = size
        if mapped {
            // Not MAP_POPULATE: that maps every page on this thread before the checks start;
            // faulted in as the checks reach them, the pages are mapped by both threads (16
            // to a fault), which measured faster (9.2 -> 7.6 ms for a 62 MB snapshot).
            guard let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else { throw failure("mmap") }
            memory = SnapshotMemory(mapped: map, count: size)
            // Huge pages: pages not yet in the page cache are read ahead as 2 MiB folios, and
            // those a fault finds in 2 MiB folios (a snapshot just written in one piece, or read
            // so before) are mapped 2 MiB at a time (the kernel places a large mapping on a
            // 2 MiB boundary). Without it, the faults of the two threads' checks read a file
            // not in the page cache in small folios, and every later load of it mapped each of
            // its 4 KiB pages: XMark's 302 MB snapshot took 48 ms of faults and 21 ms to unmap
            // on one thread, against 2 ms and 3 ms in 2 MiB folios.
            _ = madvise(map, size, MADV_HUGEPAGE)
            _ = madvise(map, size, MADV_SEQUENTIAL)
        } else {
            // Read straight into fresh memory (no zero-fill first); a large file in two
            // halves at once, the second on a thread of its own (the kernel's copy is most of
            // a read load's time).
            guard let fresh = SnapshotMemory(allocating: size) else { throw failure("mmap") }
            memory = fresh
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let half = size >= Self.twoThreadReadBytes ? size / 2 / page * page : size
            let (address, whole) = (UInt(bitPattern: memory.start), size)
            let second = _SideTask(worthIt: half < size) { Self.readFully(fd, into: address + UInt(half), count: whole - half, at: half) }
            let first = Self.readFully(fd, into: address, count: half, at: 0)
            let rest = half < size ? second.wait() : .success(0)
            switch (first, rest) {
            case (.failure(let failed), _), (_, .failure(let failed)):
                throw failure("read", code: failed.code)
            case (.success(let head), .success(let tail)):
                // A file that ended within the first half is as long as that.
                got = head < half ? head : half + tail
            }
        }
        // A file that shrank as it was read is as long as what was read.
        let result = try body(UnsafeRawBufferPointer(start: memory.start, count: got), memory)
        // A tree that reads its texts in place keeps the memory: only from them on, and read
        // at random from now on.
        if !isKnownUniquelyReferenced(&memory) { memory.keepOnlyLent() }
        return result
    }

    /// Files of at least this many bytes are read in two halves on two threads.
    static let twoThreadReadBytes = 8 << 20

    /// Reads up to `count` bytes of `fd` from offset `offset` into memory at `address`:
    /// the bytes read (fewer at the end of the file), or the `errno` of a failed `pread`.
    static func readFully(_ fd: Int32, into address: UInt, count: Int, at offset: Int) -> Result<Int, ReadFailure> {
        var done = 0
        while done < count {
            let n = pread(fd, UnsafeMutableRawPointer(bitPattern: address + UInt(done)), count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(code: errno))
            }
            if n == 0 { break }
            done += n
        }
        return .success(done)
    }

    /// A failed `pread`'s `errno`.
    struct ReadFailure: Error {
        let code: Int32
    }

    /// The tree a snapshot holds, checked as `init(snapshot:)` checks it, with each saved
    /// type mapped to an id by `typeFor` (its name, whether it was saved from a class, and
    /// the byte offset of its entry in the type table), and, with `oneRoot`, refused unless
    /// it holds exactly one root: how the facade loads a view tree. With an `owner` that
    /// keeps `bytes` alive, the tree may read parts of them in place and keep `owner`.
    ///
    /// - Throws: ``SnapshotError`` with the byte offset of the first defect found, or what
    ///   `typeFor` throws.
    /// - Complexity: O(n + bytes)
    package init(
        snapshot bytes: UnsafeRawBufferPointer, path: String?, owner: AnyObject?, oneRoot: Bool,
        typeFor: (_ name: String, _ isClass: Bool, _ offset: Int) throws(SnapshotError) -> TypeID
    ) throws(SnapshotError) {
        self = try SnapshotReader(bytes: bytes, path: path, owner: owner, oneRoot: oneRoot).read(typeFor: typeFor)
    }
}

extension ViewTree {
    /// Whether the file at `path` starts as a snapshot does (its first 8 bytes are the
    /// snapshot magic): what `relative-view-bench --input` uses to tell a snapshot from a
    /// document. It says nothing of the rest of the file, and no for anything but a regular
    /// file (a pipe is not read).
    ///
    /// - Complexity: O(1): one read of 8 bytes.
    public static func isSnapshot(atPath path: String) -> Bool {
        // Only a regular file is looked at: reading a pipe would take its first bytes from
        // whoever reads it next, and opening one waits for a writer.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: SnapshotLayout.magic.count)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        return n == head.count && head == SnapshotLayout.magic
    }
}

/// Reads and checks one snapshot.
struct SnapshotReader {
    let bytes: UnsafeRawBufferPointer
    let path: String?
    /// What keeps `bytes` alive, if anything: then the tree reads its attribute texts in
    /// place and keeps it, where the platform lays them out as the file does.
    var owner: AnyObject? = nil
    /// Whether a snapshot of no node, or of several roots, is an error (a view tree has one).
    var oneRoot = false

    typealias Field = SnapshotLayout.Field
    typealias Section = SnapshotLayout.Section

    func error(_ offset: Int, _ reason: String) -> SnapshotError {
        SnapshotError(path: path, offset: offset, reason: reason)
    }

    func load<T: FixedWidthInteger>(_ offset: Int, as: T.Type = T.self) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// `count` little-endian values from `offset`.
    func column<T: FixedWidthInteger>(_ offset: Int, count: Int, as: T.Type = T.self) -> [T] {
        [T]._large(count: count) { buffer in
            #if _endian(little)
            if count > 0 {
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: bytes.baseAddress! + offset, byteCount: count * MemoryLayout<T>.size)
            }
            #else
            for k in 0 ..< count { buffer.baseAddress!.advanced(by: k).initialize(to: load(offset + k * MemoryLayout<T>.size)) }
            #endif
        }
    }

    /// The header, checked field by field: the version, the flags, the counts, and each
    /// section's byte range (by ``SnapshotLayout/Section`` raw value), which the counts
    /// place within the length.
    func readHeader() throws(SnapshotError) -> (version: UInt32, flags: UInt32, counts: SnapshotLayout.Counts, ranges: [Range<UInt64>]) {
        // The header, field by field.
        guard bytes.count >= SnapshotLayout.headerSize + SnapshotLayout.trailerSize else {
            throw error(bytes.count, "truncated: \(bytes.count) bytes, shorter than a snapshot's header and checksum (\(SnapshotLayout.headerSize + SnapshotLayout.trailerSize))")
        }
        for (k, byte) in SnapshotLayout.magic.enumerated() where bytes[k] != byte {
            throw error(k, "not a RelativeView snapshot: its first 8 bytes are not the snapshot magic \\x89RVTREE\\n")
        }
        let mark: UInt32 = load(Field.byteOrder)
        guard mark == SnapshotLayout.byteOrderMark else {
            if mark == SnapshotLayout.byteOrderMark.byteSwapped {
                throw error(Field.byteOrder, "wrong byte order: the snapshot is big-endian; this reader reads little-endian snapshots")
            }
            throw error(Field.byteOrder, "byte order mark 0x\(String(mark, radix: 16)) is neither little- nor big-endian")
        }
        let version: UInt32 = load(Field.version)
        guard SnapshotLayout.versions.contains(version) else {
            throw error(Field.version, "format version \(version): this reader reads versions \(SnapshotLayout.versions.lowerBound) to \(SnapshotLayout.versions.upperBound)")
        }
        let headerSize: UInt32 = load(Field.headerSize)
        guard headerSize == UInt32(SnapshotLayout.headerSize(version)) else {
            throw error(Field.headerSize, "header size \(headerSize): version \(version)'s is \(SnapshotLayout.headerSize(version))")
        }
        guard bytes.count >= SnapshotLayout.headerSize(version) + SnapshotLayout.trailerSize else {
            throw error(bytes.count, "truncated: \(bytes.count) bytes, shorter than a version \(version) snapshot's header and checksum (\(SnapshotLayout.headerSize(version) + SnapshotLayout.trailerSize))")
        }
        let flags: UInt32 = load(Field.flags)
        guard flags & ~SnapshotLayout.knownFlags == 0 else {
            throw error(Field.flags, "unknown flags 0x\(String(flags, radix: 16))")
        }
        for k in 0 ..< 8 where bytes[Field.reserved + k] != 0 {
            throw error(Field.reserved + k, "reserved header bytes are not zero")
        }
        let fileSize: UInt64 = load(Field.fileSize)
        guard fileSize == UInt64(bytes.count) else {
            throw error(fileSize < UInt64(bytes.count) ? Field.fileSize : bytes.count,
                        "the header says \(fileSize) bytes, the snapshot has \(bytes.count) (\(fileSize > UInt64(bytes.count) ? "truncated" : "bytes after its end"))")
        }
        var counts = SnapshotLayout.Counts()
        counts.version = version
        counts.slots = load(Field.slotCount)
        counts.live = load(Field.liveCount)
        counts.free = load(Field.freeCount)
        guard counts.live <= counts.slots, counts.free == counts.slots - counts.live else {
            throw error(Field.freeCount, "\(counts.slots) slots, \(counts.live) live and \(counts.free) free: the live and the free slots must add up to the slots")
        }
        counts.generation = version == 1 ? counts.slots : load(Field.generationCount)
        guard counts.generation <= counts.slots else {
            throw error(Field.generationCount, "a generation column of \(counts.generation) entries for \(counts.slots) slots")
        }
        counts.types = load(Field.typeCount)
        counts.typeNameBytes = load(Field.typeNameBytes)
        counts.wideTags = load(Field.wideTagCount)
        counts.geometry = load(Field.geometryCount)
        for a in 0 ..< 3 {
            counts.attributeStarts[a] = load(Field.attributeStarts + 8 * a)
            counts.attributeBytes[a] = load(Field.attributeBytes + 8 * a)
        }
        if version >= 5 {
            counts.content = SnapshotLayout.ContentCounts(
                valueStarts: load(Field.valueStarts), valueBytes: load(Field.valueBytes), namedFirst: load(Field.namedFirst),
                namedEntries: load(Field.namedEntries), namedValueBytes: load(Field.namedValueBytes))
            let c = counts.content
            guard c.valueStarts <= counts.slots else {
                throw error(Field.valueStarts, "\(c.valueStarts) value starts for \(counts.slots) slots")
            }
            guard c.namedFirst <= counts.slots else {
                throw error(Field.namedFirst, "\(c.namedFirst) named attribute runs for \(counts.slots) slots")
            }
            guard c.namedEntries < UInt64(Int32.max) else {
                throw error(Field.namedEntries, "\(c.namedEntries) named attributes: at most \(Int32.max - 1)")
            }
            for (field, n) in [(Field.valueBytes, c.valueBytes), (Field.namedValueBytes, c.namedValueBytes)] where n >= UInt64(SnapshotLayout.noText) {
                throw error(field, "\(n) bytes of texts: version \(version)'s 4-byte starts point into fewer than \(SnapshotLayout.noText)")
            }
        }
        // Version 4's starts are 4 bytes, none 0xFFFFFFFF: its texts are fewer bytes.
        if SnapshotLayout.attributeStartSize(version) == 4,
           let a = counts.attributeBytes.firstIndex(where: { $0 >= UInt64(SnapshotLayout.noText) }) {
            throw error(Field.attributeBytes + 8 * a, "\(counts.attributeBytes[a]) bytes of \(NodeAttribute.allCases[a]) texts: version \(version)'s 4-byte starts point into fewer than \(SnapshotLayout.noText)")
        }
        guard let (ranges, expectedSize) = counts.layout(), expectedSize == fileSize else {
            let need = counts.layout().map { "\($0.fileSize) bytes" } ?? "more than 2^64 bytes"
            throw error(Field.slotCount, "the counts do not match the length: \(counts.slots) slots, \(counts.live) live, \(counts.types) types, \(counts.wideTags) wide tags, \(counts.geometry) geometry entries need \(need), the snapshot has \(fileSize)")
        }
        guard counts.slots < UInt64(Int32.max), counts.live <= counts.slots else {
            throw error(Field.slotCount, "\(counts.slots) slots with \(counts.live) live: at most \(Int32.max - 1) slots, and no more live than slots")
        }
        guard counts.geometry <= counts.slots, counts.attributeStarts.allSatisfy({ $0 <= counts.slots }) else {
            throw error(Field.geometryCount, "more geometry or attribute entries than the \(counts.slots) slots")
        }
        return (version, flags, counts, ranges)
    }

    /// The tree, each saved type mapped to an id by `typeFor` (its name, its kind and its
    /// entry's offset): by default the id ``TypeRegistry`` gives a loaded name.
    func read(
        typeFor: (_ name: String, _ isClass: Bool, _ offset: Int) throws(SnapshotError) -> TypeID = { name, isClass, _ in
            TypeRegistry.shared.idForLoading(name: name, isClass: isClass)
        }
    ) throws(SnapshotError) -> ViewTree {
        let (version, flags, counts, ranges) = try readHeader()

        // The checksum, computed while the sections are read and checked, by both threads: a
        // mismatch is the error reported, whatever else the checks find (a flipped bit
        // anywhere is a checksum error, as if the checksum came first). The second thread
        // is waited for before this function returns or throws, so the bytes outlive it.
        let body = bytes.count - SnapshotLayout.trailerSize
        let stored: UInt64 = load(body)
        // With the attribute texts read in place, they are checked apart (that each start
        // lies within its bytes and each length fits); validation merges what that finds
        // with its own attribute checks, so the flaw reported is the one a check of
        // everything in line reports. Type names are registered only from a snapshot whose
        // checksum matches.
        let inPlace = textsInPlace(ranges, version: version)
        // The bytes the checksum's blocks cover: all before it, or before version 6's digests.
        let digestsAt = Int(ranges[Section.digests.rawValue].lowerBound)
        let (address, length) = (UInt(bitPattern: bytes.baseAddress), version >= 6 ? digestsAt : body)
        let attributeColumns: [(starts: UInt, count: Int, bytes: UInt, byteCount: Int)] = inPlace == nil ? [] :
            NodeAttribute.allCases.map { a in
                (address + UInt(ranges[Section.starts(a).rawValue].lowerBound), Int(counts.attributeStarts[a.rawValue]),
                 address + UInt(ranges[Section.bytes(a).rawValue].lowerBound), Int(counts.attributeBytes[a.rawValue]))
            }
        // Version 5's values, read in place as well, join the attribute columns (after them:
        // column `NodeAttribute.allCases.count`), checked in the same pieces.
        let valuesInPlace = inPlace != nil && version >= 5
            && (address + UInt(ranges[Section.valueStarts.rawValue].lowerBound)) % 4 == 0
        let textColumns = attributeColumns + (valuesInPlace
            ? [(address + UInt(ranges[Section.valueStarts.rawValue].lowerBound), Int(counts.content.valueStarts),
                address + UInt(ranges[Section.valueBytes.rawValue].lowerBound), Int(counts.content.valueBytes))]
            : [])
        let narrow = SnapshotLayout.attributeStartSize(version) == 4
        let values = NodeAttribute.allCases.count
        // The texts' check, in pieces that either thread takes: this one once the index is
        // checked, the second once it is done with the checksum's pieces and the index's (if
        // this thread has posted those by then).
        let textPieces: [(column: Int, range: Range<Int>)] = textColumns.indices.flatMap { c in
            stride(from: 0, to: textColumns[c].count, by: Self.textPiece).map { (c, $0 ..< min(textColumns[c].count, $0 + Self.textPiece)) }
        }
        let textShare = _WorkShare<(element: Int, reason: String)?>()
        textShare.post(pieces: textPieces.count) { k in
            let (c, range) = (textColumns[textPieces[k].column], textPieces[k].range)
            let starts = Self.starts(at: c.starts, count: c.count, narrow: narrow || textPieces[k].column == values)
            let texts = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: c.bytes), count: c.byteCount)
            guard !ViewTree._attributeTextsAreSound(starts: starts.slice(range), bytes: texts) else { return nil }
            return ViewTree._attributeTextFlaw(starts: starts, bytes: texts, slots: range)
        }
        // The checksum, in pieces that either thread takes (version 3's blocks; versions 1
        // and 2's checksum is one piece), the second thread first.
        let checksumShare = _WorkShare<UInt64>()
        checksumShare.post(pieces: version < 3 ? 1 : SnapshotLayout.checksumBlocks(length)) { k in
            let all = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: length)
            return version < 3 ? SnapshotLayout.checksum(all) : SnapshotLayout.blockDigest(all, index: k)
        }
        let tourShare = _WorkShare<_TourCheck.Tally>()
        let side = _SideTask(worthIt: body >= Self.checksumThreadBytes) {
            checksumShare.help()
            tourShare.help()
            textShare.help()
        }
        // Takes the checksum's pieces left, and waits for those the second thread is on;
        // the checksum error, if any. Version 6's blocks are each checked against its
        // digests (the first that differs is the one named), and the digests against the
        // checksum.
        func checksumError() -> SnapshotError? {
            let parts = checksumShare.finish()
            if version >= 6 {
                for (k, part) in parts.enumerated() {
                    let stated: UInt64 = load(digestsAt + 8 * k)
                    guard part != stated else { continue }
                    let from = k * SnapshotLayout.checksumBlock, to = min(length, from + SnapshotLayout.checksumBlock)
                    return error(from, "checksum mismatch: block \(k) (bytes \(from) to \(to), \(sectionNames(in: from ..< to, ranges))) gives 0x\(String(part, radix: 16)), its digest says 0x\(String(stated, radix: 16)) (changed after it was written)")
                }
                let sum = SnapshotLayout.combine((0 ..< parts.count).map { load(digestsAt + 8 * $0) })
                return sum == stored ? nil : error(digestsAt, "checksum mismatch: the snapshot says 0x\(String(stored, radix: 16)), its block digests give 0x\(String(sum, radix: 16)) (changed after it was written)")
            }
            let sum = version < 3 ? parts[0] : SnapshotLayout.combine(parts)
            return sum == stored ? nil : mismatch(sum)
        }
        // Each column's first flaw: its first piece's that has one.
        let textFlaws = { () -> [(element: Int, reason: String)?] in
            let found = textShare.finish()
            return textColumns.indices.map { c in
                found.indices.lazy.filter { textPieces[$0].column == c }.compactMap { found[$0] }.first
            }
        }
        func mismatch(_ computed: UInt64) -> SnapshotError {
            error(body, "checksum mismatch: the snapshot says 0x\(String(stored, radix: 16)), its bytes give 0x\(String(computed, radix: 16)) (changed after it was written)")
        }
        let sections = Result { () throws(SnapshotError) in
            try readSections(
                counts: counts, ranges: ranges, inPlace: inPlace, valuesInPlace: valuesInPlace, typeFor: typeFor,
                checksumMatches: { () throws(SnapshotError) in
                    if let e = checksumError() { throw e }
                },
                textFlaws: textFlaws, tourShare: tourShare)
        }
        let sumError = checksumError()
        side.wait()
        if let sumError { throw sumError }
        var tree = try sections.get()
        tree._markHTMLDocument(flags & SnapshotLayout.htmlFlag != 0)
        return tree
    }

    /// The owner of the bytes, if the attribute columns are read where they lie: a
    /// little-endian machine with 8-byte `Int`s, and starts aligned in memory to their size
    /// (`version`'s). The text sections come last in a snapshot, so a tree that keeps them
    /// keeps little else (see ``SnapshotMemory/keepOnlyLent()``).
    func textsInPlace(_ ranges: [Range<UInt64>], version: UInt32) -> AnyObject? {
        #if _endian(little)
        guard let owner, MemoryLayout<Int>.size == 8, let base = bytes.baseAddress else { return nil }
        let aligned = NodeAttribute.allCases.allSatisfy { a in
            (Int(bitPattern: base) + Int(ranges[Section.starts(a).rawValue].lowerBound)) % SnapshotLayout.attributeStartSize(version) == 0
        }
        return aligned ? owner : nil
        #else
        return nil
        #endif
    }

    /// The `count` attribute starts at `address`, in memory laid out as the file's: narrow
    /// (version 4's `UInt32`s) or wide (`Int64`s, `Int`s on the 64-bit platforms that read
    /// them in place).
    static func starts(at address: UInt, count: Int, narrow: Bool) -> _TextStarts {
        _TextStarts(base: UnsafeRawPointer(bitPattern: address), count: count, isNarrow: narrow)
    }

    /// The sections with bytes in `range` (by their ``SnapshotLayout/Section/description``),
    /// or "the header".
    func sectionNames(in range: Range<Int>, _ ranges: [Range<UInt64>]) -> String {
        var names = range.lowerBound < Int(ranges.filter { !$0.isEmpty }.map(\.lowerBound).min() ?? 0) ? ["the header"] : []
        for section in Section.allCases where !ranges[section.rawValue].isEmpty {
            let r = Int(ranges[section.rawValue].lowerBound) ..< Int(ranges[section.rawValue].upperBound)
            if r.overlaps(range) { names.append(section.description) }
        }
        return names.isEmpty ? "padding" : names.joined(separator: ", ")
    }

    /// Below this many bytes no second thread is started: one costs more than it saves.
    static let checksumThreadBytes = 1 << 20

    /// The attribute starts in a piece of the texts' check that either thread may take.
    static let textPiece = 1 << 16

    /// The type table: per entry its name (valid UTF-8, not empty), whether it is a class's,
    /// whether no node has it (version 2's unused kind), and the entry's offset.
    func typeTable(counts: SnapshotLayout.Counts, at: (Section) -> Int) throws(SnapshotError) -> [(name: String, isClass: Bool, unused: Bool, entry: Int)] {
        let typeCount = Int(counts.types)
        var names: [(name: String, isClass: Bool, unused: Bool, entry: Int)] = []
        names.reserveCapacity(typeCount)
        var nameStart = 0
        for t in 0 ..< typeCount {
            let entry = at(.typeEntries) + SnapshotLayout.typeEntrySize * t
            let end = Int(load(entry, as: UInt32.self))
            let kind: UInt32 = load(entry + 4)
            guard end >= nameStart && end <= Int(counts.typeNameBytes) else {
                throw error(entry, "type \(t)'s name ends at \(end), outside \(nameStart) ... \(counts.typeNameBytes)")
            }
            guard kind <= (counts.version == 1 ? 1 : 3) else {
                throw error(entry + 4, counts.version == 1
                    ? "type \(t) has kind \(kind): 0 (a name) or 1 (a class)"
                    : "type \(t) has kind \(kind): 0 (a name) or 1 (a class), plus 2 for an id no node has")
            }
            let utf8 = UnsafeRawBufferPointer(rebasing: bytes[at(.typeNames) + nameStart ..< at(.typeNames) + end])
            guard let name = String(validating: utf8.bindMemory(to: UInt8.self), as: UTF8.self) else {
                throw error(at(.typeNames) + nameStart, "type \(t)'s name is not valid UTF-8")
            }
            guard !name.isEmpty else { throw error(entry, "type \(t) has an empty name") }
            names.append((name, kind & 1 == 1, kind & SnapshotLayout.unusedKind != 0, entry))
            nameStart = end
        }
        return names
    }

    /// The sections after the header, checked, as a tree (the checksum aside).
    /// With `inPlace` (the owner of the bytes), the attribute columns are read where they
    /// lie, their texts checked by the caller.
    /// `checksumMatches` throws unless the checksum matches (it waits for it); type names
    /// are registered only after it returns. `textFlaws` gives the text flaws found apart.
    func readSections(
        counts: SnapshotLayout.Counts, ranges: [Range<UInt64>], inPlace: AnyObject?, valuesInPlace: Bool = false,
        typeFor: (_ name: String, _ isClass: Bool, _ offset: Int) throws(SnapshotError) -> TypeID,
        checksumMatches: () throws(SnapshotError) -> Void,
        textFlaws: () -> [(element: Int, reason: String)?], tourShare: _WorkShare<_TourCheck.Tally>? = nil
    ) throws(SnapshotError) -> ViewTree {

        func at(_ section: Section) -> Int { Int(ranges[section.rawValue].lowerBound) }
        let slots = Int(counts.slots)

        // The type table: names of valid UTF-8, each mapped to this process's id once the
        // checksum is known to match (below).
        let names = try typeTable(counts: counts, at: at)

        var image = _PreorderImage()
        if counts.version == 1 {
            image.generation = column(at(.generation), count: slots)
            image.free = column(at(.free), count: Int(counts.free))
        }
        image.wideTags = try (0 ..< Int(counts.wideTags)).map { (k: Int) throws(SnapshotError) -> (slot: Int32, tag: Int) in
            let entry = at(.wideTags) + SnapshotLayout.wideTagSize * k
            let slot: Int64 = load(entry)
            guard slot >= 0 && slot < Int64(slots) else { throw error(entry, "wide tag \(k) is for slot \(slot), not a slot") }
            return (Int32(slot), Int(load(entry + 8, as: Int64.self)))
        }
        func points(_ section: Section) -> [SIMD2<Double>] {
            let raw: [UInt64] = column(at(section), count: 2 * Int(counts.geometry))
            return (0 ..< Int(counts.geometry)).map { SIMD2(Double(bitPattern: raw[2 * $0]), Double(bitPattern: raw[2 * $0 + 1])) }
        }
        image.frameOrigin = points(.frameOrigin)
        image.frameSize = points(.frameSize)
        image.boundsOrigin = points(.boundsOrigin)
        if let inPlace, let base = bytes.baseAddress {
            image.borrowedAttributes = NodeAttribute.allCases.map { a in
                let count = Int(counts.attributeStarts[a.rawValue])
                guard count > 0 else { return nil }
                let byteCount = Int(counts.attributeBytes[a.rawValue])
                return _BorrowedTexts(
                    starts: Self.starts(at: UInt(bitPattern: base + at(.starts(a))), count: count,
                                        narrow: SnapshotLayout.attributeStartSize(counts.version) == 4),
                    bytes: UnsafeBufferPointer(start: UnsafeMutableRawPointer(mutating: base + at(.bytes(a))).bindMemory(to: UInt8.self, capacity: byteCount), count: byteCount),
                    owner: inPlace)
            }
            image.attributeTextsChecked = true
            // What the tree keeps: the text sections, the last of the snapshot (version 2
            // keeps the columns too: see `readColumns`).
            (inPlace as? SnapshotMemory)?.lentFrom = at(.starts(.key))
        } else {
        image.attributes = NodeAttribute.allCases.map { attribute in
            // Each start is an Int64 in the file, an Int here (the same on 64-bit platforms);
            // from version 4 a UInt32, `noText` for none.
            let count = Int(counts.attributeStarts[attribute.rawValue])
            let starts: [Int] = if SnapshotLayout.attributeStartSize(counts.version) == 4 {
                // (On a 32-bit platform a start past Int.max is out of any texts' range.)
                (column(at(.starts(attribute)), count: count) as [UInt32]).map { $0 == SnapshotLayout.noText ? -1 : Int(exactly: $0) ?? Int.max }
            } else if MemoryLayout<Int>.size == 8 {
                column(at(.starts(attribute)), count: count)
            } else {
                (column(at(.starts(attribute)), count: count) as [Int64]).map { Int(truncatingIfNeeded: $0) }
            }
            let texts: [UInt8] = column(at(.bytes(attribute)), count: Int(counts.attributeBytes[attribute.rawValue]))
            return (start: starts, bytes: texts)
        }
        }

        // Version 2 checks its structure with the file's own type numbers while the checksum
        // is computed, and only then registers the names (see `readColumns`).
        if counts.version >= 2 {
            return try readColumns(
                counts: counts, at: at, extras: image, types: names, typeFor: typeFor,
                checksumMatches: checksumMatches, textFlaws: textFlaws, tourShare: tourShare, valuesInPlace: valuesInPlace)
        }
        try checksumMatches()
        let processType = try processTypes(names, typeFor: typeFor)

        // The nodes are read where they lie when the bytes are laid out as a node array
        // would be (a little-endian machine, and 4-byte aligned bytes, as a mapped file's or
        // an array's are); else copied out first.
        let live = Int(counts.live)
        let nodesStart = bytes.baseAddress! + at(.nodes)
        let result: Result<ViewTree, _PreorderImageFlaw>
        #if _endian(little)
        if Self.nodeLayoutIsTheFiles && Int(bitPattern: nodesStart) % MemoryLayout<_PreorderImage.Node>.alignment == 0 {
            result = nodesStart.withMemoryRebound(to: _PreorderImage.Node.self, capacity: max(live, 1)) { first in
                Result { () throws(_PreorderImageFlaw) in
                    try ViewTree(validating: image, nodes: UnsafeBufferPointer(start: first, count: live), typeMap: processType, textFlaws: textFlaws)
                }
            }
        } else {
            image.nodes = nodes(at(.nodes), count: live)
            result = Result { () throws(_PreorderImageFlaw) in
                try image.nodes.withUnsafeBufferPointer { (nodes) throws(_PreorderImageFlaw) in
                    try ViewTree(validating: image, nodes: nodes, typeMap: processType, textFlaws: textFlaws)
                }
            }
        }
        #else
        image.nodes = nodes(at(.nodes), count: live)
        result = Result { () throws(_PreorderImageFlaw) in try ViewTree(validating: image, typeMap: processType) }
        #endif
        switch result {
        case .success(let tree):
            if oneRoot { try checkOneRoot(tree, nodes: at(.nodes)) }
            return tree
        case .failure(let flaw): throw error(offset(of: flaw, at, version: counts.version), flaw.reason)
        }
    }

    /// Throws unless `tree` (just read, its nodes' section at `nodes`) has exactly one
    /// root; the error names the live count, or the second root's parent field.
    func checkOneRoot(_ tree: ViewTree, nodes: Int) throws(SnapshotError) {
        guard tree.count > 0 else { throw error(Field.liveCount, "the snapshot holds no node: a view tree has one root") }
        guard tree.rootCount > 1 else { return }
        // The first node is a root (the pre-order starts with one); find the next.
        var k = 1
        while load(nodes + SnapshotLayout.nodeSize * k + 4, as: Int32.self) >= 0 { k += 1 }
        throw error(nodes + SnapshotLayout.nodeSize * k + 4,
                    "the snapshot holds \(tree.rootCount) roots, node \(k) in pre-order the second: a view tree has one root")
    }

    /// The byte offset of the element a flaw names, in a snapshot of `version`.
    func offset(of flaw: _PreorderImageFlaw, _ at: (Section) -> Int, version: UInt32) -> Int {
        switch flaw.part {
        case .nodeSlot: at(.nodes) + SnapshotLayout.nodeSize * flaw.element
        case .nodeParent: at(.nodes) + SnapshotLayout.nodeSize * flaw.element + 4
        case .nodeType: at(.nodes) + SnapshotLayout.nodeSize * flaw.element + 12
        case .free: at(.free) + 4 * flaw.element
        case .slot: at(.generation) + 4 * flaw.element
        case .wideTags: at(.wideTags) + SnapshotLayout.wideTagSize * flaw.element
        case .geometry: at(.frameOrigin) + 16 * flaw.element
        case .attribute(let attribute): at(.starts(attribute)) + SnapshotLayout.attributeStartSize(version) * flaw.element
        // Version 2's parts (see `readColumns`).
        case .parent: at(.parent) + 4 * flaw.element
        case .type: at(.typeID) + 4 * flaw.element
        case .span: at(.span) + 8 * flaw.element
        case .tourToken: at(.tourToken) + 4 * flaw.element
        case .tourTag: at(.tourTag) + 4 * flaw.element
        case .tourType: at(.tourType) + 4 * flaw.element
        case .freeHead: Field.freeHead
        }
    }

    /// Version 2: the tree whose columns and index lie in the sections, checked in one pass
    /// (``ViewTree/init(validatingColumns:typeCount:unusedTypes:extras:owner:textFlaws:tourShare:)``)
    /// and, with an owner of the bytes, read in place. The pass runs with the file's own type
    /// numbers, beside the checksum's thread; then, once the checksum matches, the `types`
    /// are mapped to this process's ids (an id no node has by its name alone, the others by
    /// `typeFor`), and the two type columns copied, renumbered, unless the numbers are the
    /// same. `extras` holds the wide tags, geometry and attributes already read.
    func readColumns(
        counts: SnapshotLayout.Counts, at: (Section) -> Int, extras: _PreorderImage,
        types: [(name: String, isClass: Bool, unused: Bool, entry: Int)],
        typeFor: (_ name: String, _ isClass: Bool, _ offset: Int) throws(SnapshotError) -> TypeID,
        checksumMatches: () throws(SnapshotError) -> Void,
        textFlaws: () -> [(element: Int, reason: String)?], tourShare: _WorkShare<_TourCheck.Tally>? = nil,
        valuesInPlace: Bool = false
    ) throws(SnapshotError) -> ViewTree {
        #if _endian(big)
        throw error(Field.version, "version \(counts.version) snapshots are read on little-endian machines only")
        #else
        let slots = Int(counts.slots)
        let live = Int(counts.live)
        let freeHead: Int64 = load(Field.freeHead)
        guard freeHead >= -1 && freeHead < Int64(slots) else {
            throw error(Field.freeHead, "the free list starts at slot \(freeHead), not a slot of \(slots) (or -1)")
        }
        // The columns are read where they lie when the bytes are 8-aligned (a mapped file's,
        // an array's): bound to their types in place. Else from an aligned copy.
        guard let start = bytes.baseAddress, Int(bitPattern: start) % 8 == 0 else {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
            defer { copy.deallocate() }
            copy.copyMemory(from: bytes)
            let reader = SnapshotReader(bytes: UnsafeRawBufferPointer(copy), path: path, owner: nil, oneRoot: oneRoot)
            return try reader.readColumns(
                counts: counts, at: at, extras: extras, types: types, typeFor: typeFor, checksumMatches: checksumMatches, textFlaws: textFlaws,
                tourShare: tourShare)
        }
        func section<T>(_ s: Section, _ count: Int, as: T.Type) -> UnsafeBufferPointer<T> {
            UnsafeBufferPointer(start: UnsafeMutableRawPointer(mutating: start + at(s)).bindMemory(to: T.self, capacity: count), count: count)
        }
        let tourSlots = Int(counts.tourSlots!)
        let columns = _ColumnPointers(
            slotCount: slots, liveCount: live, freeHead: Int32(freeHead),
            generation: section(.generation, Int(counts.generation), as: UInt32.self),
            parent: section(.parent, slots, as: Int32.self), typeID: section(.typeID, slots, as: Int32.self),
            narrowTag: section(.narrowTag, slots, as: Int32.self), span: section(.span, slots, as: UInt64.self),
            token: section(.tourToken, tourSlots, as: Int32.self), tourTag: section(.tourTag, tourSlots, as: Int32.self),
            tourType: section(.tourType, tourSlots, as: Int32.self))
        // Not kept in a `Result`: the tree's storage must be its alone, for the renumbering
        // below to change it in place rather than copy it whole.
        var tree: ViewTree
        do {
            tree = try ViewTree(
                validatingColumns: columns, typeCount: types.count, unusedTypes: types.map(\.unused), extras: extras, owner: owner,
                textFlaws: textFlaws, tourShare: tourShare)
        } catch let flaw {
            throw error(offset(of: flaw, at, version: counts.version), flaw.reason)
        }
        // Type names are registered only from a snapshot whose checksum matches.
        try checksumMatches()
        let processType = try processTypes(types, typeFor: typeFor)
        if !processType.indices.allSatisfy({ processType[$0] == Int32($0) || types[$0].unused }) { tree._renumberTypes(processType) }
        if counts.version >= 5 {
            try readContent(
                into: &tree, counts: counts, at: at, parent: columns.parent, processType: processType,
                valuesInPlace: valuesInPlace, valueFlaw: valuesInPlace ? textFlaws()[NodeAttribute.allCases.count] : nil)
        }
        // A tree that reads its columns in place keeps the whole of the memory.
        if tree._borrowsMemory { (owner as? SnapshotMemory)?.lentFrom = 0 }
        if oneRoot { try checkOneRoot(tree, tokens: columns.token, parentAt: at(.parent)) }
        return tree
        #endif
    }

    /// Version 5: gives `tree` (just read, its `parent` column the file's) the content in
    /// the snapshot, checked as the rest is (every start within its texts and every length
    /// fitting, no content on a free slot, runs laid out in slot order, names in the type
    /// table), names renumbered by `processType`.
    ///
    /// With `valuesInPlace` (and `valueFlaw`, the first flaw of the values' texts, found apart
    /// in the pieces both threads share), the values' starts and texts are read in place, borrowed from
    /// the owner of the bytes as the attribute columns are, and so are the named
    /// attributes' texts; else they are checked here and copied into the tree's own memory.
    func readContent(
        into tree: inout ViewTree, counts: SnapshotLayout.Counts, at: (Section) -> Int, parent: UnsafeBufferPointer<Int32>,
        processType: [Int32], valuesInPlace: Bool = false, valueFlaw: (element: Int, reason: String)? = nil
    ) throws(SnapshotError) {
        let c = counts.content
        let noText = SnapshotLayout.noText
        let base = bytes.baseAddress!
        func texts(_ s: Section, _ n: UInt64) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: (base + at(s)).assumingMemoryBound(to: UInt8.self), count: Int(n))
        }
        let valueBytes = texts(.valueBytes, c.valueBytes)
        var text: _TextColumn
        if valuesInPlace, let owner {
            // The values, in place: the flaw found apart merged with the free slots (the tree's
            // free list, checked), as the check with `parent` below reports it.
            let starts = _TextStarts(base: base + at(.valueStarts), count: Int(c.valueStarts), isNarrow: true)
            let free = sequence(state: tree._storage.freeHead) { f -> Int32? in
                guard f != _TreeStorage.none else { return nil }
                defer { f = _TreeStorage.nextFree(parent[Int(f)]) }
                return f
            }
            if let (slot, reason) = ViewTree._textFlaw(found: valueFlaw, starts: starts, free: free) {
                throw error(at(.valueStarts) + 4 * slot, "value: \(reason)")
            }
            text = starts.count == 0 ? _TextColumn() : _TextColumn(borrowing: _BorrowedTexts(starts: starts, bytes: valueBytes, owner: owner))
        } else {
            // The values: a text column with narrow starts, checked as the attributes' are.
            let valueStarts: [UInt32] = column(at(.valueStarts), count: Int(c.valueStarts))
            let valueFlaw = valueStarts.withUnsafeBufferPointer { starts in
                ViewTree._attributeTextFlaw(starts: _TextStarts(narrow: starts), bytes: valueBytes, parent: parent)
            }
            if let (slot, reason) = valueFlaw { throw error(at(.valueStarts) + 4 * slot, "value: \(reason)") }
            text = _TextColumn(start: valueStarts.map { $0 == noText ? -1 : Int($0) }, bytes: Array(valueBytes))
            if text.start.isEmpty { text = _TextColumn() }
        }
        // The named attributes: runs in slot order from entry 0.
        var named = _AttributeRuns()
        // The runs' first entries (an `Int32` a slot) read in place with the values, else
        // copied: a copy of XMark's 19 MB was most of this function's time on a cold query.
        let first: _Column<Int32>
        if valuesInPlace, let owner, c.namedFirst > 0 {
            first = _Column(borrowing: (base + at(.namedFirst)).bindMemory(to: Int32.self, capacity: Int(c.namedFirst)), count: Int(c.namedFirst), owner: owner)
        } else {
            first = _Column(column(at(.namedFirst), count: Int(c.namedFirst)) as [Int32])
        }
        let names: [UInt32] = column(at(.namedNames), count: Int(c.namedEntries))
        let valueAt: [UInt32] = column(at(.namedValueStarts), count: Int(c.namedEntries))
        let namedBytes = texts(.namedValueBytes, c.namedValueBytes)
        // A slot's parent says whether it is free: read only if some slot is (a cold query
        // of XMark read a line of the parent column for each of its 449,848 slots with a run).
        // The slots in two halves, the second on a thread of its own for a large column (a
        // cold query of XMark spent 12% of its samples reading its 4.7 M first entries on
        // one thread while the other was idle); each half walked from its first run, and
        // the halves chained here in slot order, so the first flaw is the one a walk of the
        // whole would meet, with the same words.
        let (firstAt, namesAt, valuesAt) = (at(.namedFirst), at(.namedNames), at(.namedValueStarts))
        let (firstBase, parentBase, bytesBase) = (UInt(bitPattern: first.base), UInt(bitPattern: parent.baseAddress), UInt(bitPattern: namedBytes.baseAddress))
        let (slotCount, byteCount, anyFree, typeCount) = (first.count, namedBytes.count, counts.free > 0, processType.count)
        let runs = { @Sendable (slots: Range<Int>) -> _RunPiece in
            Self.checkRuns(
                slots, first: UnsafePointer(bitPattern: firstBase)!, names: names, valueAt: valueAt,
                namedBytes: UnsafeBufferPointer(start: UnsafePointer(bitPattern: bytesBase), count: byteCount),
                parent: UnsafePointer(bitPattern: parentBase), anyFree: anyFree, typeCount: typeCount,
                places: (firstAt, namesAt, valuesAt))
        }
        let half = slotCount / 2
        // `first`'s memory (a copy's, where it is not read in place) is read by address on
        // the side thread: kept alive until that thread is joined.
        let flaw = withExtendedLifetime(first) {
            let second = _SideTask(worthIt: slotCount >= Self.runThreadSlots) { runs(half ..< slotCount) }
            return Self.runsFlaw([runs(0 ..< half), second.wait()], entries: names.count, places: (firstAt, namesAt))
        }
        if let (place, reason) = flaw { throw error(place, reason) }
        // Checked: the runs are the file's, each name renumbered (its last-entry mark kept).
        if !names.isEmpty {
            let mark = _AttributeRuns.lastBit
            named.first = first
            named.name = names.map { UInt32(bitPattern: processType[Int($0 & ~mark)]) | $0 & mark }
            named.value = valueAt.map { Int($0) }
            named.texts = if valuesInPlace, let owner {
                _TextColumn(borrowing: _BorrowedTexts(starts: _TextStarts(base: nil, count: 0, isNarrow: true), bytes: namedBytes, owner: owner))
            } else {
                _TextColumn(start: [], bytes: Array(namedBytes))
            }
        }
        tree._adoptContent(text: text, attributes: named)
    }

    /// Below this many slots the named attributes' runs are checked on one thread.
    static let runThreadSlots = 1 << 20

    /// What ``checkRuns(_:first:names:valueAt:namedBytes:parent:anyFree:typeCount:places:)``
    /// found in a range of slots: its first slot with a run (-1 for none) and that run's
    /// first entry, the entry after its last run, and the first flaw (its place in the file
    /// and what is wrong) if the range has one.
    struct _RunPiece: Sendable {
        var slot = -1
        var start: Int32 = 0
        var end = 0
        var flaw: (place: Int, reason: String)?
    }

    /// The first flaw of the runs checked in `pieces` (ranges of slots in order, together
    /// every slot), chained: each piece's first run must start where the runs before it
    /// end, and the last end at `entries`. `places`: the file offsets of the first entries
    /// and of the names.
    static func runsFlaw(_ pieces: [_RunPiece], entries: Int, places: (first: Int, names: Int)) -> (place: Int, reason: String)? {
        var next = 0
        for piece in pieces where piece.slot >= 0 {
            guard piece.start == Int32(next) else {
                return (places.first + 4 * piece.slot, runStartFlaw(slot: piece.slot, start: piece.start, next: next))
            }
            if let flaw = piece.flaw { return flaw }
            next = piece.end
        }
        guard next == entries else { return (places.names + 4 * next, "named attribute \(next) belongs to no slot's run") }
        return nil
    }

    static func runStartFlaw(slot: Int, start: Int32, next: Int) -> String {
        "slot \(slot)'s named attributes start at entry \(start), not \(next) (runs follow each other in slot order)"
    }

    /// The named attributes' runs of the slots `slots`, checked as in ``readContent``: each
    /// run where the one before it ends, none on a free slot (`parent`, read only if
    /// `anyFree`), each name in the type table of `typeCount`, each value within
    /// `namedBytes`. The range's first run is taken to start where it says (its caller
    /// checks that against the runs before it); one that says a start outside the entries
    /// is left to that check, unwalked. `places`: the file offsets of the first entries,
    /// the names and the value starts, for the flaws.
    static func checkRuns(
        _ slots: Range<Int>, first: UnsafePointer<Int32>, names: [UInt32], valueAt: [UInt32], namedBytes: UnsafeBufferPointer<UInt8>,
        parent: UnsafePointer<Int32>?, anyFree: Bool, typeCount: Int, places: (first: Int, names: Int, values: Int)
    ) -> _RunPiece {
        var piece = _RunPiece()
        var next = 0
        for x in slots where first[x] != -1 {
            if piece.slot < 0 {
                (piece.slot, piece.start) = (x, first[x])
                guard first[x] >= 0 && Int(first[x]) <= names.count else { return piece }
                next = Int(first[x])
            }
            let place = places.first + 4 * x
            guard first[x] == Int32(next) else {
                piece.flaw = (place, runStartFlaw(slot: x, start: first[x], next: next))
                return piece
            }
            if anyFree, let parent, _TreeStorage.isFree(parent[x]) {
                piece.flaw = (place, "free slot \(x) has named attributes")
                return piece
            }
            while true {
                guard next < names.count else {
                    piece.flaw = (place, "slot \(x)'s named attributes run past the \(names.count) entries")
                    return piece
                }
                let name = names[next] & ~_AttributeRuns.lastBit
                guard Int(name) < typeCount else {
                    piece.flaw = (places.names + 4 * next, "named attribute \(next) has name \(name), not in the type table of \(typeCount)")
                    return piece
                }
                let v = valueAt[next]
                guard v != SnapshotLayout.noText, Int(v) < namedBytes.count, let (count, from) = _TextColumn.checkedLength(in: namedBytes, at: Int(v)),
                      count >= 0, count <= namedBytes.count - from else {
                    piece.flaw = (places.values + 4 * next, "named attribute \(next)'s value at \(v) lies outside the \(namedBytes.count) bytes")
                    return piece
                }
                let last = names[next] & _AttributeRuns.lastBit != 0
                next += 1
                if last { break }
            }
        }
        piece.end = next
        return piece
    }

    /// This process's id (raw value) for each entry of a snapshot's type table: by
    /// `typeFor`, or for an id no node has (version 2 lists them to keep the numbering) by
    /// its name alone, asking `typeFor` nothing (a view factory need not know it; the
    /// structural pass refuses a node of that type). Registers names: call only once the
    /// checksum matches.
    func processTypes(
        _ types: [(name: String, isClass: Bool, unused: Bool, entry: Int)],
        typeFor: (_ name: String, _ isClass: Bool, _ offset: Int) throws(SnapshotError) -> TypeID
    ) throws(SnapshotError) -> [Int32] {
        var ids: [Int32] = []
        ids.reserveCapacity(types.count)
        for type in types {
            ids.append(type.unused
                ? TypeRegistry.shared.idForLoading(name: type.name, isClass: type.isClass).rawValue
                : try typeFor(type.name, type.isClass, type.entry).rawValue)
        }
        return ids
    }

    /// ``checkOneRoot(_:nodes:)`` for version 2: the second root is the second node entered
    /// with no node open; the error names its parent field.
    func checkOneRoot(_ tree: ViewTree, tokens: UnsafeBufferPointer<Int32>, parentAt: Int) throws(SnapshotError) {
        guard tree.count > 0 else { throw error(Field.liveCount, "the snapshot holds no node: a view tree has one root") }
        guard tree.rootCount > 1 else { return }
        var depth = 0
        var roots = 0
        for t in tokens.prefix(2 * tree.count) {
            if t >= 0 {
                if depth == 0 {
                    roots += 1
                    if roots == 2 {
                        throw error(parentAt + 4 * Int(t), "the snapshot holds \(tree.rootCount) roots, slot \(t) the second: a view tree has one root")
                    }
                }
                depth += 1
            } else {
                depth -= 1
            }
        }
    }

    /// Whether a node in memory is laid out as in the file (slot, parent, tag, type, 4 bytes
    /// each), so that the file's nodes can be copied as they are.
    static let nodeLayoutIsTheFiles: Bool = {
        typealias N = _PreorderImage.Node
        return MemoryLayout<N>.stride == SnapshotLayout.nodeSize && MemoryLayout<N>.offset(of: \.slot) == 0
            && MemoryLayout<N>.offset(of: \.parent) == 4 && MemoryLayout<N>.offset(of: \.tag) == 8 && MemoryLayout<N>.offset(of: \.type) == 12
    }()

    /// `count` pre-order nodes from `offset`.
    func nodes(_ offset: Int, count: Int) -> [_PreorderImage.Node] {
        // None makes no array: `init(unsafeUninitializedCapacity: 0)` writes into the
        // standard library's shared empty storage, a race between two loading threads.
        guard count > 0 else { return [] }
        return [_PreorderImage.Node](unsafeUninitializedCapacity: count) { buffer, initialized in
            #if _endian(little)
            if Self.nodeLayoutIsTheFiles {
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: bytes.baseAddress! + offset, byteCount: count * SnapshotLayout.nodeSize)
                initialized = count
                return
            }
            #endif
            for k in 0 ..< count {
                let at = offset + SnapshotLayout.nodeSize * k
                buffer.baseAddress!.advanced(by: k).initialize(to: _PreorderImage.Node(
                    slot: load(at), parent: load(at + 4), tag: load(at + 8), type: load(at + 12)))
            }
            initialized = count
        }
    }
}

/// The memory of a snapshot file being loaded: the file mapped read-only, or read into an
/// anonymous mapping. A tree that reads its attribute texts in place keeps it; once the load
/// is over, everything before the texts is unmapped (``keepOnlyLent()``), and the rest when
/// the last holder lets go. Written only while the load runs, on its thread; after that
/// nobody writes it, so `@unchecked Sendable`.
final class SnapshotMemory: @unchecked Sendable {
    /// Where the memory starts, and its length, as mapped.
    let start: UnsafeMutableRawPointer
    let count: Int
    /// The offset from which the loaded tree reads in place (the text sections), if it does.
    var lentFrom: Int?
    /// How many bytes from `start` are unmapped already.
    private var unmapped = 0

    /// The file mapped read-only: `count` bytes at `start`, from `mmap`.
    init(mapped start: UnsafeMutableRawPointer, count: Int) {
        (self.start, self.count) = (start, count)
    }

    /// `count` bytes (at least one) of fresh anonymous memory, advised for huge pages and
    /// written by the reads that fault its pages in; `nil` if it cannot be mapped.
    init?(allocating count: Int) {
        guard let p = mmap(nil, max(count, 1), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED else { return nil }
        (start, self.count) = (p, max(count, 1))
        // Huge pages, faulted in by the reads (two threads' for a large file) rather than
        // all mapped first on this thread (in-process, read loads of a 62 MB file: 11.3 to
        // 11.9 ms mapped first, 10.4 to 10.6 ms faulted in).
        _prepareFreshMemory(p, bytes: count, populate: false)
    }

    /// Unmaps the whole pages before ``lentFrom`` (everything but the texts a tree reads in
    /// place, give or take a page), and takes back the sequential-read advice of the load
    /// for the rest (`MADV_NORMAL`: the tree reads its texts at random).
    func keepOnlyLent() {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let cut = (lentFrom ?? 0) / page * page
        if cut > unmapped {
            munmap(start + unmapped, cut - unmapped)
            unmapped = cut
        }
        if count > unmapped { _ = madvise(start + unmapped, count - unmapped, MADV_NORMAL) }
    }

    /// From how many bytes on the pages are let go on two threads (``deinit``).
    static let teardownThreadBytes = 1 << 26

    /// Unmaps what is left. A large mapping's pages are first let go on two threads at once
    /// (`MADV_DONTNEED` of each half: the kernel zaps two ranges side by side under its read
    /// lock, where `munmap`, or the process's exit, zaps them one by one under its write
    /// lock): a 512 MB snapshot's `munmap` took 15 ms of a 80 ms query process.
    deinit {
        guard count > unmapped else { return }
        let (from, length) = (start + unmapped, count - unmapped)
        if length >= Self.teardownThreadBytes {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let half = length / 2 / page * page
            let (second, rest) = (UInt(bitPattern: from + half), length - half)
            let side = _SideTask { () -> Int32 in madvise(UnsafeMutableRawPointer(bitPattern: second), rest, MADV_DONTNEED) }
            _ = madvise(from, half, MADV_DONTNEED)
            _ = side.wait()
        }
        munmap(from, length)
    }
}
