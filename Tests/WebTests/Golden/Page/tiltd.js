// tiltd.js: tiltd's states as deviceorientation and devicemotion events.
// Served by `tiltd serve` at /tiltd.js (docs/streaming.md, "tiltd.js").
(function (global) {
  'use strict';
  const standardGravity = 9.80665;
  const degreesPerRadian = 180 / Math.PI;
  let lastT = null;

  // tiltd's device frame turned into W3C's: x and y change sign.
  function w3c(v) { return { x: -v[0], y: -v[1], z: v[2] }; }
  function scaled(v, k) { return { x: v.x * k, y: v.y * k, z: v.z * k }; }

  // alpha, beta, gamma (degrees, W3C ranges) of the rotation whose matrix
  // (W3C device frame to the reference frame, z up) has the bottom row
  // r20 r21 r22 and r01, r11 in its first two rows: R = Rz(alpha) Rx(beta)
  // Ry(gamma), with cos(gamma) >= 0.
  function angles(r01, r11, r20, r21, r22) {
    const s = r22 >= 0 ? 1 : -1;
    const cosBeta = s * Math.hypot(r20, r22);
    let beta = Math.atan2(r21, cosBeta) * degreesPerRadian;
    if (beta >= 180) beta -= 360;
    let gamma = Math.atan2(-s * r20, s * r22) * degreesPerRadian;
    if (gamma >= 90) gamma = 89.999999;
    let alpha = null;
    if (r01 !== null) {
      alpha = Math.atan2(-s * r01, s * r11) * degreesPerRadian;
      alpha = ((alpha % 360) + 360) % 360;
      if (alpha >= 360) alpha = 0;
    }
    return { alpha: alpha, beta: beta, gamma: gamma };
  }

  // The DeviceOrientationEvent init of a state.
  function orientation(state) {
    if (state.attitude) {
      const [w, x, y, z] = state.attitude;
      // The quaternion's matrix (tiltd frame to reference) between the W3C
      // frames: its first two columns change sign (the device frame), and
      // so do its first two rows (the reference turned the same way, so that
      // a device that started flat reads alpha 0).
      const r01 = 2 * (x * y - w * z), r11 = 1 - 2 * (x * x + z * z);
      const r20 = -(2 * (x * z - w * y)), r21 = -(2 * (y * z + w * x)), r22 = 1 - 2 * (x * x + y * y);
      const a = angles(r01, r11, r20, r21, r22);
      return { alpha: a.alpha, beta: a.beta, gamma: a.gamma, absolute: false };
    }
    // Accelerometer only: up is (sin r cos p, -sin p, cos r cos p) in
    // tiltd's frame; no heading.
    const r = state.roll, p = state.pitch;
    const a = angles(null, null, -Math.sin(r) * Math.cos(p), Math.sin(p), Math.cos(r) * Math.cos(p));
    return { alpha: null, beta: a.beta, gamma: a.gamma, absolute: false };
  }

  // The DeviceMotionEvent init of a state with the device motion fields,
  // or null without them.
  function motion(state, intervalMs) {
    if (!state.gravity || !state.userAcceleration || !state.rotationRate) return null;
    const user = w3c(state.userAcceleration);
    const gravity = w3c(state.gravity);
    const rate = w3c(state.rotationRate);
    return {
      acceleration: scaled(user, standardGravity),
      accelerationIncludingGravity: scaled({ x: user.x - gravity.x, y: user.y - gravity.y, z: user.z - gravity.z },
                                           standardGravity),
      rotationRate: { alpha: rate.z * degreesPerRadian, beta: rate.x * degreesPerRadian,
                      gamma: rate.y * degreesPerRadian },
      interval: intervalMs
    };
  }

  // From the first state dispatched until release(), the browser's own
  // motion events (trusted: from its sensors, or all null without any) are
  // stopped at the window before the listeners added after this script
  // see them, so the page and any code listening there see tiltd's motion
  // alone, never the two sources in turn. At the window, listeners run in
  // the order they were added, capturing or not, so this one is added as
  // the script loads: load tiltd.js before any script that listens.
  const nativeTypes = ['deviceorientation', 'deviceorientationabsolute', 'devicemotion'];
  let exclusive = false;
  nativeTypes.forEach(type => global.addEventListener(type, e => {
    if (exclusive && e.isTrusted) e.stopImmediatePropagation();
  }, true));
  // Lets the browser's own motion events through again (until the next dispatch).
  function release() { exclusive = false; }

  // Dispatches the events of one state on `target` (the window by default).
  function dispatch(state, target) {
    exclusive = true;
    const on = target || global;
    const intervalMs = lastT === null || !(state.t > lastT) ? 16 : (state.t - lastT) * 1000;
    lastT = state.t;
    on.dispatchEvent(new DeviceOrientationEvent('deviceorientation', orientation(state)));
    const init = motion(state, intervalMs);
    if (init) on.dispatchEvent(new DeviceMotionEvent('devicemotion', init));
  }

  // Opens the server's event stream (same origin) and dispatches every state.
  function connect(base) {
    const source = new EventSource((base || '') + '/events');
    source.onmessage = e => {
      const message = JSON.parse(e.data);
      if (message.shine) dispatch(message);
    };
    return source;
  }

  global.tiltd = { orientation: orientation, motion: motion, dispatch: dispatch, connect: connect, release: release };
})(window);