import Foundation

/// The PNG files the page stacks into a knob: `base` under two copies of
/// `shine`, all the same square size and centred (see Knob's `KnobLayers`).
public struct WebLayerImages: Sendable {
    /// `/layers/base.png`.
    public var basePNG: Data
    /// `/layers/shine.png`: one unrotated shine at opacity 1.
    public var shinePNG: Data
    /// Side of both images in pixels.
    public var size: Int

    /// Layers from PNG files made elsewhere (`render(size:)` makes them
    /// with the project's rasterizer; tests serve tiny images).
    public init(basePNG: Data, shinePNG: Data, size: Int) {
        self.basePNG = basePNG
        self.shinePNG = shinePNG
        self.size = size
    }
}
