/// A view that scrolls its content, like `UIScrollView`.
open class ScrollView: View {}

/// A list of rows, like `UITableView`.
open class TableView: ScrollView {}

/// One row of a table, like `UITableViewCell`.
open class TableViewCell: View {}
