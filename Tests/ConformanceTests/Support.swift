import RelativeView
import RelativeViewNaive
import RelativeViewFixtures

/// Random inputs shared by both harnesses.
extension SplitMix64 {
    /// Mostly small tags, so groups are non-trivial, and now and then one that needs the wide tag table.
    mutating func tag() -> Int {
        switch Int.random(in: 0 ..< 20, using: &self) {
        case 0: Int.max - Int.random(in: 0 ..< 2, using: &self)
        case 1: Int.min + Int.random(in: 0 ..< 2, using: &self)
        case 2: Int(Int32.min)
        default: Int.random(in: 0 ..< 6, using: &self)
        }
    }

    mutating func tags() -> [Int] {
        (0 ..< Int.random(in: 0 ... 3, using: &self)).map { _ in tag() }
    }

    mutating func typeIndices() -> [Int] {
        (0 ..< Int.random(in: 0 ... 3, using: &self)).map { _ in Int.random(in: 0 ..< StockCatalog.names.count, using: &self) }
    }
}

/// Groups with their members replaced by handles, for comparing two cores element by element.
func handles<Key: Hashable, T>(_ groups: [Key: [T]], _ handle: (T) -> Int) -> [Key: [Int]] {
    groups.mapValues { $0.map(handle) }
}

/// Naive groups by type as handles, with the naive base class's key ("NaiveView") renamed
/// to the name the other cores give it ("View"); the stock subclasses already share names.
func typeGroups(_ groups: [String: [NaiveView]], _ handle: (NaiveView) -> Int) -> [String: [Int]] {
    Dictionary(uniqueKeysWithValues: groups.map { (StockCatalog.facadeName(ofNaiveKey: $0.key), $0.value.map(handle)) })
}

/// A key function both cores can apply: some tags group under a derived key, others are left out.
func closureKey(_ tag: Int) -> Int? {
    tag % 3 == 0 ? nil : tag % 5
}
