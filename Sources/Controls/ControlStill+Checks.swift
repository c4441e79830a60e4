import Motion

extension ControlStill {
    /// Checks a size in points as `tiltd draw` takes it.
    ///
    /// - Throws: `ControlStillError` naming `option` and the range.
    public static func checkPoints(_ points: Double, option: Setting, minimum: Double,
                                   maximum: Double) throws(ControlStillError) {
        guard points.isFinite, points >= minimum, points <= maximum else {
            throw ControlStillError("\(option) must be \(numberText(minimum))…\(numberText(maximum)) points, "
                + "got \(numberText(points))")
        }
    }
}
