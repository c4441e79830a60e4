extension ControlStill {
    /// Checks a size in points as `tiltd draw` takes it.
    ///
    /// - Throws: `ControlStillError.points` naming `dimension` and the range.
    public static func checkPoints(_ points: Double, dimension: ControlStillError.Dimension, minimum: Double,
                                   maximum: Double) throws(ControlStillError) {
        guard points.isFinite, points >= minimum, points <= maximum else {
            throw .points(points, dimension: dimension, minimum: minimum, maximum: maximum)
        }
    }
}
