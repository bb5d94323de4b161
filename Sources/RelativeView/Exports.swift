// What `import RelativeView` brings, as `import UIKit` does: the core, snapshots and queries
// (CSS selectors, XPath), and Foundation, whose geometry types (CGRect, CGPoint, CGSize,
// CGFloat) the API takes.
@_exported import Foundation
@_exported import RelativeViewCore
@_exported import RelativeViewSnapshot
@_exported import RelativeViewQuery
