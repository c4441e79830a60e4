import Foundation
import Images
import Knob

extension WebLayerImages {
    /// The layers from the project's rasterizer (`KnobLayers`, MTZ style) at
    /// `size` pixels, as PNG files: the base with its shadow, and one shine
    /// unrotated at opacity 1, both frame-sized and centred.
    ///
    /// - Throws: `PNGError` when libpng cannot encode them.
    public static func render(size: Int) throws -> WebLayerImages {
        try WebLayerImages(KnobLayers(size: size))
    }

    /// `layers` as PNG files (the page's knob, or the slider's thumb at one scale).
    ///
    /// - Throws: `PNGError` when libpng cannot encode them.
    init(_ layers: KnobLayers) throws {
        self.init(basePNG: Data(try PNGWriter.encode(layers.base, fast: false)),
                  shinePNG: Data(try PNGWriter.encode(layers.shine, fast: false)), size: layers.base.width)
    }
}
