import CColumnMemory
#if canImport(Glibc)
import Glibc
#endif

/// The memory of a ``_Column``: elements this process allocated, or a range of memory that
/// `owner` keeps alive (a mapped snapshot file, say), which a column only reads.
///
/// A buffer of at least ``mapThreshold`` bytes is an anonymous mapping of its own (mmap),
/// not heap memory, with eight times its room in address space held beyond it (no access,
/// no memory), so that a column grows in place by opening pages to writes (mprotect, see
/// ``grown(toCapacity:)``), and past that by moving its pages (mremap), never by copying
/// its elements: growing a 40 MB column costs a system call, not 40 MB of copying, and no
/// mutation stalls on it.
@usableFromInline
package final class _ColumnBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    @usableFromInline package let base: UnsafeMutablePointer<Element>
    @usableFromInline package let capacity: Int
    /// The owner of borrowed memory; `nil` when the buffer allocated `base` itself.
    @usableFromInline package let owner: AnyObject?
    /// The bytes of `base`'s mapping open to reads and writes (the capacity's whole pages)
    /// when the buffer mapped it; 0 for heap memory, for borrowed memory, and once a grown
    /// buffer has taken the mapping over.
    @usableFromInline package var mappedBytes: Int
    /// The bytes of address space the mapping holds: ``mappedBytes``, then room to grow
    /// into that no page backs yet (0 when ``mappedBytes`` is).
    @usableFromInline package var reservedBytes: Int
    /// Whether `base` came from mmap (a mapping of its own, or given up), not from the heap.
    @usableFromInline package let isMapping: Bool

    /// Buffers of this many bytes or more are mappings of their own.
    @usableFromInline package static var mapThreshold: Int { 128 << 10 }

    /// Room for at least `capacity` uninitialized elements (trivial ones: nothing to
    /// deinitialize); a mapped buffer takes all of its whole pages.
    @usableFromInline
    package init(capacity: Int) {
        let bytes = capacity * MemoryLayout<Element>.stride
        #if os(Linux)
        if bytes >= Self.mapThreshold, let (p, length, reserve) = Self.map(bytes) {
            base = p.bindMemory(to: Element.self, capacity: length / MemoryLayout<Element>.stride)
            self.capacity = length / MemoryLayout<Element>.stride
            (mappedBytes, reservedBytes) = (length, reserve)
            isMapping = true
            owner = nil
            return
        }
        #endif
        self.capacity = capacity
        base = .allocate(capacity: capacity)
        (mappedBytes, reservedBytes) = (0, 0)
        isMapping = false
        owner = nil
    }

    /// `capacity` elements at `base`, valid as long as `owner` lives, never written.
    @usableFromInline
    package init(borrowing base: UnsafePointer<Element>, capacity: Int, owner: AnyObject) {
        self.base = UnsafeMutablePointer(mutating: base)
        self.capacity = capacity
        self.owner = owner
        (mappedBytes, reservedBytes) = (0, 0)
        isMapping = false
    }

    private init(mapping base: UnsafeMutableRawPointer, bytes: Int, reserved: Int) {
        self.base = base.bindMemory(to: Element.self, capacity: bytes / MemoryLayout<Element>.stride)
        capacity = bytes / MemoryLayout<Element>.stride
        (mappedBytes, reservedBytes) = (bytes, reserved)
        isMapping = true
        owner = nil
    }

    /// `bytes` rounded up to whole pages.
    private static func pageRounded(_ bytes: Int) -> Int {
        let page = 4096
        return (bytes + page - 1) / page * page
    }

    /// The address space held for a mapping of `length` bytes: eight times as much.
    private static func reservation(for length: Int) -> Int { 8 * length }

    #if os(Linux)
    /// A new mapping with at least `bytes` open and a reservation beyond: its address, the
    /// open length and the reserved one; `nil` when the kernel refuses.
    private static func map(_ bytes: Int) -> (UnsafeMutableRawPointer, Int, Int)? {
        let length = pageRounded(bytes)
        let reserve = reservation(for: length)
        guard let p = mmap(nil, reserve, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0), p != MAP_FAILED else { return nil }
        guard mprotect(p, length, PROT_READ | PROT_WRITE) == 0 else {
            munmap(p, reserve)
            return nil
        }
        return (p, length, reserve)
    }
    #endif

    /// This mapped buffer's elements in a mapping of at least `capacity` elements, with no
    /// copy: within the reservation, the pages after the old room open to writes (the
    /// mapping stays where it is); beyond it, the pages move to a larger reservation
    /// (mremap). This buffer gives the mapping up (it must not be read again). `nil` when the
    /// kernel refuses, and this buffer keeps its elements. The caller holds the only
    /// reference to this buffer.
    ///
    /// - Complexity: one or three system calls: O(1) within the reservation, else page-table
    ///   updates; no copy of the elements.
    @usableFromInline
    package func grown(toCapacity capacity: Int) -> _ColumnBuffer? {
        #if os(Linux)
        precondition(mappedBytes > 0 && owner == nil, "growing a buffer that is not a mapping of its own")
        let length = Self.pageRounded(capacity * MemoryLayout<Element>.stride)
        guard length > mappedBytes else { return nil }
        let raw = UnsafeMutableRawPointer(base)
        if length <= reservedBytes {
            guard mprotect(raw + mappedBytes, length - mappedBytes, PROT_READ | PROT_WRITE) == 0 else { return nil }
            defer { (mappedBytes, reservedBytes) = (0, 0) }
            return _ColumnBuffer(mapping: raw, bytes: length, reserved: reservedBytes)
        }
        // Past the reservation: give its unused part back, move the pages to a larger one.
        if reservedBytes > mappedBytes { munmap(raw + mappedBytes, reservedBytes - mappedBytes) }
        reservedBytes = mappedBytes
        let reserve = Self.reservation(for: length)
        guard let q = rv_remap(raw, mappedBytes, reserve) else { return nil }
        // The pages past the new room stay reserved: untouched, so this costs no copy.
        mprotect(q + length, reserve - length, PROT_NONE)
        (mappedBytes, reservedBytes) = (0, 0)
        return _ColumnBuffer(mapping: q, bytes: length, reserved: reserve)
        #else
        return nil
        #endif
    }

    /// This mapped buffer's first elements in a mapping of `capacity` elements' whole pages
    /// at the same address, the pages past them given back to the system (their contents
    /// are lost) and held again as reservation. This buffer gives the mapping up. `nil`
    /// when that would not give back a page, or the kernel refuses. The caller holds the
    /// only reference to this buffer.
    ///
    /// - Complexity: two system calls, O(pages given back).
    @usableFromInline
    package func shrunk(toCapacity capacity: Int) -> _ColumnBuffer? {
        #if os(Linux)
        precondition(mappedBytes > 0 && owner == nil, "shrinking a buffer that is not a mapping of its own")
        let length = Self.pageRounded(Swift.max(1, capacity) * MemoryLayout<Element>.stride)
        guard length < mappedBytes else { return nil }
        let raw = UnsafeMutableRawPointer(base)
        guard madvise(raw + length, mappedBytes - length, MADV_DONTNEED) == 0,
              mprotect(raw + length, mappedBytes - length, PROT_NONE) == 0 else { return nil }
        defer { (mappedBytes, reservedBytes) = (0, 0) }
        return _ColumnBuffer(mapping: raw, bytes: length, reserved: reservedBytes)
        #else
        return nil
        #endif
    }

    deinit {
        guard owner == nil else { return }
        guard isMapping else { return base.deallocate() }
        // A buffer whose mapping went to a grown one has nothing left to unmap.
        #if os(Linux)
        if reservedBytes > 0 { munmap(UnsafeMutableRawPointer(base), reservedBytes) }
        #endif
    }
}

