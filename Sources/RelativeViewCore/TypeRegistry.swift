import Synchronization

/// Maps Swift classes and type names to dense ``TypeID``s, for the whole process.
///
/// The arena stores a 4-byte type id per node instead of a metatype; the registry turns
/// ids back into names (`String(describing:)`, the key the relative-view API groups by)
/// and answers which ids are subclasses of a class, for `findViews(subclassOf:)`.
/// It is thread-safe: every access takes one `Mutex`.
public final class TypeRegistry: Sendable {
    /// The registry every tree in the process uses.
    ///
    /// - Complexity: O(1)
    public static let shared = TypeRegistry()

    private struct Entry {
        let name: String
        let type: AnyClass?
    }

    private struct State {
        var entries: [Entry] = []
        var byClass: [ObjectIdentifier: TypeID] = [:]
        var byBareName: [String: TypeID] = [:]
        var byName: [String: [TypeID]] = [:]

        mutating func add(_ entry: Entry) -> TypeID {
            precondition(entries.count < Int(Int32.max), "too many view types registered")
            let id = TypeID(rawValue: Int32(entries.count))
            entries.append(entry)
            byName[entry.name, default: []].append(id)
            return id
        }
    }

    private let state = Mutex(State())

    /// The one registry (``shared``): every tree names its types through it, so the ids of a
    /// second registry would name other types in the same trees.
    private init() {}

    /// The number of types registered so far; every id is below it.
    ///
    /// - Complexity: O(1)
    public var count: Int { state.withLock { $0.entries.count } }

    /// The id of exactly this class, registering it on first use.
    ///
    /// - Parameter type: A class; subclasses get ids of their own.
    /// - Returns: The class's id, the same on every call.
    /// - Complexity: O(1) amortized.
    public func typeID(for type: AnyClass) -> TypeID {
        let key = ObjectIdentifier(type)
        return state.withLock { state in
            if let id = state.byClass[key] { return id }
            let id = state.add(Entry(name: String(describing: type), type: type))
            state.byClass[key] = id
            return id
        }
    }

    /// The id of exactly this class if it was ever registered, else `nil`.
    ///
    /// A class that was never registered has no nodes, so a query by it matches nothing.
    /// - Complexity: O(1)
    public func existingTypeID(for type: AnyClass) -> TypeID? {
        let key = ObjectIdentifier(type)
        return state.withLock { $0.byClass[key] }
    }

    /// The id and name of each of `types` that was ever registered, under one lock: how the
    /// facade keys a grouping by classes (names are `String(describing:)` of each class,
    /// made once at registration, not at each query).
    ///
    /// - Complexity: O(types.count)
    package func existingTypeIDsAndNames(of types: [AnyClass]) -> [(TypeID, String)] {
        state.withLock { state in
            types.compactMap { type in state.byClass[ObjectIdentifier(type)].map { ($0, state.entries[Int($0.rawValue)].name) } }
        }
    }

    /// The id of a type known only by its name (an element name, a JSON kind), registering it on first use.
    ///
    /// Such an id is distinct from the id of a class whose `String(describing:)` is the same.
    /// - Complexity: O(1) amortized.
    public func typeID(named name: String) -> TypeID {
        state.withLock { state in
            if let id = state.byBareName[name] { return id }
            let id = state.add(Entry(name: name, type: nil))
            state.byBareName[name] = id
            return id
        }
    }

    /// The name of each id (by raw value) in `ids`, and whether a class was registered
    /// under it (rather than a bare name): what a snapshot stores of a type.
    ///
    /// - Complexity: O(ids), under one lock.
    package func namesAndKinds(ofRawValues ids: [Int32]) -> [(name: String, isClass: Bool)] {
        state.withLock { state in
            ids.map { id in
                precondition(id >= 0 && Int(id) < state.entries.count, "TypeID \(id) is not in this registry")
                let entry = state.entries[Int(id)]
                return (entry.name, entry.type != nil)
            }
        }
    }

    /// The id a snapshot's type comes back as: for a class, the first class this process
    /// registered under that name, if any; else (a bare name, or a class this process has
    /// not registered) the bare name's id, registered if new.
    ///
    /// - Complexity: O(1) amortized, under one lock.
    package func idForLoading(name: String, isClass: Bool) -> TypeID {
        state.withLock { state in
            if isClass, let id = state.byName[name]?.first(where: { state.entries[Int($0.rawValue)].type != nil }) { return id }
            if let id = state.byBareName[name] { return id }
            let id = state.add(Entry(name: name, type: nil))
            state.byBareName[name] = id
            return id
        }
    }

    /// The id registered for the name `name` by ``typeID(named:)``, or `nil` if none was:
    /// a lookup that registers nothing (a class's id is not found by its name here).
    ///
    /// - Complexity: O(name's length)
    public func existingTypeID(named name: String) -> TypeID? {
        state.withLock { $0.byBareName[name] }
    }

    /// Every id, class or bare name, whose name is `name`, in registration order.
    ///
    /// - Complexity: O(1) plus the size of the answer.
    public func typeIDs(named name: String) -> [TypeID] {
        state.withLock { $0.byName[name] ?? [] }
    }

    /// The name of a type: `String(describing:)` of its class, or the name it was registered with.
    ///
    /// - Complexity: O(1)
    public func name(of id: TypeID) -> String {
        state.withLock { state in
            precondition(id.rawValue >= 0 && Int(id.rawValue) < state.entries.count, "TypeID \(id.rawValue) is not in this registry")
            return state.entries[Int(id.rawValue)].name
        }
    }

    /// A table over every registered id (by raw value), true for those whose name passes
    /// `test`: a question about names asked of every type at once, under one lock.
    ///
    /// - Complexity: O(number of registered types).
    package func nameTable(_ test: (String) -> Bool) -> [Bool] {
        state.withLock { state in state.entries.map { test($0.name) } }
    }

    /// A table over every registered id, true for the classes that are `base` or inherit from
    /// it: how `findViews(subclassOf:)` and `recursiveSubviews(of:subclassOf:)` match types,
    /// not an API of its own, so package access.
    ///
    /// - Complexity: O(number of registered types).
    package func subclassTable<Base: AnyObject>(of base: Base.Type) -> [Bool] {
        state.withLock { state in
            state.entries.map { entry in entry.type.map { $0 is Base.Type } ?? false }
        }
    }
}
