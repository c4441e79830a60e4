const takesInput = {{takes-input}};
const hasRing = {{has-ring}};
// The page's stream: /events (server-sent events), or with input /ws (a
// WebSocket, which carries the page's messages back: `send`). Both
// transports feed one dispatch, `receive(name, json)`: a knob state (name
// null) goes to `onmessage` (event.data: its JSON), a channel's value to
// the listeners of its name (`addEventListener(NAME, e => … e.data …)`,
// event.data: the value's JSON), on either transport alike; /events names
// a channel with `event: NAME`, /ws sends {"NAME":VALUE}. A refusal of the
// page's input ({"error":"…"}, only on /ws) goes to `onrefusal`.
function openStream() {
  const listeners = new Map();
  let source = null, ws = null;
  const stream = { onopen: null, onerror: null, onmessage: null, onrefusal: null, closed: false,
    close() { this.closed = true; if (source) source.close(); if (ws) ws.close(); },
    addEventListener(name, listener) {
      if (!listeners.has(name)) {
        listeners.set(name, []);
        if (source) source.addEventListener(name, e => receive(name, e.data));
      }
      listeners.get(name).push(listener);
    } };
  function receive(name, json) {
    if (name === null) { if (stream.onmessage) stream.onmessage({ data: json }); return; }
    (listeners.get(name) || []).forEach(listener => listener({ type: name, data: json }));
  }
  const opened = e => { if (stream.onopen) stream.onopen(e); };
  const failed = e => { if (stream.onerror) stream.onerror(e); };
  if (!takesInput) {
    source = new EventSource('/events');
    source.onopen = opened;
    source.onerror = failed;
    source.onmessage = e => receive(null, e.data);
    return stream;
  }
  // False while the WebSocket is not open (connecting or reconnecting).
  stream.send = text => {
    if (ws === null || ws.readyState !== 1) return false;
    ws.send(text);
    return true;
  };
  const connect = () => {
    ws = new WebSocket('ws://' + location.host + '/ws');
    ws.onopen = opened;
    ws.onmessage = e => {
      let message = null;
      try { message = JSON.parse(e.data); } catch (error) { return; }
      if (message === null || typeof message !== 'object') return;
      if (message.shine) { receive(null, e.data); return; }
      const names = Object.keys(message);
      if (names.length !== 1) return;
      if (names[0] === 'error') { if (stream.onrefusal) stream.onrefusal(message.error); return; }
      receive(names[0], JSON.stringify(message[names[0]]));
    };
    ws.onclose = e => { failed(e); if (!stream.closed) setTimeout(connect, 1000); };
  };
  connect();
  return stream;
}
function send(control, value) { if (takesInput && events.send) events.send(JSON.stringify({ control, value })); }
// The controls' part of the stream: refusals of input, and the ring's channel.
function listenForControls(stream) {
  stream.onrefusal = error => { document.body.dataset.inputError = error; };
  if (hasRing) stream.addEventListener('ring', e => applyRing(JSON.parse(e.data)));
}
function applyControls(state) {
  if (state.light) applyLight(state.light);
  if (state.ring) applyRing(state.ring);
}

// The light's colour and its linked sliders.
const components = ['red', 'green', 'blue', 'alpha'];
const sliders = components.map(k => document.getElementById('light-' + k));
const swatch = document.getElementById('swatch');
let lightColour = [255, 255, 255, 255];
let dragging = null;
const css = c => 'rgba(' + c[0] + ', ' + c[1] + ', ' + c[2] + ', ' + fixed(c[3] / 255, 4) + ')';
function paintSliders() {
  components.forEach((k, i) => {
    const lo = lightColour.slice(), hi = lightColour.slice();
    lo[i] = 0; hi[i] = 255;
    sliders[i].style.background = 'linear-gradient(to right, ' + css(lo) + ', ' + css(hi) + ')';
    if (dragging !== i) sliders[i].value = String(lightColour[i]);
  });
  swatch.style.background = css(lightColour);
}
let appliedLight = '';
function applyLight(hex) {
  if (hex === appliedLight) return;
  appliedLight = hex;
  const c = [0, 2, 4, 6].map(i => parseInt(hex.slice(i, i + 2), 16));
  knob.style.setProperty('--light', css(c));
  knob.dataset.light = hex;
  if (dragging === null) { lightColour = c; paintSliders(); }
}
sliders.forEach((slider, i) => {
  slider.addEventListener('input', () => {
    dragging = i;
    lightColour[i] = Number(slider.value);
    paintSliders();
    sendLight(components[i], Number(slider.value) / 255);
  });
  slider.addEventListener('change', () => { dragging = null; });
});
paintSliders();
// A drag fires 'input' with every mouse move; the server closes a
// connection that sends too fast, so values go out at most every
// 100 ms (the first at once, the last always).
const lightPending = new Map();
let lightTimer = null;
function flushLight() {
  for (const [k, v] of lightPending) send('light-' + k, v);
  lightPending.clear();
}
function sendLight(k, v) {
  lightPending.set(k, v);
  if (lightTimer !== null) return;
  flushLight();
  lightTimer = setInterval(() => {
    if (!lightPending.size) { clearInterval(lightTimer); lightTimer = null; return; }
    flushLight();
  }, 100);
}

