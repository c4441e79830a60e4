import Foundation

extension WebLayerImages {
    /// The layers from the project's rasterizer at `size` pixels.
    static func render(size: Int) throws -> WebLayerImages {
        // Wired to Knob's KnobLayers once that work is merged.
        throw WebServerError.badHost("layers")
    }
}
