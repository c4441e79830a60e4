import Hummingbird

extension WebRouter {
    /// `/layers/thumb-base@Sx.png` and `/layers/thumb-shine@Sx.png` (S = 1,
    /// 2, 3): the slider thumb's layers, when the page shows the slider.
    static func addLARSBarRoutes(_ bar: WebLARSBar?, to router: Router<WebRequestContext>) {
        guard let bar else { return }
        for (layer, images) in [("base", bar.thumbBasePNG), ("shine", bar.thumbShinePNG)] {
            for (scale, png) in images {
                let bytes = Array(png)
                router.get(RouterPath("/layers/thumb-\(layer)@\(scale)x.png")) { _, _ in
                    WebResponse.bytes(.ok, bytes, type: "image/png", cache: "max-age=3600")
                }
            }
        }
    }
}
