/// A stack in memory its owner alone uses (the scanners' open containers and elements):
/// push, pop and top without an array's uniqueness checks (docs/results.md has their cost).
/// Doubles when full.
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

    @inline(__always)
    mutating func push(_ element: Element) {
        if count == capacity { grow() }
        base[count] = element
        count &+= 1
    }

    /// Drops the top element. The stack must not be empty.
    @inline(__always)
    mutating func pop() {
        assert(count > 0, "pop() on an empty stack")
        count &-= 1
    }

    /// The top element. The stack must not be empty.
    @inline(__always)
    var top: Element {
        assert(count > 0, "top of an empty stack")
        return base[count &- 1]
    }

    /// The element at `i` (from the bottom). `i` must be below `count`.
    @inline(__always)
    subscript(i: Int) -> Element {
        assert(i >= 0 && i < count, "index \(i) of a stack of \(count)")
        return base[i]
    }

    /// Empties the stack, keeping its memory.
    @inline(__always)
    mutating func removeAll() { count = 0 }

    @inline(never)
    private mutating func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: 2 * capacity)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        (base, capacity) = (bigger, 2 * capacity)
    }
}
