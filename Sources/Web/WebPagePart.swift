/// A control added to the page `tiltd serve` shows (the LARSBar slider, …):
/// its CSS, its HTML (placed beside the knob) and its script.
///
/// The script runs after the page's own, so it can use `events` (the
/// `EventSource` of `/events`: `events.addEventListener('NAME', …)` for a
/// `WebChannelFeed` channel) and `stateListeners` (functions called with
/// each knob state the page applies).
public struct WebPagePart: Sendable {
    public var style: String
    public var html: String
    public var script: String

    public init(style: String, html: String, script: String) {
        self.style = style
        self.html = html
        self.script = script
    }
}
