/// The page `tiltd serve` shows at `/`: HTML, CSS and JavaScript inline, no
/// request beyond this server.
///
/// It stacks `/layers/base.png` and two `/layers/shine.png` (all the same
/// size, centred), turns each shine with CSS `rotate(<rad>rad)` (positive =
/// clockwise on screen, as the rasterizer) and fades it with `opacity`, as
/// each state arrives on `/events`. Like the original, every update animates
/// over 1/120 s from what is on screen (a CSS transition starts from the
/// current computed value, so it never jumps back). The newest applied state
/// is also written to `data-*` attributes of `#knob` (and the count of
/// applied states to `data-applied`) so tests can read what the page did.
/// `/?frames=N` closes the stream after N states, for headless snapshots.
enum WebPage {
    /// The page for layer images of `layerSize` pixels.
    static func html(layerSize: Int) -> String {
        // One layer pixel per CSS pixel: the knob is as large as --size asks.
        let shown = layerSize
        return #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tiltd — live knob</title>
<style>
  body { background: #2a2a2c; color: #d8d8d8; margin: 24px;
         font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
  h1 { font-size: 18px; font-weight: 600; margin: 0 0 16px; }
  main { display: flex; gap: 32px; align-items: flex-start; flex-wrap: wrap; }
  #knob { position: relative; width: \#(shown)px; height: \#(shown)px; flex: none; }
  #knob img { position: absolute; left: 0; top: 0; width: \#(shown)px; height: \#(shown)px;
              transform-origin: 50% 50%; }
  /* SPEC §1: each accepted update animates over 1/120 s from what is shown. */
  #knob img.shine { transition: transform 8.333ms linear, opacity 8.333ms linear;
                    will-change: transform, opacity; }
  table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
  th { text-align: left; font-weight: 500; color: #a0a0a0; padding: 1px 12px 1px 0; }
  td { text-align: right; padding: 1px 0 1px 14px; min-width: 7em; }
  #status { margin-top: 8px; color: #a0a0a0; }
  #status.live { color: #7fc97f; }
  canvas { background: #1d1d1f; border: 1px solid #444; display: block; margin-top: 12px; }
  .legend span { display: inline-block; margin-right: 14px; }
  .roll { color: #f0a04b; } .pitch { color: #6cb4ee; }
</style>
</head>
<body>
<h1>tiltd — live knob</h1>
<main>
  <div id="knob" data-applied="0">
    <img id="base" src="/layers/base.png" alt="brushed-metal knob">
    <img id="shine1" class="shine" src="/layers/shine.png" alt="">
    <img id="shine2" class="shine" src="/layers/shine.png" alt="">
  </div>
  <section>
    <table>
      <tr><th>roll</th><td id="roll">–</td><td id="rollDeg"></td></tr>
      <tr><th>pitch</th><td id="pitch">–</td><td id="pitchDeg"></td></tr>
      <tr><th>orientation</th><td id="orientation" colspan="2">–</td></tr>
      <tr><th>shine 1</th><td id="shine1Rotation">–</td><td id="shine1Opacity"></td></tr>
      <tr><th>shine 2</th><td id="shine2Rotation">–</td><td id="shine2Opacity"></td></tr>
      <tr><th>t</th><td id="t" colspan="2">–</td></tr>
    </table>
    <div id="status">connecting…</div>
    <canvas id="plot" width="420" height="160" aria-label="roll and pitch over the last 5 seconds"></canvas>
    <div class="legend"><span class="roll">— roll</span><span class="pitch">— pitch</span>
      <span>last 5 s, ±90°</span></div>
  </section>
</main>
<script>
'use strict';
const knob = document.getElementById('knob');
const shines = [document.getElementById('shine1'), document.getElementById('shine2')];
const text = id => document.getElementById(id);
const status = text('status');
const plotWindowMs = 5000;
const history = [];
let applied = 0;
let streamed = false;

function fixed(x, digits) { return Number(x).toFixed(digits); }
function degrees(rad) { return fixed(rad * 180 / Math.PI, 1) + '°'; }

function apply(state, via) {
  state.shine.forEach((shine, i) => {
    shines[i].style.transform = 'rotate(' + shine.rotation + 'rad)';
    shines[i].style.opacity = String(shine.opacity);
  });
  applied += 1;
  const d = knob.dataset;
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
  const now = performance.now();
  history.push({ at: now, roll: state.roll, pitch: state.pitch });
  while (history.length && history[0].at < now - plotWindowMs - 1000) history.shift();
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
const events = new EventSource('/events');
events.onopen = () => { status.textContent = 'live'; status.className = 'live'; };
events.onerror = () => { status.textContent = 'reconnecting…'; status.className = ''; };
events.onmessage = e => {
  streamed = true;
  streamedCount += 1;
  apply(JSON.parse(e.data), 'events');
  if (framesLimit && streamedCount >= framesLimit) {
    events.close();
    status.textContent = 'snapshot after ' + streamedCount + ' states';
    status.className = '';
  }
};

const canvas = text('plot');
const ctx = canvas.getContext('2d');
function draw() {
  const w = canvas.width, h = canvas.height, now = performance.now();
  ctx.clearRect(0, 0, w, h);
  ctx.strokeStyle = '#3a3a3c'; ctx.lineWidth = 1;
  for (const f of [0.25, 0.5, 0.75]) {
    ctx.beginPath(); ctx.moveTo(0, h * f + 0.5); ctx.lineTo(w, h * f + 0.5); ctx.stroke();
  }
  const y = v => h / 2 - Math.max(-1, Math.min(1, v / (Math.PI / 2))) * (h / 2 - 2);
  const x = at => w - (now - at) / plotWindowMs * w;
  for (const [key, colour] of [['roll', '#f0a04b'], ['pitch', '#6cb4ee']]) {
    ctx.strokeStyle = colour; ctx.lineWidth = 1.5; ctx.beginPath();
    let first = true, last = null;
    for (const p of history) {
      if (p.at < now - plotWindowMs) { last = p; continue; }
      if (first && last) { ctx.moveTo(x(last.at), y(last[key])); first = false; }
      if (first) { ctx.moveTo(x(p.at), y(p[key])); first = false; } else ctx.lineTo(x(p.at), y(p[key]));
      last = p;
    }
    if (last) ctx.lineTo(w, y(last[key]));  // held until the next accepted state
    ctx.stroke();
  }
  requestAnimationFrame(draw);
}
requestAnimationFrame(draw);
</script>
</body>
</html>
"""#
    }
}
