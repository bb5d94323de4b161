// `import RelativeLayout` brings the views it lays out: the facade (and through it the
// core and Foundation's geometry types), as a UIKit extension brings UIKit.
@_exported import RelativeView
