(() => {
  const L = {{constants}};
  const canvas = document.getElementById('larsbar');
  const caption = document.getElementById('larsbarCaption');
  const params = new URLSearchParams(location.search);
  const asked = parseInt(params.get('scale') || '0', 10);
  const s = Math.min(3, Math.max(1, asked || Math.round(window.devicePixelRatio || 1)));
  const wantPixels = params.get('pixels') === '1';
  // ?still=1: lights show their targets at once, as a still of the
  // rasterizer (`paintSettled`) does; headless snapshots cannot wait for fades.
  const still = params.get('still') === '1';
  canvas.width = Math.round(L.width * s); canvas.height = Math.round(L.height * s);
  canvas.style.width = L.width + 'px'; canvas.style.height = L.height + 'px';
  if (L.interactive) canvas.classList.add('interactive');
  const ctx = canvas.getContext('2d');
  const thumbBase = new Image(), thumbShine = new Image();
  let loaded = 0;
  for (const image of [thumbBase, thumbShine]) image.onload = () => { loaded += 1; dirty = true; };
  thumbBase.src = '/layers/thumb-base@' + s + 'x.png';
  thumbShine.src = '/layers/thumb-shine@' + s + 'x.png';

  let value = 1, levels = null, shines = [{ rotation: 0, opacity: 0 }, { rotation: 0, opacity: 0 }];
  let dirty = true, drawnKey = '';
  const settled = level => ({ start: level, target: level, at: -Infinity });
  const fades = { left: [], right: [] };
  for (let i = 0; i < L.n; i++) { fades.left.push(settled(0)); fades.right.push(settled(0)); }

  // TimingCurve.progress: x(t) = x by 40 bisections, then y(t).
  function bezier(t, p1, p2) { const u = 1 - t; return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t; }
  function progress(x) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    let lo = 0, hi = 1;
    for (let k = 0; k < 40; k++) { const mid = (lo + hi) / 2; if (bezier(mid, L.curve[0], L.curve[2]) < x) lo = mid; else hi = mid; }
    return bezier((lo + hi) / 2, L.curve[1], L.curve[3]);
  }
  // EQLightFade: σ at a time, and aiming at lit or dark.
  function sigma(fade, now) {
    const p = progress((now - fade.at) / L.fadeSeconds);
    // Ended fades land exactly on the target (0.3 + 0.7 · 1 is not 1).
    if (fade.start === fade.target || p >= 1) return fade.target;
    return fade.start + (fade.target - fade.start) * p;
  }
  function aim(fade, lit, now) {
    const target = lit ? 1 : 0;
    if (target === fade.target) return;
    fade.start = still ? target : sigma(fade, now); fade.target = target; fade.at = now;
  }
  const clampUnit = x => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
  // EQSliderModel, range 0…1: the active fraction and floor(N·ℓ·v/vmax).
  const fraction = () => clampUnit(value);
  const isActive = i => i / L.n < fraction();
  function litCount(level) {
    const lit = Math.floor(L.n * clampUnit(level) * value / 1);
    return Number.isFinite(lit) ? Math.min(L.n, Math.max(0, lit)) : 0;
  }
  function retarget() {
    const now = performance.now() / 1000;
    const left = litCount(levels ? levels.left : 0), right = litCount(levels ? levels.right : 0);
    for (let i = 0; i < L.n; i++) { aim(fades.left[i], i < left, now); aim(fades.right[i], i < right, now); }
    dirty = true;
  }
  const rgba = (c, alpha) => 'rgba(' + c[0] + ',' + c[1] + ',' + c[2] + ',' + (c[3] * alpha) + ')';
  function disc(x, y, r, colour) { ctx.fillStyle = colour; ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill(); }

  // EQSliderPainter.paintLight, in device pixels.
  function light(i, rowY, active, level) {
    const x0 = ((L.cellWidth + L.gap) * i + L.gap) * s, y0 = (rowY - L.cellHeight / 2) * s;
    const cx = x0 + L.dotX * s, cy = y0 + L.dotY * s, r = L.dotRadius * s;
    const colour = L.sections[Math.floor(L.sections.length * i / L.n)];
    ctx.save();
    ctx.beginPath(); ctx.rect(x0, y0, L.cellWidth * s, L.cellHeight * s); ctx.clip();
    disc(cx, cy, r, rgba(active ? L.activeResting : L.inactiveResting, 1));
    if (level > 0) { disc(cx, cy + 1, r, rgba(L.shadow, level)); disc(cx, cy, r, rgba(colour, level)); }
    ctx.strokeStyle = rgba(L.outline, 1); ctx.lineWidth = 1;
    ctx.beginPath(); ctx.arc(cx, cy, r, 0, 2 * Math.PI); ctx.stroke();
    if (level > 0.5) {
      const gx = x0 + L.dotX * s, gy = y0 + (6 - (1 - 1 / s)) * s, outer = 6 * level * s;
      const glow = ctx.createRadialGradient(gx, gy, 0, gx, gy, outer);
      glow.addColorStop(0, rgba(colour, 0.2 * level)); glow.addColorStop(0.5, rgba(colour, 0.2 * level));
      glow.addColorStop(1, rgba(colour, 0));
      ctx.fillStyle = glow; ctx.fillRect(gx - outer, gy - outer, 2 * outer, 2 * outer);
    }
    ctx.restore();
  }
  function thumbCentreX() { return L.thumbFrame / 2 + fraction() * (L.width - L.thumbFrame); }
  function draw(now) {
    const w = canvas.width, h = canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.globalAlpha = 1;
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = rgba(L.body, 1); ctx.fillRect(0, 0, w, h);
    const radius = L.groove / 2 * s, midY = L.height / 2 * s;
    ctx.fillStyle = rgba(L.grooveColour, 1); ctx.beginPath();
    ctx.arc(radius, midY, radius, Math.PI / 2, 3 * Math.PI / 2); ctx.arc(w - radius, midY, radius, -Math.PI / 2, Math.PI / 2);
    ctx.closePath(); ctx.fill();
    let running = false;
    for (const [row, rowY] of [[fades.left, L.height / 2 - L.rowOffset], [fades.right, L.height / 2 + L.rowOffset]]) {
      for (let i = L.n - 1; i >= 0; i--) {
        const level = clampUnit(sigma(row[i], now));
        if (level !== row[i].target) running = true;
        light(i, rowY, isActive(i), level);
      }
    }
    const frame = L.thumbFrame * s;
    const x = Math.round((thumbCentreX() - L.thumbFrame / 2) * s), y = Math.round((L.height / 2 - L.thumbFrame / 2) * s);
    if (loaded === 2) {
      ctx.drawImage(thumbBase, x, y, frame, frame);
      for (const shine of shines) {
        ctx.save(); ctx.globalAlpha = clampUnit(shine.opacity);
        ctx.translate(x + frame / 2, y + frame / 2); ctx.rotate(shine.rotation);
        ctx.drawImage(thumbShine, -frame / 2, -frame / 2, frame, frame);
        ctx.restore();
      }
    }
    return running;
  }
  function describe(running) {
    const d = canvas.dataset;
    d.scale = String(s); d.value = String(value);
    d.left = String(levels ? levels.left : 0); d.right = String(levels ? levels.right : 0);
    d.lit = litCount(levels ? levels.left : 0) + ' ' + litCount(levels ? levels.right : 0);
    let active = 0; for (let i = 0; i < L.n; i++) if (isActive(i)) active += 1;
    d.active = String(active);
    d.shines = shines.map(x => x.rotation + ' ' + x.opacity).join(' ');
    d.thumbLoaded = String(loaded === 2);
    const isSettled = !running && loaded === 2;
    d.settled = String(isSettled);
    const key = [d.value, d.lit, d.shines, d.active].join('|');
    if (!isSettled) { delete d.pixels; drawnKey = ''; }
    if (wantPixels && isSettled && key !== drawnKey) { d.pixels = canvas.toDataURL('image/png'); drawnKey = key; }
  }
  function frame() {
    const now = performance.now() / 1000;
    if (dirty) { dirty = draw(now); describe(dirty); }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  stateListeners.push(state => { shines = state.shine.map(x => ({ rotation: x.rotation, opacity: x.opacity })); dirty = true; });
  events.addEventListener('levels', e => {
    levels = JSON.parse(e.data);
    caption.textContent = 'levels L ' + Number(levels.left).toFixed(2) + ' · R ' + Number(levels.right).toFixed(2)
      + (L.interactive ? ' · volume ' + Math.round(value * 100) + ' %' : '');
    retarget();
  });

  // The value: the server's volume events, and (interactive) the user's drag.
  let lastSentAt = -Infinity, dragging = false, socket = null, pending = null, sendTimer = null;
  events.addEventListener('volume', e => {
    const message = JSON.parse(e.data);
    if (dragging || performance.now() - lastSentAt < 500) return;
    value = clampUnit(Number(message.value)); canvas.dataset.volumeEvents = String(1 + Number(canvas.dataset.volumeEvents || 0));
    retarget();
  });
  if (!L.interactive) return;
  // The page's own WebSocket when it streams over one (with other input
  // on), else a socket of the slider's own for its input.
  const shared = typeof events.send === 'function';
  function flush() {
    sendTimer = null;
    if (pending === null) return;
    const text = JSON.stringify({ control: 'volume', value: pending });
    if (shared) {
      // Not open yet (or reconnecting): try again shortly.
      if (!events.send(text)) { sendTimer = setTimeout(flush, 50); return; }
    } else {
      if (!socket || socket.readyState > 1) {
        socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
        socket.onopen = flush;
        socket.onmessage = m => { if (m.data.startsWith('{"error"')) caption.textContent = JSON.parse(m.data).error; };
      }
      if (socket.readyState !== 1) return;
      socket.send(text);
    }
    canvas.dataset.sent = String(pending);
    pending = null; lastSentAt = performance.now();
    sendTimer = setTimeout(flush, 50);
  }
  function choose(e) {
    const box = canvas.getBoundingClientRect();
    const points = (e.clientX - box.left) * L.width / box.width;
    value = clampUnit((points - L.thumbFrame / 2) / (L.width - L.thumbFrame));
    retarget();
    pending = value; lastSentAt = performance.now();
    if (sendTimer === null) flush();
  }
  canvas.addEventListener('pointerdown', e => { dragging = true; canvas.setPointerCapture(e.pointerId); choose(e); });
  canvas.addEventListener('pointermove', e => { if (dragging) choose(e); });
  for (const end of ['pointerup', 'pointercancel']) canvas.addEventListener(end, e => { if (dragging) { choose(e); dragging = false; } });
})();
