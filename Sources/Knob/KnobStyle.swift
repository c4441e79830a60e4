/// How knob frames are drawn.
public enum KnobStyle: String, Sendable, CaseIterable {
    /// MTZTiltReflectionSlider: a brushed-metal base and two shine layers
    /// painted once and composited per frame.
    case mtz
    /// TLTiltSlider: a greyscale bitmap recomputed from roll and pitch on
    /// every frame (the per-frame-redraw baseline, SPEC §2).
    case tltilt
}
