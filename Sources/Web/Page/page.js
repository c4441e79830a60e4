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
{{controls.js}}

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
listenForControls(events);
events.onopen = () => { status.textContent = 'live'; status.className = 'live'; };
// Whether tiltd's device is open (serve reading a device; a replay has none).
// While it is closed the knob keeps its last pose and the status says why.
events.addEventListener('device', e => {
  const device = JSON.parse(e.data);
  knob.dataset.device = device.open ? 'open' : device.stopped;
  if (device.open) { status.textContent = 'live'; status.className = 'live'; return; }
  status.textContent = device.stopped === 'lost' ? 'device lost: ' + device.message
    : 'device closed: it opens again when states are wanted';
  status.className = 'stopped';
});
events.onerror = () => { status.textContent = 'reconnecting…'; status.className = ''; };
events.onmessage = e => {
  const message = JSON.parse(e.data);
  streamed = true;
  streamedCount += 1;
  apply(message, takesInput ? 'ws' : 'events');
  if (framesLimit && streamedCount >= framesLimit) {
    events.close();
    status.textContent = 'snapshot after ' + streamedCount + ' states';
    status.className = '';
  }
};
{{parts.js}}

const canvas = text('plot');
const ctx = canvas.getContext('2d');
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
