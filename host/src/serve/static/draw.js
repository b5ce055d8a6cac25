// Drawing for the board page: the board and its moves as SVG from the variant's
// AutoGUI data, and the value history chart. Loaded before app.js, whose state and
// actions (`state`, `$`, `choose`, `select`, `answerFor`) it uses when called; it
// never fetches or changes the game itself, except through those actions.
'use strict';

const COLOURS = { win: '#00a000', tie: '#e6c200', draw: '#e6c200', lose: '#8b0000', unsolved: '#888888' };
const SVG_NS = 'http://www.w3.org/2000/svg';

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null && v !== '') e.setAttribute(k, v);
  }
  if (parent) parent.appendChild(e);
  return e;
}

// ---- the board -----------------------------------------------------------------

function parseMove(s) {
  const p = s.split('_');
  if (p.length !== 4) return null;
  switch (p[0]) {
    case 'A': return { kind: 'A', token: p[1], at: +p[2] };
    case 'M': return { kind: 'M', from: +p[1], to: +p[2] };
    case 'L': return { kind: 'L', from: +p[1], to: +p[2] };
    case 'T': return { kind: 'T', text: p[1], at: +p[2] };
    default: return null;
  }
}

function shapeEl(shape, cx, cy, w, h, attrs, parent) {
  if (shape === 'circle') return el('ellipse', { cx, cy, rx: w / 2, ry: h / 2, ...attrs }, parent);
  if (shape === 'square' || shape === 'rounded') {
    const r = shape === 'rounded' ? Math.min(w, h) * 0.15 : 0;
    return el('rect', { x: cx - w / 2, y: cy - h / 2, width: w, height: h, rx: r, ...attrs }, parent);
  }
  return null;
}

function textEl(text, x, y, size, attrs, parent) {
  const t = el('text', {
    x, y, 'font-size': size, 'text-anchor': 'middle', 'dominant-baseline': 'central',
    'font-family': 'system-ui, sans-serif', 'pointer-events': 'none', ...attrs,
  }, parent);
  t.textContent = text;
  return t;
}

// One clickable element for a set of moves: Enter or Space activates it.
function button(parent, label, moves, onActivate) {
  const g = el('g', { role: 'button', tabindex: 0, 'aria-label': label }, parent);
  g.addEventListener('click', onActivate);
  g.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onActivate(); }
  });
  if (moves) {
    g.dataset.move = moves.map((m) => m.move).join(' ');
    g.dataset.value = moves[0].moveValue;
  }
  return g;
}

function moveLabel(m) {
  const margin = m.margin !== undefined ? `, margin ${marginText(m.margin)}` : '';
  return `move ${m.move}: ${moveWords(m)}${margin}`;
}

function drawBoard(a) {
  const svg = $('board');
  const board = state.variant.board;
  svg.replaceChildren();
  $('board-text').hidden = !!board;
  svg.style.display = board ? '' : 'none';
  if (!board) { $('board-text').textContent = a.board; return; }
  const pad = 0.08;
  svg.setAttribute('viewBox', `${-pad} ${-pad} ${board.width + 2 * pad} ${board.height + 2 * pad}`);
  if (board.background) el('rect', { x: -pad, y: -pad, width: board.width + 2 * pad, height: board.height + 2 * pad, fill: board.background }, svg);
  for (const f of board.fixed) {
    const attrs = { fill: f.fill || 'none', stroke: f.stroke, 'stroke-width': 0.03 };
    shapeEl(f.shape, f.x + f.w / 2, f.y + f.h / 2, f.w, f.h, attrs, svg);
    if (!f.label) continue;
    if (f.shape === 'none') {
      textEl(f.label, f.x + f.w / 2, f.y + f.h / 2, Math.min(f.w, f.h) * 0.55, { fill: f.fill }, svg);
    } else {
      // A label on a shape (a cell number) sits small in its corner, under the tokens.
      const size = Math.min(f.w, f.h) * 0.24;
      textEl(f.label, f.x + size * 0.9, f.y + size * 0.75, size, { fill: '#8a8472' }, svg);
    }
  }
  const cells = Array.from(a.autoguiPosition.slice(2));
  cells.forEach((ch, i) => {
    if (ch === '-' || !board.centers[i]) return;
    drawToken(ch, board.centers[i], svg, {});
  });
  if (!a.over) drawMoves(a, svg);
}

