import RelativeView
import RelativeViewNaive

/// SplitMix64: a small, fast, seedable generator, so every random case can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The stock classes of both cores, index for index, with the name both group by.
enum Catalog {
    static let names = ["View", "Control", "Button", "Label", "ImageView", "TextField", "Slider", "ScrollView", "TableView", "TableViewCell"]
    static let views: [View.Type] = [View.self, Control.self, Button.self, Label.self, ImageView.self, TextField.self, Slider.self, ScrollView.self, TableView.self, TableViewCell.self]
    static let naiveViews: [NaiveView.Type] = [NaiveView.self, NaiveView.Control.self, NaiveView.Button.self, NaiveView.Label.self, NaiveView.ImageView.self, NaiveView.TextField.self, NaiveView.Slider.self, NaiveView.ScrollView.self, NaiveView.TableView.self, NaiveView.TableViewCell.self]

    static func makeView(_ k: Int) -> View {
        switch k {
        case 1: Control()
        case 2: Button()
        case 3: Label()
        case 4: ImageView()
        case 5: TextField()
        case 6: Slider()
        case 7: ScrollView()
        case 8: TableView()
        case 9: TableViewCell()
        default: View()
        }
    }

    static func makeNaive(_ k: Int) -> NaiveView {
        switch k {
        case 1: NaiveView.Control()
        case 2: NaiveView.Button()
        case 3: NaiveView.Label()
        case 4: NaiveView.ImageView()
        case 5: NaiveView.TextField()
        case 6: NaiveView.Slider()
        case 7: NaiveView.ScrollView()
        case 8: NaiveView.TableView()
        case 9: NaiveView.TableViewCell()
        default: NaiveView()
        }
    }
}

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
        (0 ..< Int.random(in: 0 ... 3, using: &self)).map { _ in Int.random(in: 0 ..< Catalog.names.count, using: &self) }
    }
}

/// Groups with their members replaced by handles, for comparing two cores element by element.
func handles<Key: Hashable, T>(_ groups: [Key: [T]], _ handle: (T) -> Int) -> [Key: [Int]] {
    groups.mapValues { $0.map(handle) }
}

/// Naive groups by type as handles, with the naive base class's key ("NaiveView") renamed
/// to the name the other cores give it ("View"); the stock subclasses already share names.
func typeGroups(_ groups: [String: [NaiveView]], _ handle: (NaiveView) -> Int) -> [String: [Int]] {
    Dictionary(uniqueKeysWithValues: groups.map { ($0.key == "NaiveView" ? "View" : $0.key, $0.value.map(handle)) })
}

/// A key function both cores can apply: some tags group under a derived key, others are left out.
func closureKey(_ tag: Int) -> Int? {
    tag % 3 == 0 ? nil : tag % 5
}
