import Foundation

/// The PNG files the page stacks into a knob: `base` under two copies of
/// `shine`, all the same square size and centred (see Knob's `KnobLayers`).
struct WebLayerImages: Sendable {
    /// `/layers/base.png`.
    var basePNG: Data
    /// `/layers/shine.png`: one unrotated shine at opacity 1.
    var shinePNG: Data
    /// Side of both images in pixels.
    var size: Int
}