function drawToken(ch, [x, y], parent, extra) {
  const t = state.variant.board.tokens[ch];
  if (!t) { textEl(ch, x, y, 0.6, { fill: '#000', ...extra }, parent); return; }
  shapeEl(t.shape, x, y, t.size, t.size, { fill: t.fill || 'none', stroke: t.stroke, 'stroke-width': 0.04, ...extra }, parent);
  if (t.glyph) {
    textEl(t.glyph, x, y + t.size * 0.04, t.size * 0.75, {
      fill: t.glyphColour || '#000', stroke: t.shape === 'none' ? t.stroke : '', 'stroke-width': 0.02, 'font-weight': 700, ...extra,
    }, parent);
  }
}

// The number on a move's mark: moves until the end after playing it; ∞ for a draw.
function remotenessMark(m) {
  if (m.remoteness >= 0) return String(m.remoteness + 1);
  return m.moveValue === 'draw' ? '∞' : '?';
}

function colourOf(m) { return $('show-values').checked ? COLOURS[m.moveValue] : '#5a7fa8'; }

function drawMoves(a, svg) {
  const board = state.variant.board;
  const parsed = a.moves.map((m) => ({ m, g: parseMove(m.boardMove) })).filter((x) => x.g);
  const values = $('show-values').checked;
  // Moves drawn by the same element (a promotion's four arrows) are chosen among.
  const groups = new Map();
  const add = (key, m, g) => { if (!groups.has(key)) groups.set(key, { g, moves: [] }); groups.get(key).moves.push(m); };
  const sources = new Map();
  for (const { m, g } of parsed) {
    if (g.kind === 'M') {
      if (!sources.has(g.from)) sources.set(g.from, []);
      sources.get(g.from).push(m);
      add(`M${g.from}_${g.to}`, m, g);
    } else {
      add(`${g.kind}${g.at ?? g.from}_${g.to ?? g.text ?? ''}`, m, g);
    }
  }
  if (state.selected === null && sources.size === 1) state.selected = sources.keys().next().value;
  for (const [, { g, moves }] of groups) {
    const best = moves[0];
    const colour = colourOf(best);
    const label = moves.map(moveLabel).join('; ');
    const act = () => choose(moves);
    if (g.kind === 'A') {
      const [x, y] = board.centers[g.at];
      const b = button(svg, label, moves, act);
      el('circle', { cx: x, cy: y, r: 0.3, fill: colour, 'fill-opacity': 0.9, stroke: '#fff', 'stroke-width': 0.03, class: 'mark' }, b);
      el('circle', { cx: x, cy: y, r: 0.36, fill: 'none', stroke: 'transparent', 'stroke-width': 0.05, class: 'focus-ring' }, b);
      if (values) textEl(remotenessMark(best), x, y, 0.26, { fill: best.moveValue === 'tie' || best.moveValue === 'draw' ? '#000' : '#fff', 'font-weight': 700 }, b);
    } else if (g.kind === 'T') {
      const [x, y] = board.centers[g.at];
      const b = button(svg, label, moves, act);
      el('rect', { x: x - 0.6, y: y - 0.22, width: 1.2, height: 0.44, rx: 0.08, fill: colour, class: 'mark' }, b);
      el('rect', { x: x - 0.64, y: y - 0.26, width: 1.28, height: 0.52, rx: 0.1, fill: 'none', stroke: 'transparent', 'stroke-width': 0.04, class: 'focus-ring' }, b);
      textEl(g.text, x, y, 0.26, { fill: best.moveValue === 'tie' || best.moveValue === 'draw' ? '#000' : '#fff', 'font-weight': 700 }, b);
    } else if (g.kind === 'L') {
      const [x1, y1] = board.centers[g.from];
      const [x2, y2] = board.centers[g.to];
      const b = button(svg, label, moves, act);
      el('line', { x1, y1, x2, y2, stroke: colour, 'stroke-width': 0.12, 'stroke-linecap': 'round', class: 'mark' }, b);
    } else if (g.kind === 'M' && g.from === state.selected) {
      drawArrow(svg, board.centers[g.from], board.centers[g.to], colour, label, moves, act);
    }
  }
  // Pieces that can move: a ring in the colour of their best move; click to show arrows.
  for (const [from, moves] of sources) {
    if (from === state.selected && sources.size === 1) continue;
    const [x, y] = board.centers[from];
    const selected = from === state.selected;
    const b = button(svg, `${selected ? 'selected' : 'select'} the piece at ${from}: ${moveLabel(moves[0])}`, null, () => select(selected ? null : from));
    b.dataset.source = from;
    b.dataset.value = moves[0].moveValue;
    // A transparent fill (not none) so a click anywhere on the piece selects it.
    el('circle', { cx: x, cy: y, r: 0.42, fill: selected ? '#1a73e8' : 'transparent', 'fill-opacity': 0.15, stroke: colourOf(moves[0]), 'stroke-width': selected ? 0.08 : 0.045, class: 'mark' }, b);
    el('circle', { cx: x, cy: y, r: 0.49, fill: 'none', stroke: 'transparent', 'stroke-width': 0.04, class: 'focus-ring' }, b);
  }
}

