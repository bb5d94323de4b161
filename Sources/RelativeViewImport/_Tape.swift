import RelativeViewCore
import RelativeViewEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A scan on one thread and the tree's building on another: the scanner writes the calls
/// it would make on a builder to a tape (``_TapeWriter``), in chunks; the caller's thread
/// replays each chunk into the builder as it comes (``_TapeChunk/replay(into:)``). On this
/// project's 2-core machines a whole XML import is about half scanning (bytes, names,
/// references, checks) and half building (columns, texts, attributes, pages), so the two
/// halves overlap. What is built is what the scanner would have built directly: the same
/// calls in the same order.
enum _PipelinedScan {
    /// A file is scanned on a thread of its own from this size on (a thread costs tens of
    /// microseconds; a chunk of tape, a few hundred).
    static let minimumBytes = 1 << 20
}

/// A document's source handed to the scanning thread: a file's descriptor and path, or the
/// address of bytes in memory that the caller keeps alive until the scan has ended.
struct _SendableSource: @unchecked Sendable {
    let source: _ByteSource
    init(_ source: _ByteSource) { self.source = source }
}

/// A piece of tape: operations (a code in the low byte, a type id in the high 32 bits,
/// and for some a second word) and the bytes of the texts they give, in order.
final class _TapeChunk: @unchecked Sendable {
    // The writer's thread fills it, then hands it over through the channel (under its
    // lock), and the reader's thread replays it and hands it back the same way: never
    // touched by both at once.
    var ops: UnsafeMutablePointer<UInt64>
    var opCount = 0
    let opCapacity: Int
    var bytes: UnsafeMutablePointer<UInt8>
    var byteCount = 0
    var byteCapacity: Int
    /// The document's bytes the scanner had read when the chunk was handed over.
    var bytesRead = 0

    init(opCapacity: Int = 1 << 15, byteCapacity: Int = _TapeChunk.defaultByteCapacity) {
        self.opCapacity = opCapacity
        self.byteCapacity = byteCapacity
        ops = .allocate(capacity: opCapacity)
        bytes = .allocate(capacity: byteCapacity)
    }

    deinit {
        ops.deallocate()
        bytes.deallocate()
    }

    /// The room for text a chunk is made with, and goes back to once replayed.
    static let defaultByteCapacity = 1 << 19

    /// Makes room for `count` bytes of text in an empty chunk (one text longer than a chunk).
    func reserveBytes(_ count: Int) {
        precondition(byteCount == 0, "a chunk grows only while empty")
        guard count > byteCapacity else { return }
        resizeBytes(count)
    }

    /// Gives back the room a long text took, so that the tape stays a few MiB.
    func shrinkBytes() {
        if byteCapacity > Self.defaultByteCapacity { resizeBytes(Self.defaultByteCapacity) }
    }

    private func resizeBytes(_ capacity: Int) {
        bytes.deallocate()
        byteCapacity = capacity
        bytes = .allocate(capacity: capacity)
    }

    enum Op: UInt8 {
        case open = 1, openTagged, close, leaf, leafTagged, value, attribute, namedAttribute
    }

    /// Makes on `builder` the calls the chunk recorded, in order.
    func replay(into builder: inout ViewTreeBuilder) {
        var o = 0
        var text = UnsafePointer(bytes)
        let ops = self.ops
        while o < opCount {
            let word = ops[o]
            o &+= 1
            let type = TypeID(rawValue: Int32(truncatingIfNeeded: word &>> 32))
            switch Op(rawValue: UInt8(truncatingIfNeeded: word)) {
            case .open: _ = builder.open(type: type)
            case .openTagged:
                _ = builder.open(tag: Int(bitPattern: UInt(ops[o])), type: type)
                o &+= 1
            case .close: builder.close()
            case .leaf: _ = builder.appendLeaf(type: type)
            case .leafTagged:
                _ = builder.appendLeaf(tag: Int(bitPattern: UInt(ops[o])), type: type)
                o &+= 1
            case .value:
                let n = Int(ops[o])
                o &+= 1
                builder.setValue(utf8: UnsafeBufferPointer(start: text, count: n))
                text += n
            case .attribute:
                let n = Int(ops[o])
                o &+= 1
                builder.addAttribute(name: type, utf8: UnsafeBufferPointer(start: text, count: n))
                text += n
            case .namedAttribute:
                let n = Int(ops[o])
                o &+= 1
                let attribute = NodeAttribute(rawValue: Int(UInt8(truncatingIfNeeded: word &>> 8)))!
                builder.setAttribute(attribute, utf8: UnsafeBufferPointer(start: text, count: n))
                text += n
            case nil: preconditionFailure("a tape chunk holds an operation no writer writes: \(word & 0xFF)")
            }
        }
    }
}

/// The chunks between a ``_TapeWriter`` and the thread that replays them: a queue of full
/// ones, a few chunks in all (so that the tape takes a few MiB however large the
/// document), and the scan's end.
final class _TapeChannel: @unchecked Sendable {
    // Every field below the lock is read and written under it, but `producerBytesRead`,
    // which only the writer's thread touches.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    private var full: [_TapeChunk] = []
    private var spare: [_TapeChunk] = []
    private var made = 0
    private let limit: Int
    private var ended = false
    /// The bytes the scanner has read so far (its progress), stamped on each chunk handed over.
    var producerBytesRead = 0

