import Motion
import Wording

/// `Setting.source` `rotation`: an HID hub's own fused quaternion in place of the
/// accelerometer, its convention (component order, direction and frame)
/// chosen against the accelerometer on the same hub
/// (`RotationConventionChooser`: the candidates that agree stay in play
/// while the device's position cannot tell them apart).
extension CaptureSession {
    /// Standard gravity: the length given to the hub's "up" direction, m/s².
    static let standardGravity = 9.80665

    /// Reads the hub's quaternion and the accelerometer once and starts the
    /// choice of convention; nil, with a notice saying why, to use the
    /// accelerometer instead.
    static func checkRotation(_ found: AccelerometerDiscovery.Found, info: AccelerometerInfo, context: IIOContext,
                              notice: (Diagnostic) -> Void)
        -> (reader: RotationReader, chooser: RotationConventionChooser)? {
        guard let rotation = found.rotation else {
            notice(.notice("\(info.displayName) has no fused rotation (HID dev_rotation) on its hub; "
                + "using the accelerometer instead"))
            return nil
        }
        let reader = RotationReader(iio: context.iio, channel: rotation.channel, info: rotation.info)
        do {
            let raw = try PolledReader(iio: context.iio, axes: found.axes, shownName: info.displayName).read()
            let chooser = RotationConventionChooser(acceleration: info.acceleration(raw: raw),
                                                    components: try reader.read())
            guard let convention = chooser.current else {
                notice(.notice("no reading of \(rotation.info.displayName)'s quaternion (either component order "
                    + "or direction, any axis-aligned frame) agrees with the "
                    + "accelerometer \(info.displayName) (closest "
                    + "\(Int((chooser.closestRadians * 180 / .pi).rounded()))°, 15° needed; hold the device "
                    + "still when starting); using the accelerometer instead"))
                return nil
            }
            if chooser.isDecided {
                notice(.notice("using the fused rotation \(rotation.info.displayName), components \(convention) "
                    + "(checked against the accelerometer)"))
            } else {
                let others = chooser.remaining.count - 1
                notice(.notice("using the fused rotation \(rotation.info.displayName), components \(convention) for now: "
                    + "in this position the accelerometer agrees with \(others) other "
                    + (others == 1 ? "reading" : "readings") + " as well; deciding once the device is tilted"))
            }
            return (reader, chooser)
        } catch {
            notice(.notice("cannot read the fused rotation \(rotation.info.displayName): \(error); "
                + "using the accelerometer instead"))
            return nil
        }
    }

    /// The hub's "up" (m/s²) for this sample, the convention weighed
    /// against `accelerometer` while undecided; nil without a rotation (or
    /// after losing it, said once).
    func rotationUp(accelerometer: SIMD3<Double>, notice: (Diagnostic) -> Void) -> SIMD3<Double>? {
        // Checked before the copy below: most devices have no rotation.
        guard hasRotation, var current = rotation else { return nil }
        do {
            let components = try current.reader.read()
            if !current.chooser.isDecided {
                let changed = current.chooser.observe(acceleration: accelerometer, components: components)
                if current.chooser.isDecided, let convention = current.chooser.current {
                    notice(.notice("the fused rotation \(current.reader.info.displayName) reads as components "
                        + "\(convention)" + (changed ? ", not the reading used so far" : "")
                        + " (decided against the accelerometer once the device was tilted)"))
                }
                rotation = current
                status.rotation?.convention = current.chooser.current
            }
            guard let convention = current.chooser.current else { return nil }
            return RotationQuaternion.up(components, convention: convention) * CaptureSession.standardGravity
        } catch {
            notice(.notice("lost the fused rotation \(current.reader.info.displayName): \(error); "
                + "continuing with the accelerometer"))
            rotation = nil
            status.rotation = nil
            return nil
        }
    }
}
