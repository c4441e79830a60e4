/// The largest difference between two vectors' components.
public func farthest(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
    let d = a - b
    return max(Swift.abs(d.x), Swift.abs(d.y), Swift.abs(d.z))
}
