/// A control added to the page `tiltd serve` shows (the LARSBar slider, …):
/// its CSS, its HTML (placed beside the knob) and its script.
///
/// The script runs after the page's own, so it can use `events` and
/// `stateListeners` (functions called with each knob state the page
/// applies). `events` is the page's stream (`openStream` in controls.js):
/// `/events`, or, when the page takes input (`Setting.recordDir`,
/// `Setting.interactive`), a WebSocket on `/ws`. Either way one dispatch
/// hands a `WebStateFeed` channel's value to
/// `events.addEventListener('NAME', e => … e.data …)` (the value's JSON);
/// on `/ws` it also offers `events.send(text)` (false while the socket is
/// not open). Use nothing else of it.
struct WebPagePart: Sendable {
    var style: String
    var html: String
    var script: String
}
