@_exported import RelativeViewCore
@_exported import RelativeViewSnapshot
