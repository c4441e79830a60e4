/// A control added to the page `tiltd serve` shows (the LARSBar slider, …):
/// its CSS, its HTML (placed beside the knob) and its script.
///
/// The script runs after the page's own, so it can use `events` and
/// `stateListeners` (functions called with each knob state the page
/// applies). `events` is the page's stream: the `EventSource` of
/// `/events`, or, when the page takes input (`Setting.recordDir`,
/// `Setting.interactive`), its WebSocket on `/ws`, which offers the same
/// `events.addEventListener('NAME', e => … e.data …)` for a
/// `WebChannelFeed` channel and also `events.send(text)` (false while it
/// is not open). Use nothing else of it.
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