// The recording ring.
const ringCanvas = document.getElementById('ring');
let ring = null, ringArrived = 0, pressing = false;
function applyRing(next) {
  if (ring && next.revision === ring.revision && next.generation === ring.generation) return;
  ring = next;
  ringArrived = performance.now();
  const d = ringCanvas.dataset;
  d.revision = String(ring.revision); d.generation = String(ring.generation); d.phase = ring.phase;
  d.segments = String(ring.segments.length);
  d.lengths = ring.segments.map(s => s.length).join(' ');
  d.download = ring.download || '';
  d.message = ring.message;
  const link = document.getElementById('ringDownload');
  link.hidden = !ring.download;
  if (ring.download) link.href = ring.download;
  document.getElementById('ringFinish').disabled = !(ring.phase === 'idle' && ring.segments.length);
  document.getElementById('ringReset').disabled = ring.phase === 'holding' || !ring.segments.length && ring.phase === 'idle';
}
// The segments now: the newest grows from the server's heldFor, linearly.
function ringSegments(now) {
  if (!ring) return [];
  const segments = ring.segments.map(s => ({ length: s.length, colour: s.colour }));
  if (ring.phase === 'holding' && segments.length) {
    const used = segments.slice(0, -1).reduce((a, s) => a + s.length, 0);
    const held = ring.heldFor + (now - ringArrived) / 1000;
    segments[segments.length - 1].length = Math.min(held / ring.duration, 1 - used);
  }
  return segments;
}
function drawRing() {
  const ratio = window.devicePixelRatio || 1, size = {{ring-size}};
  if (ringCanvas.width !== Math.round(size * ratio)) {
    ringCanvas.width = Math.round(size * ratio); ringCanvas.height = Math.round(size * ratio);
  }
  const g = ringCanvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.fillStyle = '#fff'; g.fillRect(0, 0, size, size);
  const c = size / 2, r = size / 2 - 20, theta = u => Math.PI - 2 * Math.PI * u;
  const segments = ringSegments(performance.now());
  const total = segments.reduce((a, s) => a + s.length, 0);
  g.lineWidth = 7; g.lineCap = 'butt';
  if (total < 1) {
    g.strokeStyle = 'rgb(170, 170, 170)';
    g.beginPath(); g.arc(c, c, r, theta(total), theta(1), true); g.stroke();
  }
  let u = 0;
  for (let i = segments.length - 1; i >= 0; i--) {
    const l = segments[i].length;
    if (l > 0) {
      g.strokeStyle = segments[i].colour;
      g.beginPath(); g.arc(c, c, r, theta(u), theta(u + l), true); g.stroke();
    }
    u += l;
  }
  ringCanvas.dataset.total = fixed(total, 4);
  const seconds = ring ? total * ring.duration : 0;
  let text = 'connecting…';
  if (ring) {
    if (ring.phase === 'holding') text = (pressing ? 'Recording… ' : 'Another viewer is recording… ') + fixed(seconds, 1) + ' s of ' + ring.duration + ' s';
    else if (ring.phase === 'complete') text = 'The ring is full. ' + ring.message;
    else if (ring.phase === 'finished') text = 'Finished. ' + ring.message;
    else if (segments.length) text = 'Paused at ' + fixed(seconds, 1) + ' s: hold to add more, or Finish.';
    else text = 'Press and hold the ring to record the motion.';
  }
  const status = document.getElementById('ringStatus');
  if (status.textContent !== text) status.textContent = text;
  requestAnimationFrame(drawRing);
}
if (hasRing) {
  ringCanvas.addEventListener('pointerdown', e => {
    e.preventDefault();
    ringCanvas.setPointerCapture(e.pointerId);
    pressing = true;
    ringCanvas.dataset.pressing = 'true';
    send('ring', 1);
  });
  const release = () => {
    if (!pressing) return;
    pressing = false;
    ringCanvas.dataset.pressing = 'false';
    send('ring', 0);
  };
  for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) ringCanvas.addEventListener(type, release);
  document.getElementById('ringFinish').addEventListener('click', () => send('ring-finish', 1));
  document.getElementById('ringReset').addEventListener('click', () => send('ring-reset', 1));
  requestAnimationFrame(drawRing);
}
