/// `/tiltd.js`: tiltd's states as the browser's own `deviceorientation` and
/// `devicemotion` events (W3C DeviceOrientation Event specification), so
/// that web code written for a phone's sensors runs unchanged on a machine
/// whose motion tiltd reads.
///
/// The page loads it and hands it every state it receives
/// (`tiltd.dispatch(state)`); another page of the same origin can open a
/// stream of its own with `tiltd.connect()`. From a state with the device
/// motion fields (a gyro fused) it dispatches both events: `alpha` (heading,
/// relative: `absolute` is false), `beta` and `gamma` from the attitude
/// quaternion; `acceleration`, `accelerationIncludingGravity` (m/s²) and
/// `rotationRate` (deg/s) from the user acceleration, gravity and rotation
/// rate; `interval` from the states' times. From an accelerometer-only state
/// it dispatches `deviceorientation` alone, with `alpha` null and `beta` and
/// `gamma` from roll and pitch.
///
/// From the first state it dispatches until `tiltd.release()`, the
/// browser's own trusted `deviceorientation`, `deviceorientationabsolute`
/// and `devicemotion` events on the window (its sensors, or nulls without
/// any) are stopped by a listener tiltd.js adds as it loads, before the
/// listeners added after it see them (at the window, listeners run in the
/// order they were added): the page and any code using the shim see
/// tiltd's motion alone.
///
/// Frames: tiltd's device frame (iio-sensor-proxy's: x toward the left
/// edge, y toward the bottom edge, z out of the screen) is W3C's (x toward
/// the right edge, y toward the top, z out of the screen) turned half a turn
/// about z, so x and y change sign (the reference frame of the attitude is
/// turned the same way). The ranges are W3C's: alpha [0, 360),
/// beta [−180, 180), gamma [−90, 90).
enum WebTiltdScript {
    static let path = "/tiltd.js"

    /// tiltd.js, as built into the binary.
    static let source = WebPageFile.fill(PackageResources.tiltd_js)
}
