import Knob

/// The page `tiltd serve` shows at `/`: HTML, CSS and JavaScript inline, no
/// request beyond this server.
///
/// It stacks `/layers/base.png` and two `/layers/shine.png` (all the same
/// size, centred), turns each shine with CSS `rotate(<rad>rad)` (positive =
/// clockwise on screen, as the rasterizer) and fades it with `opacity`, as
/// each state arrives on `/events`. Like the original, every update animates
/// from what is on screen (a CSS transition starts from the current computed
/// value, so it never jumps back) with `KnobAnimator`'s duration and curve
/// (1/120 s, ease-in-ease-out), the same the renderer draws. The newest
/// applied state is also written to `data-*` attributes of `#knob` (and the
/// count of applied states to `data-applied`) so tests can read what the
/// page did; the plot writes its scale to `data-*` of `#plot`.
/// `/?frames=N` closes the stream after N states, for headless snapshots.
/// Controls beside the knob come as `WebPagePart`s.
///
/// The knob and the plot shrink to fit a narrow window (no sideways
/// scrolling); the plot's vertical scale follows the roll and pitch shown
/// (`WebPage.plotScaleScript`) with labelled ticks.
enum WebPage {
    /// The page for layer images of `layerSize` pixels.
    static func html(layerSize: Int, animator: KnobAnimator = KnobAnimator(), parts: [WebPagePart] = [],
                     controls: WebPageControls = WebPageControls()) -> String {
        // One layer pixel per CSS pixel: the knob is as large as --size asks
        // (smaller when the window is narrower).
        let shown = layerSize
        let transition = cssTransition(animator)
        return #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tiltd — live knob</title>
<style>
  body { background: #2a2a2c; color: #d8d8d8; margin: 24px; overflow-wrap: anywhere;
         font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
  h1 { font-size: 18px; font-weight: 600; margin: 0 0 16px; }
  main { display: flex; gap: 32px; align-items: flex-start; flex-wrap: wrap; }
  /* Clipped: a turned shine image's corners (transparent) must not widen the page. */
  #knob { position: relative; width: min(\#(shown)px, 100%); aspect-ratio: 1 / 1; flex: none; overflow: hidden; }
  #knob img { position: absolute; left: 0; top: 0; width: 100%; height: 100%;
              transform-origin: 50% 50%; }
  /* A shine is the light's colour (--light, from the streamed state) through
     the shine layer's alpha: "over" the base, as KnobCompositor draws it. */
  #knob div.shine { position: absolute; left: 0; top: 0; width: 100%; height: 100%; transform-origin: 50% 50%;
                    background-color: var(--light, #fff);
                    -webkit-mask: url(/layers/shine.png) center / 100% 100% no-repeat;
                    mask: url(/layers/shine.png) center / 100% 100% no-repeat; }
  /* SPEC §1: each accepted update animates from what is shown, with
     KnobAnimator's duration and curve. */
  #knob .shine { transition: \#(transition);
                    will-change: transform, opacity; }
  section { flex: 1 1 320px; min-width: 0; max-width: 640px; }
  table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
  th { text-align: left; font-weight: 500; color: #a0a0a0; padding: 1px 12px 1px 0; }
  td { text-align: right; padding: 1px 0 1px 14px; min-width: 5.5em; }
  #status { margin-top: 8px; color: #a0a0a0; }
  #status.live { color: #7fc97f; }
  canvas { background: #1d1d1f; border: 1px solid #444; display: block; margin-top: 12px;
           width: 100%; height: 180px; box-sizing: border-box; }
  .legend span { display: inline-block; margin-right: 14px; }
  .roll { color: #f0a04b; } .pitch { color: #6cb4ee; }
\#(parts.map(\.style).joined(separator: "\n"))
\#(controlsCSS)
</style>
</head>
<body>
<h1>tiltd — live knob</h1>
<main id="page">
  <div id="knob" data-applied="0">
    <img id="base" src="/layers/base.png" alt="brushed-metal knob">
    <div id="shine1" class="shine"></div>
    <div id="shine2" class="shine"></div>
  </div>
\#(parts.map(\.html).joined(separator: "\n"))
  <section>
    <table>
      <tr><th>roll</th><td id="roll">–</td><td id="rollDeg"></td></tr>
      <tr><th>pitch</th><td id="pitch">–</td><td id="pitchDeg"></td></tr>
      <tr><th>orientation</th><td id="orientation" colspan="2">–</td></tr>
      <tr><th>shine 1</th><td id="shine1Rotation">–</td><td id="shine1Opacity"></td></tr>
      <tr><th>shine 2</th><td id="shine2Rotation">–</td><td id="shine2Opacity"></td></tr>
      <tr><th>t</th><td id="t" colspan="2">–</td></tr>
      <tr><th>attitude</th><td id="attitude" colspan="2">–</td></tr>
      <tr><th>rotation</th><td id="rotationRate" colspan="2">–</td></tr>
      <tr><th>acceleration</th><td id="userAcceleration" colspan="2">–</td></tr>
      <tr><th>gyro</th><td id="gyro" colspan="2">–</td></tr>
    </table>
    <div id="status">connecting…</div>
    <canvas id="plot" width="420" height="180" aria-label="roll and pitch over the last 5 seconds, in degrees"></canvas>
    <div class="legend"><span class="roll">— roll</span><span class="pitch">— pitch</span>
      <span>last 5 s, degrees</span></div>
  </section>
\#(controlsHTML(controls))</main>
<script src="/tiltd.js"></script>
<script>
'use strict';
const knob = document.getElementById('knob');
const shines = [document.getElementById('shine1'), document.getElementById('shine2')];
const text = id => document.getElementById(id);
const status = text('status');
const plotWindowMs = 5000;
const history = [];
const stateListeners = [];
let applied = 0;
let streamed = false;
\#(controlsScript(controls))

function fixed(x, digits) { return Number(x).toFixed(digits); }
function degrees(rad) { return fixed(rad * 180 / Math.PI, 1) + '°'; }

function apply(state, via) {
  state.shine.forEach((shine, i) => {
    shines[i].style.transform = 'rotate(' + shine.rotation + 'rad)';
    shines[i].style.opacity = String(shine.opacity);
  });
  applied += 1;
  const d = knob.dataset;
  const style = getComputedStyle(shines[0]);
  d.easing = style.transitionTimingFunction;
  d.duration = style.transitionDuration;
  d.applied = String(applied);
  d.via = via;
  d.t = String(state.t);
  d.roll = String(state.roll);
  d.pitch = String(state.pitch);
  d.orientation = state.orientation;
  d.shine1Rotation = String(state.shine[0].rotation);
  d.shine1Opacity = String(state.shine[0].opacity);
  d.shine2Rotation = String(state.shine[1].rotation);
  d.shine2Opacity = String(state.shine[1].opacity);
  applyControls(state);
  text('roll').textContent = fixed(state.roll, 4) + ' rad';
  text('rollDeg').textContent = degrees(state.roll);
  text('pitch').textContent = fixed(state.pitch, 4) + ' rad';
  text('pitchDeg').textContent = degrees(state.pitch);
  text('orientation').textContent = state.orientation;
  text('shine1Rotation').textContent = fixed(state.shine[0].rotation, 4) + ' rad';
  text('shine1Opacity').textContent = 'opacity ' + fixed(state.shine[0].opacity, 3);
  text('shine2Rotation').textContent = fixed(state.shine[1].rotation, 4) + ' rad';
  text('shine2Opacity').textContent = 'opacity ' + fixed(state.shine[1].opacity, 3);
  text('t').textContent = fixed(state.t, 6) + ' s';
  showMotion(state);
  const now = performance.now();
  history.push({ at: now, roll: state.roll, pitch: state.pitch });
  while (history.length && history[0].at < now - plotWindowMs - 1000) history.shift();
  stateListeners.forEach(listener => listener(state));
}

// The device motion (a gyro fused): the page hands every state to
// tiltd.js, which dispatches deviceorientation and devicemotion events,
// and reads them back like any web page written for a phone's sensors.
function triple(v, k, digits) { return v.map(x => fixed(x * k, digits)).join(' '); }
window.addEventListener('deviceorientation', e => {
  text('attitude').textContent = (e.alpha === null ? 'α –' : 'α ' + fixed(e.alpha, 1) + '°')
    + ' β ' + fixed(e.beta, 1) + '° γ ' + fixed(e.gamma, 1) + '°';
  knob.dataset.alpha = String(e.alpha); knob.dataset.beta = String(e.beta); knob.dataset.gamma = String(e.gamma);
});
window.addEventListener('devicemotion', e => {
  const r = e.rotationRate;
  text('rotationRate').textContent = 'α ' + fixed(r.alpha, 1) + ' β ' + fixed(r.beta, 1) + ' γ ' + fixed(r.gamma, 1) + ' °/s';
  const a = e.acceleration;
  text('userAcceleration').textContent = fixed(a.x, 2) + ' ' + fixed(a.y, 2) + ' ' + fixed(a.z, 2) + ' m/s²';
});
function showMotion(state) {
  if (window.tiltd) tiltd.dispatch(state);
  if (!state.attitude) {
    text('rotationRate').textContent = text('userAcceleration').textContent = '–';
    text('gyro').textContent = 'none fused: roll and pitch from the accelerometer';
    return;
  }
  text('gyro').textContent = (state.rest ? 'at rest' : 'moving') + ', bias '
    + triple(state.gyroBias, 180 / Math.PI, 3) + ' °/s';
  knob.dataset.rest = String(state.rest);
}

// The current state at once, then the live stream.
fetch('/state', { cache: 'no-store' })
  .then(r => r.ok ? r.json() : null)
  .then(state => { if (state && !streamed) apply(state, 'state'); })
  .catch(() => {});

// ?frames=N closes the stream after N states: a still snapshot for headless
// browsers, whose virtual time cannot advance while a stream is open.
const framesLimit = parseInt(new URLSearchParams(location.search).get('frames') || '0', 10) || 0;
let streamedCount = 0;
const events = openStream();
events.onopen = () => { status.textContent = 'live'; status.className = 'live'; };
events.onerror = () => { status.textContent = 'reconnecting…'; status.className = ''; };
events.onmessage = e => {
  const message = JSON.parse(e.data);
  if (!message.shine) { controlMessage(message); return; }
  streamed = true;
  streamedCount += 1;
  apply(message, takesInput ? 'ws' : 'events');
  if (framesLimit && streamedCount >= framesLimit) {
    events.close();
    status.textContent = 'snapshot after ' + streamedCount + ' states';
    status.className = '';
  }
};
\#(parts.map(\.script).joined(separator: "\n"))

const canvas = text('plot');
const ctx = canvas.getContext('2d');
\#(plotScaleScript)
function draw() {
  // Fit the canvas's pixels to its laid-out size (it follows the window).
  const ratio = window.devicePixelRatio || 1;
  const cssW = Math.max(1, canvas.clientWidth), cssH = Math.max(1, canvas.clientHeight);
  if (canvas.width !== Math.round(cssW * ratio) || canvas.height !== Math.round(cssH * ratio)) {
    canvas.width = Math.round(cssW * ratio); canvas.height = Math.round(cssH * ratio);
  }
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  const w = cssW, h = cssH, now = performance.now();
  const shown = history.filter(p => p.at >= now - plotWindowMs - 1000);
  const degreesShown = shown.flatMap(p => [p.roll, p.pitch].map(v => v * 180 / Math.PI));
  const scale = plotScale(degreesShown);
  const d = canvas.dataset;
  d.min = String(scale.min); d.max = String(scale.max); d.ticks = scale.ticks.join(' ');
  d.cssWidth = String(cssW);
  document.body.dataset.overflow = String(document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const left = 40, top = 8, bottom = h - 8;
  const y = deg => bottom - (deg - scale.min) / (scale.max - scale.min) * (bottom - top);
  const x = at => left + (w - left) * (1 - (now - at) / plotWindowMs);
  ctx.clearRect(0, 0, w, h);
  ctx.font = '11px system-ui, sans-serif'; ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  for (const tick of scale.ticks) {
    ctx.strokeStyle = tick === 0 ? '#5a5a5c' : '#3a3a3c'; ctx.lineWidth = 1;
    const ty = Math.round(y(tick)) + 0.5;
    ctx.beginPath(); ctx.moveTo(left, ty); ctx.lineTo(w, ty); ctx.stroke();
    ctx.fillStyle = '#a0a0a0'; ctx.fillText(tick + '°', left - 6, ty);
  }
  ctx.save(); ctx.beginPath(); ctx.rect(left, 0, w - left, h); ctx.clip();
  for (const [key, colour] of [['roll', '#f0a04b'], ['pitch', '#6cb4ee']]) {
    ctx.strokeStyle = colour; ctx.lineWidth = 1.5; ctx.beginPath();
    let first = true, last = null;
    const deg = p => p[key] * 180 / Math.PI;
    for (const p of history) {
      if (p.at < now - plotWindowMs) { last = p; continue; }
      if (first && last) { ctx.moveTo(x(last.at), y(deg(last))); first = false; }
      if (first) { ctx.moveTo(x(p.at), y(deg(p))); first = false; } else ctx.lineTo(x(p.at), y(deg(p)));
      last = p;
    }
    if (last) ctx.lineTo(w, y(deg(last)));  // held until the next accepted state
    ctx.stroke();
  }
  ctx.restore();
  requestAnimationFrame(draw);
}
requestAnimationFrame(draw);
</script>
</body>
</html>
"""#
    }
}

extension WebPage {
    /// The CSS `transition` of a shine: transform and opacity over the
    /// animator's duration, eased by its curve as `cubic-bezier(…)`.
    static func cssTransition(_ animator: KnobAnimator) -> String {
        let milliseconds = Double(animator.durationNanoseconds) / 1e6
        let c = animator.curve
        let curve = "cubic-bezier(\(number(c.x1)), \(number(c.y1)), \(number(c.x2)), \(number(c.y2)))"
        let duration = "\(number(milliseconds))ms"
        return "transform \(duration) \(curve), opacity \(duration) \(curve)"
    }

    /// A short decimal: `0.42`, `0`, `8.333333`.
    private static func number(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `plotScale(degrees)`: the plot's vertical range and ticks for the
    /// values shown. The range always holds 0 and at least ±5°, grows to the
    /// largest value, and is cut at the first step of 1, 2, 5, 10, 20, 30,
    /// 45 or 90° that gives at most 6 intervals (labelled ticks); ±180° at most.
    static let plotScaleScript = """
    function plotScale(values) {
      let lo = Math.min(-5, ...values), hi = Math.max(5, ...values);
      lo = Math.max(lo, -180); hi = Math.min(hi, 180);
      let step = 1, min = 0, max = 0;
      for (const candidate of [1, 2, 5, 10, 20, 30, 45, 90]) {
        step = candidate;
        min = Math.floor(lo / step) * step; max = Math.ceil(hi / step) * step;
        if ((max - min) / step <= 6) break;
      }
      const ticks = [];
      for (let t = min; t <= max + 1e-9; t += step) ticks.push(Math.round(t));
      return { min, max, ticks };
    }
    """
}
