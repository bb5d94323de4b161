import RelativeView
import RelativeViewNaive

/// The stock view classes of the facade and of the naive core, index for index, with the
/// name both group them by (`String(describing:)`; the naive base class `NaiveView` is
/// listed as "View", the facade's name for it).
public enum StockCatalog {
    /// The names, index for index with ``views`` and ``naiveViews``.
    ///
    /// - Complexity: O(1)
    public static let names = ["View", "Control", "Button", "Label", "ImageView", "TextField", "Slider", "ScrollView", "TableView", "TableViewCell"]

    /// The facade's classes.
    ///
    /// - Complexity: O(1)
    public static let views: [View.Type] = [View.self, Control.self, Button.self, Label.self, ImageView.self, TextField.self, Slider.self, ScrollView.self, TableView.self, TableViewCell.self]

    /// The naive core's classes.
    ///
    /// - Complexity: O(1)
    public static let naiveViews: [NaiveView.Type] = [NaiveView.self, NaiveView.Control.self, NaiveView.Button.self, NaiveView.Label.self, NaiveView.ImageView.self, NaiveView.TextField.self, NaiveView.Slider.self, NaiveView.ScrollView.self, NaiveView.TableView.self, NaiveView.TableViewCell.self]

    /// The catalog index of a name, or `nil` if it is not a stock class.
    ///
    /// - Complexity: O(number of stock classes)
    public static func index(named name: String) -> Int? {
        names.firstIndex(of: name)
    }

    /// The group key a naive result uses for a catalog name ("NaiveView" for "View").
    ///
    /// - Complexity: O(1)
    public static func facadeName(ofNaiveKey key: String) -> String {
        key == "NaiveView" ? "View" : key
    }

    /// A new facade view of the class at `index`.
    ///
    /// - Complexity: O(1)
    public static func makeView(_ index: Int) -> View {
        switch index {
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

    /// A new naive view of the class at `index`.
    ///
    /// - Complexity: O(1)
    public static func makeNaive(_ index: Int) -> NaiveView {
        switch index {
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

    /// The core type id of each stock class: the id of the facade class, so core and facade trees agree.
    ///
    /// - Complexity: O(number of stock classes)
    public static func typeIDs() -> [TypeID] {
        views.map { TypeRegistry.shared.typeID(for: $0) }
    }
}
