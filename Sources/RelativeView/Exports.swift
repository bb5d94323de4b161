// What `import RelativeView` brings, as `import UIKit` does: the core and snapshots, and
// Foundation, whose geometry types (CGRect, CGPoint, CGSize, CGFloat) the API takes.
@_exported import Foundation
@_exported import RelativeViewCore
@_exported import RelativeViewSnapshot
