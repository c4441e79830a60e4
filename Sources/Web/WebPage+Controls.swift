/// The page's controls beside the knob (docs/controls.md): the Spark
/// recording ring (`Setting.recordDir`) and the linked RGB sliders that set the
/// light's colour (live with `Setting.interactive`, display-only without).
///
/// The ring is drawn on a canvas with the painter's geometry
/// (`RecordingRingPainter`: path from 9 o'clock counter-clockwise, radius
/// S/2 − 20, 7 px flat-ended stroke, grey track over the unused part); the
/// server's `ring` field says which segments exist and, while held, how
/// long the hold has lasted, and the page grows the newest segment from
/// there, linearly, as the model does. Pressing the ring sends
/// `{"control":"ring","value":1}` on the page's WebSocket, releasing
/// (pointer up, cancel, or capture lost) `…"value":0`. The sliders' tracks
/// run from the colour with their component at 0 to it at 1, linear in
/// 0–255 values; moving one sends `{"control":"light-red","value":0…1}`
/// (at most every 100 ms while dragging, within the input rate limit),
/// and every viewer's shines take the colour when the server streams it
/// back (`light`). The newest ring and light are written to `data-*`
/// attributes of `#ring` and `#knob` for tests.
extension WebPage {
    /// Side of the ring's canvas in CSS pixels.
    static let ringSize = 240

    static let controlsCSS = """
      .card { background: #fff; color: #333; border-radius: 10px; padding: 12px 16px; margin-bottom: 16px;
              width: fit-content; }
      .card h2 { font-size: 13px; font-weight: 600; margin: 0 0 8px; color: #555; }
      #ring { display: block; width: \(ringSize)px; height: \(ringSize)px; touch-action: none; cursor: pointer;
              border: 0; margin: 0; background: #fff; }
      #ringStatus { font-size: 13px; max-width: \(ringSize)px; min-height: 2.9em; }
      .buttons { display: flex; gap: 8px; align-items: center; margin-top: 6px; font-size: 13px; }
      .buttons button { font: inherit; }
      #swatch { width: 50px; height: 50px; margin-bottom: 6px; border: 1px solid #ddd; }
      .slider { display: flex; align-items: center; gap: 8px; font-size: 12px; color: #666; }
      .slider span { width: 3.2em; }
      input.track { -webkit-appearance: none; appearance: none; width: 280px; height: 6px; margin: 11px 0;
                    border-radius: 0; outline: none; }
      input.track::-webkit-slider-thumb { -webkit-appearance: none; appearance: none; width: 28px; height: 28px;
                    border-radius: 50%; background: #fff; border: 0.5px solid rgba(0, 0, 0, 0.2);
                    box-shadow: 0 3px 8px rgba(0, 0, 0, 0.25); }
      input.track:disabled::-webkit-slider-thumb { box-shadow: 0 1px 3px rgba(0, 0, 0, 0.2); }
    """

    /// The controls' markup: the ring when recording is on, the sliders always.
    static func controlsHTML(_ controls: WebPageControls) -> String {
        var html = "<section id=\"controls\">\n"
        if let recorder = controls.recorder {
            html += """
              <div class="card">
                <h2>Record (hold the ring, up to \(JSONText.number(recorder.limitSeconds, decimals: 3)) s)</h2>
                <canvas id="ring" width="\(ringSize)" height="\(ringSize)" aria-label="recording ring: press and hold to record"></canvas>
                <div id="ringStatus">connecting…</div>
                <div class="buttons"><button id="ringFinish" disabled>Finish</button>
                  <button id="ringReset" disabled>New recording</button>
                  <a id="ringDownload" hidden download>Download trace</a></div>
              </div>

            """
        }
        let disabled = controls.light?.interactive == true ? "" : " disabled"
        html += "  <div class=\"card\" id=\"light\"><h2>Light colour"
            + (disabled.isEmpty ? "" : " (start tiltd serve with --interactive to change it)") + "</h2>\n"
            + "    <div id=\"swatch\"></div>\n"
        for component in ["red", "green", "blue", "alpha"] {
            html += "    <label class=\"slider\"><span>\(component)</span><input class=\"track\" type=\"range\" "
                + "id=\"light-\(component)\" min=\"0\" max=\"255\" step=\"1\" value=\"255\"\(disabled)></label>\n"
        }
        return html + "  </div>\n</section>\n"
    }

    /// The controls' script; defines `takesInput`, `openStream()` (an
    /// `EventSource`, or with input a WebSocket stream that offers the same
    /// `addEventListener` for channels, and `send`),
    /// `applyControls(state)` and `controlMessage(message)` for the page's main script.
    static func controlsScript(_ controls: WebPageControls) -> String {
        #"""
        const takesInput = \#(controls.takesInput);
        const hasRing = \#(controls.recorder != nil);
        // With input the page streams over /ws, which carries its messages
        // back too. The stream then acts as the EventSource of /events does
        // for the page's parts: a channel's {"NAME":VALUE} goes to the
        // listeners of NAME (addEventListener) as an event whose data is
        // VALUE's JSON, and every message to onmessage.
        function openStream() {
          if (!takesInput) return new EventSource('/events');
          const listeners = new Map();
          const stream = { onopen: null, onerror: null, onmessage: null, closed: false, ws: null,
            close() { this.closed = true; if (this.ws) this.ws.close(); },
            get ready() { return this.ws !== null && this.ws.readyState === 1; },
            send(text) { if (this.ready) { this.ws.send(text); return true; } return false; },
            addEventListener(type, listener) {
              if (!listeners.has(type)) listeners.set(type, []);
              listeners.get(type).push(listener);
            } };
          const dispatch = e => {
            let message = null;
            try { message = JSON.parse(e.data); } catch (error) { return; }
            if (message === null || typeof message !== 'object' || message.shine) return;
            const keys = Object.keys(message);
            if (keys.length !== 1 || !listeners.has(keys[0])) return;
            const event = { type: keys[0], data: JSON.stringify(message[keys[0]]) };
            listeners.get(keys[0]).forEach(listener => listener(event));
          };
          const connect = () => {
            const ws = new WebSocket('ws://' + location.host + '/ws');
            stream.ws = ws;
            ws.onopen = e => { if (stream.onopen) stream.onopen(e); };
            ws.onmessage = e => { dispatch(e); if (stream.onmessage) stream.onmessage(e); };
            ws.onclose = e => { if (stream.onerror) stream.onerror(e); if (!stream.closed) setTimeout(connect, 1000); };
          };
          connect();
          return stream;
        }
        function send(control, value) { if (takesInput && events.send) events.send(JSON.stringify({ control, value })); }
        // A message on the stream that is not a state: a refusal, or a control's channel.
        function controlMessage(message) {
          if (message.error) { document.body.dataset.inputError = message.error; }
          if (message.ring) applyRing(message.ring);
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
          const ratio = window.devicePixelRatio || 1, size = \#(ringSize);
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
        """#
    }
}
