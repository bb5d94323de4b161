@_exported import RelativeViewCore
