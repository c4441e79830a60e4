import Streaming

/// The web page's feed takes states like any other sink.
extension WebStateFeed: StateSink {}
