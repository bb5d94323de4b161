/// A stack in memory its owner alone uses (the scanners' open containers and elements, a
/// start tag's attributes, the bytes of a text being decoded): push, pop and top without an
/// array's uniqueness checks (docs/results.md has their cost). Doubles when full.
struct _RawStack<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The elements on the stack.
    private(set) var count = 0

    init(capacity: Int = 64) {
        precondition(capacity > 0, "a stack with room for \(capacity) elements")
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { base.deallocate() }

    @inline(always)
    mutating func push(_ element: Element) {
        if count == capacity { grow() }
        base[count] = element
        count &+= 1
    }

    /// Drops the top element. The stack must not be empty.
    @inline(always)
    mutating func pop() {
        assert(count > 0, "pop() on an empty stack")
        count &-= 1
    }

    /// The top element. The stack must not be empty.
    @inline(always)
    var top: Element {
        assert(count > 0, "top of an empty stack")
        return base[count &- 1]
    }

    /// The element at `i` (from the bottom). `i` must be below `count`.
    @inline(always)
    subscript(i: Int) -> Element {
        assert(i >= 0 && i < count, "index \(i) of a stack of \(count)")
        return base[i]
    }

    /// Empties the stack, keeping its memory.
    @inline(always)
    mutating func removeAll() { count = 0 }

    /// Pushes the `n` elements at `p`, in order.
    @inline(always)
    mutating func append(_ p: UnsafePointer<Element>, count n: Int) {
        if count &+ n > capacity { grow(toHold: count &+ n) }
        (base + count).update(from: p, count: n)
        count &+= n
    }

    /// Room for `n` more elements, and where they go: the caller writes up to `n` of them
    /// there and then counts them with ``didAppend(_:)``.
    @inline(always)
    mutating func reserveEnd(_ n: Int) -> UnsafeMutablePointer<Element> {
        if count &+ n > capacity { grow(toHold: count &+ n) }
        return base + count
    }

    /// Counts `n` elements written where ``reserveEnd(_:)`` said.
    @inline(always)
    mutating func didAppend(_ n: Int) { count &+= n }

    /// The elements, bottom first (valid until the next push).
    @inline(always)
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    @inline(never)
    private mutating func grow() { grow(toHold: count &+ 1) }

    @inline(never)
    private mutating func grow(toHold n: Int) {
        let room = Swift.max(2 * capacity, n)
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: room)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        (base, capacity) = (bigger, room)
    }
}

extension _RawStack where Element == UInt8 {
    /// Pushes the `n` bytes at `p`, eight at a time with no call: reads up to seven bytes
    /// past them (the caller's padding: a scanner's window has 16 zero bytes past its end)
    /// and writes as many past the new top (room kept, then overwritten or never read).
    @inline(always)
    mutating func appendWords(_ p: UnsafePointer<UInt8>, count n: Int) {
        _copyWords(from: p, to: reserveEnd(n &+ 8), count: n)
        didAppend(n)
    }
}

/// Copies `count` bytes from `from` to `to` a word at a time, with no call: reads and
/// writes up to seven bytes past them (the callers' padding and room). How the scanners
/// copy the runs of text they decode.
@inline(always)
func _copyWords(from: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt8>, count: Int) {
    var k = 0
    while k < count {
        UnsafeMutableRawPointer(to + k).storeBytes(of: UnsafeRawPointer(from + k).loadUnaligned(as: UInt64.self), as: UInt64.self)
        k &+= 8
    }
}