    init(chunks: Int = 4) {
        limit = chunks
        mutex = .allocate(capacity: 1)
        changed = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// An empty chunk for the writer: a spare one, a new one while fewer than the limit
    /// were made, else the first the reader hands back.
    func emptyChunk() -> _TapeChunk {
        locked {
            while spare.isEmpty && made == limit { pthread_cond_wait(changed, mutex) }
            if let chunk = spare.popLast() { return chunk }
            made += 1
            return _TapeChunk()
        }
    }

    /// Hands a filled chunk to the reader.
    func handOver(_ chunk: _TapeChunk) {
        chunk.bytesRead = producerBytesRead
        locked {
            full.append(chunk)
            pthread_cond_broadcast(changed)
        }
    }

    /// The scan is over: no chunk follows those handed over.
    func end() {
        locked {
            ended = true
            pthread_cond_broadcast(changed)
        }
    }

    /// The next full chunk, waiting for it; `nil` once the scan is over and every chunk
    /// was taken.
    func nextChunk() -> _TapeChunk? {
        locked {
            while full.isEmpty && !ended { pthread_cond_wait(changed, mutex) }
            return full.isEmpty ? nil : full.removeFirst()
        }
    }

    /// Gives a replayed chunk back to the writer.
    func giveBack(_ chunk: _TapeChunk) {
        chunk.opCount = 0
        chunk.byteCount = 0
        chunk.shrinkBytes()
        locked {
            spare.append(chunk)
            pthread_cond_broadcast(changed)
        }
    }
}

/// A ``_TreeSink`` that records each call on a tape for ``_TapeChunk/replay(into:)``.
struct _TapeWriter: ~Copyable, _TreeSink {
    private let channel: _TapeChannel
    private var chunk: _TapeChunk
    private var ops: UnsafeMutablePointer<UInt64>
    private var opCount = 0
    private var opLimit: Int
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCount = 0
    private var byteLimit: Int

    init(_ channel: _TapeChannel) {
        self.channel = channel
        chunk = channel.emptyChunk()
        ops = chunk.ops
        opLimit = chunk.opCapacity
        bytes = chunk.bytes
        byteLimit = chunk.byteCapacity
    }

    /// Hands over what is written and ends the tape.
    consuming func finish() {
        chunk.opCount = opCount
        chunk.byteCount = byteCount
        channel.handOver(chunk)
        channel.end()
    }

    /// Room for two words and `text` bytes, in this chunk or the next.
    @inline(__always)
    private mutating func room(text: Int) {
        if opCount &+ 2 > opLimit || byteCount &+ text > byteLimit { next(text: text) }
    }

    @inline(never)
    private mutating func next(text: Int) {
        if opCount == 0 && byteCount == 0 {
            // Nothing written yet: this chunk makes the room (one text longer than a chunk).
            chunk.reserveBytes(text)
            (bytes, byteLimit) = (chunk.bytes, chunk.byteCapacity)
            return
        }
        chunk.opCount = opCount
        chunk.byteCount = byteCount
        channel.handOver(chunk)
        chunk = channel.emptyChunk()
        chunk.reserveBytes(text)
        (ops, opCount, opLimit) = (chunk.ops, 0, chunk.opCapacity)
        (bytes, byteCount, byteLimit) = (chunk.bytes, 0, chunk.byteCapacity)
    }

    @inline(__always)
    private mutating func put(_ op: _TapeChunk.Op, type: TypeID, payload: UInt8 = 0) {
        ops[opCount] = UInt64(op.rawValue) | UInt64(payload) &<< 8 | UInt64(UInt32(bitPattern: type.rawValue)) &<< 32
        opCount &+= 1
    }

    @inline(__always)
    private mutating func put(text: UnsafeBufferPointer<UInt8>) {
        ops[opCount] = UInt64(text.count)
        opCount &+= 1
        if let base = text.baseAddress, text.count > 0 { (bytes + byteCount).update(from: base, count: text.count) }
        byteCount &+= text.count
    }

    /// A node made by `op` (untagged) or `tagged` (its tag in a second word).
    @inline(__always)
    private mutating func node(_ op: _TapeChunk.Op, _ tagged: _TapeChunk.Op, tag: Int, type: TypeID) {
        room(text: 0)
        if tag == 0 {
            put(op, type: type)
        } else {
            put(tagged, type: type)
            ops[opCount] = UInt64(UInt(bitPattern: tag))
            opCount &+= 1
        }
    }

    mutating func openNode(tag: Int, type: TypeID) { node(.open, .openTagged, tag: tag, type: type) }

    mutating func closeNode() {
        room(text: 0)
        put(.close, type: TypeID(rawValue: 0))
    }

    mutating func appendLeafNode(tag: Int, type: TypeID) { node(.leaf, .leafTagged, tag: tag, type: type) }

    mutating func setValue(utf8: UnsafeBufferPointer<UInt8>) {
        room(text: utf8.count)
        put(.value, type: TypeID(rawValue: 0))
        put(text: utf8)
    }

    mutating func addAttribute(name: TypeID, utf8: UnsafeBufferPointer<UInt8>) {
        room(text: utf8.count)
        put(.attribute, type: name)
        put(text: utf8)
    }

    mutating func setAttribute(_ attribute: NodeAttribute, utf8: UnsafeBufferPointer<UInt8>) {
        room(text: utf8.count)
        put(.namedAttribute, type: TypeID(rawValue: 0), payload: UInt8(attribute.rawValue))
        put(text: utf8)
    }
}