/// A growable column of trivial elements, the memory of the tree's node columns and of its
/// index's arrays. Its elements are its own, or borrowed from memory another object owns
/// (``init(borrowing:count:owner:)``: a mapped snapshot file, say) and only read.
///
/// Unlike an array, a column is not copied on write: copies of a column share its
/// elements, and a write through one is seen through the others. ``_TreeStorage`` is what
/// is copied on write, as a whole (``ViewTree`` checks that it is uniquely referenced
/// before every mutation), and its copy copies its columns (``copied()``); a storage whose
/// columns are borrowed is copied likewise before its first mutation. So a write never
/// pays an array's per-write uniqueness check, which the optimizer cannot hoist for a type
/// of ours as it does for `Array`. A copy (`let tour = storage.tour`) is for reading
/// while nothing writes.
///
/// Reads cost what an array's do: the element pointer is kept in the column itself, so an
/// element is one load behind it, after a bounds check.
@usableFromInline @frozen
package struct _Column<Element: BitwiseCopyable> {
    /// `nil` only for a column that never had room for an element.
    @usableFromInline package var buffer: _ColumnBuffer<Element>?
    /// `buffer.base`, or a non-null placeholder never read (count 0) when there is none.
    @usableFromInline package var base: UnsafeMutablePointer<Element>
    @usableFromInline package var count: Int

    @inlinable
    package init() {
        buffer = nil
        base = UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment)!
        count = 0
    }

    /// `count` elements that `initialize` must all initialize (it gets them uninitialized).
    ///
    /// - Complexity: O(count), plus `initialize`.
    @inlinable
    package init(count: Int, initializingWith initialize: (UnsafeMutableBufferPointer<Element>) throws -> Void) rethrows {
        self.init()
        guard count > 0 else { return }
        let buffer = _ColumnBuffer<Element>(capacity: count)
        try initialize(UnsafeMutableBufferPointer(start: buffer.base, count: count))
        (self.buffer, base, self.count) = (buffer, buffer.base, count)
    }

    /// `count` copies of `value`.
    @inlinable
    package init(repeating value: Element, count: Int) {
        self.init(count: count) { $0.initialize(repeating: value) }
    }

    /// The elements of `elements`, copied.
    @inlinable
    package init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        append(contentsOf: elements)
    }

    /// `count` elements read in place at `base`, which `owner` keeps valid and unchanged
    /// for as long as it lives; the column keeps `owner` alive. Never written: its
    /// storage copies it (``copied()``) before a mutation.
    @inlinable
    package init(borrowing base: UnsafePointer<Element>, count: Int, owner: AnyObject) {
        self.init()
        guard count > 0 else { return }
        let buffer = _ColumnBuffer(borrowing: base, capacity: count, owner: owner)
        (self.buffer, self.base, self.count) = (buffer, buffer.base, count)
    }

    /// A column with the same elements in memory of its own: what a copied storage holds.
    ///
    /// - Complexity: O(count)
    @inlinable
    package func copied() -> _Column {
        _Column(count: count) { $0.baseAddress!.initialize(from: base, count: count) }
    }

    /// Room for elements without a reallocation: 0 for a borrowed column.
    @inlinable package var capacity: Int {
        guard let buffer, buffer.owner == nil else { return 0 }
        return buffer.capacity
    }

    /// The bytes of the column's own mapping (see ``_ColumnBuffer``), 0 for heap or
    /// borrowed memory: memory an allocator's statistics do not count.
    @inlinable package var mappedBytes: Int { buffer?.mappedBytes ?? 0 }

    /// Whether the elements are read in place from memory another object owns.
    @inlinable package var isBorrowed: Bool { buffer?.owner != nil }

    @inlinable package var isEmpty: Bool { count == 0 }

    @inlinable package var indices: Range<Int> { 0 ..< count }

    @inlinable
    package subscript(i: Int) -> Element {
        @inline(__always) unsafeAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "column index out of range")
            return UnsafePointer(base + i)
        }
        @inline(__always) unsafeMutableAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "column index out of range")
            assert(!isBorrowed, "a write to a borrowed column")
            return base + i
        }
    }

    /// Makes room for at least `minimum` elements: twice the old room when `growing`
    /// (appends) and that is more, so that appends stay amortized O(1).
    ///
    /// A column whose buffer is a mapping of its own (see ``_ColumnBuffer``) grows by a
    /// sixteenth, not by doubling, and in place or by moving its pages, not by copying its
    /// elements (unless another column shares the buffer): growth stays O(1) amortized per append, the slack
    /// under a sixteenth, and no single growth copies the column.
    @inlinable @inline(never)
    package mutating func reallocate(capacity minimum: Int, growing: Bool) {
        let old = capacity
        let mapped = (buffer?.mappedBytes ?? 0) > 0
        let grown = mapped ? old + old / 16 : 2 * old
        let room = minimum > old && growing ? Swift.max(minimum, grown) : Swift.max(minimum, count)
        guard room > 0 else { return }
        if mapped && room > old && isKnownUniquelyReferenced(&buffer), let moved = buffer.unsafelyUnwrapped.grown(toCapacity: room) {
            (buffer, base) = (moved, moved.base)
            return
        }
        let fresh = _ColumnBuffer<Element>(capacity: room)
        fresh.base.initialize(from: base, count: count)
        (buffer, base) = (fresh, fresh.base)
    }

    @inlinable @inline(__always)
    package mutating func append(_ element: Element) {
        if _slowPath(count == (buffer?.capacity ?? 0)) { reallocate(capacity: count &+ 1, growing: true) }
        assert(!isBorrowed, "a write to a borrowed column")
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inlinable
    package mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        var iterator = elements.makeIterator()
        let n = elements.underestimatedCount
        if n > 0 {
            // The promised elements straight into the room made for them, one check in all.
            if count + n > capacity { reallocate(capacity: count + n, growing: true) }
            for _ in 0 ..< n {
                guard let e = iterator.next() else { preconditionFailure("a sequence gave fewer elements than its underestimatedCount") }
                (base + count).initialize(to: e)
                count &+= 1
            }
        }
        while let e = iterator.next() { append(e) }
    }

    /// Grows the column by `n` elements left as the memory holds them (the elements are
    /// trivial): for a writer that writes each of them before anything reads it, one check
    /// for room and no first write of zeros.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable @inline(__always)
    package mutating func appendUnwritten(_ n: Int) {
        precondition(n >= 0, "appendUnwritten(\(n))")
        if count &+ n > capacity { reallocate(capacity: count &+ n, growing: true) }
        assert(!isBorrowed, "a write to a borrowed column")
        count &+= n
    }

    @inlinable
    package mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "removeLast(\(k)) of a column of \(count)")
        count &-= k
    }

    /// Gives back the room past the elements, leaving a sixteenth of them spare, when more
    /// than an eighth is spare and the buffer is a mapping of its own (see
    /// ``_ColumnBuffer/shrunk(toCapacity:)``); otherwise nothing. No element is copied.
    ///
    /// - Complexity: O(1) system calls.
    package mutating func giveBackSpareMappedRoom() {
        let old = capacity
        guard (buffer?.mappedBytes ?? 0) > 0, old - count > count / 8, isKnownUniquelyReferenced(&buffer),
              let smaller = buffer.unsafelyUnwrapped.shrunk(toCapacity: count + count / 16) else { return }
        (buffer, base) = (smaller, smaller.base)
    }

    @inlinable
    package mutating func reserveCapacity(_ n: Int) {
        if n > capacity { reallocate(capacity: n, growing: false) }
    }

    /// Gives back the spare capacity when at least an eighth of it is spare (as
    /// `Array._trimCapacity()` does); a borrowed column has none.
    ///
    /// - Complexity: O(count) when it copies, else O(1).
    @inlinable
    package mutating func _trimCapacity() {
        guard let buffer, buffer.owner == nil, buffer.capacity - count > count / 8 else { return }
        self = copied()
    }

    @inlinable
    package func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        defer { _fixLifetime(buffer) }
        return try body(UnsafeBufferPointer(start: base, count: count))
    }

    @inlinable
    package mutating func withUnsafeMutableBufferPointer<R, E: Error>(_ body: (UnsafeMutableBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        assert(!isBorrowed, "a write to a borrowed column")
        defer { _fixLifetime(buffer) }
        return try body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    /// The elements as an array.
    @inlinable
    package var array: [Element] { withUnsafeBufferPointer { Array($0) } }
}

extension _Column: @unchecked Sendable where Element: Sendable {}

extension _Column: RandomAccessCollection, MutableCollection {
    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { count }
    @inlinable package func index(after i: Int) -> Int { i + 1 }
    @inlinable package func index(before i: Int) -> Int { i - 1 }
}

extension _Column: ExpressibleByArrayLiteral {
    @inlinable
    package init(arrayLiteral elements: Element...) { self.init(elements) }
}


extension _Column {
    /// `count` copies of `value`, in memory the kernel may map with huge pages when the
    /// column is large; see `Array._large(count:initializingWith:)`.
    ///
    /// - Complexity: O(count)
    @inlinable
    package static func _large(repeating value: Element, count: Int) -> _Column {
        _Column(count: count) { buffer in
            if let base = buffer.baseAddress { _prepareFreshMemory(UnsafeMutableRawPointer(base), bytes: count * MemoryLayout<Element>.stride) }
            buffer.initialize(repeating: value)
        }
    }
}