function drawArrow(svg, [x1, y1], [x2, y2], colour, label, moves, act) {
  const b = button(svg, label, moves, act);
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / len, dy / len];
  const [sx, sy] = [x1 + ux * 0.3, y1 + uy * 0.3];
  const [ex, ey] = [x2 - ux * 0.12, y2 - uy * 0.12];
  const head = 0.22;
  const [bx, by] = [ex - ux * head, ey - uy * head];
  el('line', { x1: sx, y1: sy, x2: bx, y2: by, stroke: colour, 'stroke-width': 0.1, 'stroke-linecap': 'round', class: 'mark' }, b);
  el('polygon', {
    points: `${ex},${ey} ${bx - uy * head * 0.6},${by + ux * head * 0.6} ${bx + uy * head * 0.6},${by - ux * head * 0.6}`,
    fill: colour, class: 'mark',
  }, b);
  // A larger invisible target, and the focus ring around the head.
  el('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: 'transparent', 'stroke-width': 0.3 }, b);
  el('circle', { cx: ex - ux * head * 0.5, cy: ey - uy * head * 0.5, r: 0.2, fill: 'none', stroke: 'transparent', 'stroke-width': 0.04, class: 'focus-ring' }, b);
}

// ---- the value history ---------------------------------------------------------

async function drawHistory(seq) {
  const svg = $('history');
  const points = [];
  for (let i = 0; i <= state.index; i++) {
    let a;
    try { a = await answerFor(state.history[i]); } catch (e) { return; }
    if (seq !== state.seq) return;
    // The value for Player 1 (puzzles: for the solver).
    let v = a.positionValue;
    if (a.turn === 2 && (v === 'win' || v === 'lose')) v = v === 'win' ? 'lose' : 'win';
    points.push({ i, v, r: a.remoteness, move: i });
  }
  const known = points.filter((p) => p.r >= 0).map((p) => p.r);
  const maxR = Math.max(1, ...known);
  const W = 320;
  const H = 150;
  const left = 30;
  const right = 10;
  const top = 10;
  const bottom = 28;
  const n = Math.max(points.length - 1, 1);
  const x = (i) => left + (W - left - right) * (i / n);
  // A draw's remoteness is infinite (drawn at the top), an unsolved one unknown (at 0).
  const y = (r) => top + (H - top - bottom) * (1 - (r === -200 ? maxR : Math.max(r, 0)) / maxR);
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  el('line', { x1: left, y1: top, x2: left, y2: H - bottom, stroke: '#999', 'stroke-width': 1 }, svg);
  el('line', { x1: left, y1: H - bottom, x2: W - right, y2: H - bottom, stroke: '#999', 'stroke-width': 1 }, svg);
  textEl(String(maxR), left - 12, y(maxR), 10, { fill: '#666' }, svg);
  textEl('0', left - 12, y(0), 10, { fill: '#666' }, svg);
  textEl('moves played →', (left + W - right) / 2, H - 8, 10, { fill: '#666' }, svg);
  const tx = el('text', { x: 10, y: H / 2 - 4, 'font-size': 10, fill: '#666', transform: `rotate(-90 10 ${H / 2 - 4})`, 'text-anchor': 'middle' }, svg);
  tx.textContent = 'remoteness';
  if (points.length > 1) {
    el('polyline', { points: points.map((p) => `${x(p.i)},${y(p.r)}`).join(' '), fill: 'none', stroke: '#bbb', 'stroke-width': 1.5 }, svg);
  }
  for (const p of points) {
    const c = el('circle', { cx: x(p.i), cy: y(p.r), r: 4, fill: COLOURS[p.v] || COLOURS.unsolved, 'data-value': p.v }, svg);
    const title = el('title', {}, c);
    title.textContent = `after ${p.i} moves: ${p.v} for ${state.variant.players === 1 ? 'the solver' : 'Player 1'}` + (p.r >= 0 ? `, remoteness ${p.r}` : '');
  }
  el('desc', {}, svg).textContent = 'Dots: each position so far, coloured by its value for Player 1 (green win, yellow tie or draw, dark red lose), at its remoteness.';
}
