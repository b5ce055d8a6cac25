// The board page of `host serve`: pick a game and variant, play on an SVG board drawn
// from the module's AutoGUI data, with every move coloured by its value.
//
// Everything it knows comes from the JSON API under /api/ (the same answers
// GamesmanUni reads); it never decides values itself. The computer's moves come from
// /api/<game>/<variant>/computer/, which chooses as the text player does.
'use strict';

const COLOURS = { win: '#00a000', tie: '#e6c200', draw: '#e6c200', lose: '#8b0000', unsolved: '#888888' };
const SVG_NS = 'http://www.w3.org/2000/svg';
const COMPUTER_DELAY_MS = 350;

const state = {
  games: [],
  game: null,        // the game's answer (/api/<game>/)
  variant: null,     // the variant's answer (/api/<game>/<variant>/)
  first: null,       // the position games start from (the variant's start unless given)
  history: [],       // position texts, the first one first
  index: 0,          // the position shown
  answers: new Map(),// position text -> positions answer
  selected: null,    // the center whose arrows are shown (M moves)
  auto: true,        // whether the computer moves by itself now
  seq: 0,            // bumped on every change, so late answers are dropped
};

const $ = (id) => document.getElementById(id);

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null && v !== '') e.setAttribute(k, v);
  }
  if (parent) parent.appendChild(e);
  return e;
}

async function api(path) {
  const response = await fetch('/api/' + path);
  let body;
  try {
    body = await response.json();
  } catch (e) {
    throw new Error(`${response.status} from /api/${path}`);
  }
  if (!response.ok || (body && body.error)) throw new Error(body.error || `${response.status}`);
  return body;
}

function base() {
  return `${encodeURIComponent(state.game.id)}/${encodeURIComponent(state.variant.id)}/`;
}

function say(text) { $('message').textContent = text || ''; }

// ---- loading -------------------------------------------------------------------

async function start() {
  try {
    state.games = await api('');
    const select = $('game');
    for (const g of state.games) select.add(new Option(g.name === g.id ? g.id : `${g.name} (${g.id})`, g.id));
    // ?game=G&variant=V&p=POSITION opens a position; #G/V a variant's start.
    const query = new URLSearchParams(location.search);
    const [hg, hv] = decodeURIComponent(location.hash.slice(1)).split('/');
    const g = query.get('game') || hg;
    const first = state.games.find((x) => x.id === g) || state.games[0];
    if (!first) { $('prediction').textContent = 'No games are served.'; return; }
    await loadGame(first.id, query.get('variant') || hv, query.get('p'));
  } catch (e) { say(e.message); }
}

async function loadGame(id, variantId, position) {
  state.game = await api(encodeURIComponent(id) + '/');
  $('game').value = id;
  const select = $('variant');
  select.replaceChildren();
  for (const v of state.game.variants) {
    const note = v.status === 'solved' ? '' : ` (${v.status})`;
    select.add(new Option(`${v.id}${note}`, v.id));
  }
  const pick = state.game.variants.find((x) => x.id === variantId) || state.game.variants[0];
  await loadVariant(pick.id, pick.id === variantId ? position : null);
}

async function loadVariant(id, position) {
  state.variant = await api(`${encodeURIComponent(state.game.id)}/${encodeURIComponent(id)}/`);
  $('variant').value = id;
  if (!position) history.replaceState(null, '', `${location.pathname}#${state.game.id}/${id}`);
  $('status').textContent = state.variant.status;
  const puzzle = state.variant.players === 1;
  $('side2-label').hidden = puzzle;
  $('side1-label').firstChild.textContent = puzzle ? 'Solver ' : 'Player 1 ';
  if (puzzle) $('side1').value = 'human';
  for (const o of $('mode').options) {
    if (o.value !== 'remoteness') o.disabled = !state.variant.supportsWinBy;
  }
  if (!state.variant.supportsWinBy) $('mode').value = 'remoteness';
  $('analysis').replaceChildren();
  $('analyze').disabled = false;
  api(base() + 'instructions/').then((i) => { $('instructions').textContent = i.instructions; })
    .catch((e) => say(e.message));
  state.answers.clear();
  state.first = position || state.variant.startPosition;
  newGame();
}

function newGame() {
  state.history = [state.first];
  state.index = 0;
  state.auto = true;
  show();
}

async function answerFor(position) {
  if (!state.answers.has(position)) {
    state.answers.set(position, await api(base() + 'positions/?p=' + encodeURIComponent(position)));
  }
  return state.answers.get(position);
}

// ---- showing a position ----------------------------------------------------------

async function show() {
  const seq = ++state.seq;
  state.selected = null;
  $('chooser').hidden = true;
  say('');
  let a;
  try {
    a = await answerFor(state.history[state.index]);
  } catch (e) { say(e.message); return; }
  if (seq !== state.seq) return;
  $('position').textContent = a.position;
  $('tier').textContent = `tier ${a.tier} "${a.tierName}"`;
  $('prediction').textContent = prediction(a);
  $('undo').disabled = state.index === 0;
  $('redo').disabled = state.index >= state.history.length - 1;
  $('go').disabled = a.over;
  const sol = $('solution');
  sol.hidden = !a.solution;
  if (a.solution) sol.textContent = `Shortest solution from here (${a.solution.length} moves): ${a.solution.join(' ')}`;
  drawBoard(a);
  listMoves(a);
  drawHistory(seq);
  computerTurn(a, seq);
}

function sideOf(turn) {
  if (state.variant.players === 1) return $('side1').value;
  return $(turn === 2 ? 'side2' : 'side1').value;
}

function playerName(turn) {
  if (state.variant.players === 1) return 'You';
  return `Player ${turn} (${sideOf(turn)})`;
}

function marginText(m) { return m === undefined || m === null ? '' : (m > 0 ? `+${m}` : `${m}`); }

function prediction(a) {
  const puzzle = state.variant.players === 1;
  if (a.over) {
    if (puzzle) return a.positionValue === 'win' ? `Solved in ${state.index} moves!` : `Stuck after ${state.index} moves: no moves left.`;
    const margin = a.margin !== undefined && a.positionValue !== 'tie' ? ` by ${Math.abs(a.margin)}` : '';
    if (a.positionValue === 'tie') return `Game over: a tie after ${state.index} moves.`;
    const winner = a.positionValue === 'win' ? a.turn : 3 - a.turn;
    return `Game over: ${playerName(winner)} wins${margin} after ${state.index} moves.`;
  }
  const who = playerName(a.turn);
  switch (a.positionValue) {
    case 'unsolved': return `${who} to move (this position is not solved).`;
    case 'draw': return `${who} to move: should draw.`;
    default:
      if (puzzle) return a.positionValue === 'win' ? `Solvable in ${a.remoteness} moves.` : 'This position cannot be solved any more.';
      return `${who} to move: should ${a.positionValue} in ${a.remoteness}` +
        (a.margin !== undefined && a.positionValue !== 'tie' ? ` by ${Math.abs(a.margin)}.` : '.');
  }
}

function moveWords(m) {
  const puzzle = state.variant.players === 1;
  const r = m.remoteness >= 0 ? m.remoteness + 1 : null;
  if (m.moveValue === 'unsolved') return 'unsolved';
  if (m.moveValue === 'draw') return 'draw';
  if (puzzle) return m.moveValue === 'win' ? `solved in ${r}` : 'unsolvable';
  return r === null ? m.moveValue : `${m.moveValue} in ${r}`;
}

function listMoves(a) {
  const list = $('moves');
  list.replaceChildren();
  if (a.over || a.moves.length === 0) {
    const li = document.createElement('li');
    li.textContent = 'No moves: the game is over.';
    list.appendChild(li);
    return;
  }
  const values = $('show-values').checked;
  for (const m of a.moves) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'move';
    b.dataset.move = m.move;
    b.dataset.value = m.moveValue;
    b.style.background = values ? COLOURS[m.moveValue] : '#51606e';
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = m.move;
    const words = document.createElement('span');
    words.className = 'words';
    words.textContent = values ? moveWords(m) : '';
    b.append(name, words);
    if (m.margin !== undefined) {
      const margin = document.createElement('span');
      margin.className = 'margin';
      margin.textContent = values ? marginText(m.margin) : '';
      b.append(margin);
    }
    b.addEventListener('click', () => play(m));
    li.appendChild(b);
    list.appendChild(li);
  }
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
  const parsed = a.moves.map((m) => ({ m, g: parseMove(m.autoguiMove) })).filter((x) => x.g);
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

function select(center) {
  state.selected = center;
  answerFor(state.history[state.index]).then((a) => drawBoard(a)).then(() => {
    const again = center === null ? null : $('board').querySelector(`[data-source="${center}"]`);
    if (again) again.focus();
  });
}

// Several moves drawn as one element (a pawn promoting): ask which.
function choose(moves) {
  if (moves.length === 1) { play(moves[0]); return; }
  const box = $('chooser');
  box.replaceChildren();
  for (const m of moves) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `${m.move} (${moveWords(m)})`;
    b.dataset.move = m.move;
    b.dataset.value = m.moveValue;
    b.style.background = colourOf(m);
    b.addEventListener('click', () => play(m));
    box.appendChild(b);
  }
  box.hidden = false;
  box.firstChild.focus();
}

function play(m) {
  state.history = state.history.slice(0, state.index + 1);
  state.history.push(m.position);
  state.index += 1;
  state.auto = true;
  show();
}

// ---- the computer --------------------------------------------------------------

function computerTurn(a, seq) {
  if (a.over || !state.auto || sideOf(a.turn) !== 'computer') return;
  setTimeout(() => computerMove(a, seq), COMPUTER_DELAY_MS);
}

async function computerMove(a, seq) {
  if (seq !== state.seq || a.over) return;
  try {
    const c = await api(base() + `computer/?p=${encodeURIComponent(a.position)}&mode=${$('mode').value}`);
    if (seq !== state.seq) return;
    const m = a.moves.find((x) => x.move === c.move);
    if (m) play(m); else say(`the computer chose ${c.move}, which is not listed here`);
  } catch (e) { say(e.message); }
}

// ---- undo, redo, keys ----------------------------------------------------------

function undo() {
  if (state.index === 0) return;
  state.index -= 1;
  // Back to a human's decision, when one side is human.
  const human = (i) => {
    const a = state.answers.get(state.history[i]);
    return !a || sideOf(a.turn) === 'human';
  };
  while (state.index > 0 && !human(state.index)) state.index -= 1;
  state.auto = false;
  show();
}

function redo() {
  if (state.index >= state.history.length - 1) return;
  state.index += 1;
  state.auto = false;
  show();
}

// An arrow key: the move of the selected piece (or the only piece that can go that
// way) whose arrow points most nearly that way.
function arrowKey(key) {
  const a = state.answers.get(state.history[state.index]);
  const board = state.variant.board;
  if (!a || !board || a.over) return false;
  const [wx, wy] = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
  const candidates = [];
  for (const m of a.moves) {
    const g = parseMove(m.autoguiMove);
    if (!g || g.kind !== 'M') continue;
    if (state.selected !== null && g.from !== state.selected) continue;
    const [x1, y1] = board.centers[g.from];
    const [x2, y2] = board.centers[g.to];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const cos = ((x2 - x1) * wx + (y2 - y1) * wy) / len;
    if (cos > 0.7) candidates.push({ m, from: g.from, len });
  }
  const froms = new Set(candidates.map((c) => c.from));
  if (froms.size !== 1) {
    if (froms.size > 1) say('Several pieces can move that way: select one first (Tab to it, Enter).');
    return froms.size > 1;
  }
  candidates.sort((p, q) => p.len - q.len);
  play(candidates[0].m);
  return true;
}

document.addEventListener('keydown', (e) => {
  const t = e.target;
  if (t instanceof HTMLSelectElement || t instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key.startsWith('Arrow')) {
    if (arrowKey(e.key)) e.preventDefault();
  } else if (e.key === 'u' || e.key === 'U') {
    undo();
  } else if (e.key === 'r' || e.key === 'R') {
    redo();
  } else if (e.key === 'Escape') {
    $('chooser').hidden = true;
    if (state.selected !== null) select(null);
  }
});

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

// ---- analysis ------------------------------------------------------------------

async function showAnalysis() {
  const out = $('analysis');
  $('analyze').disabled = true;
  out.textContent = 'Counting every position (large games take a while)…';
  try {
    const a = await api(base() + 'analysis/');
    out.replaceChildren();
    const table = document.createElement('table');
    const rows = [['', 'total', 'win', 'lose', 'tie', 'draw', 'unsolved']];
    for (const [name, s] of [['legal', a.legal], ['reachable', a.reachable]]) {
      const c = s.counts;
      rows.push([name, c.total, c.by_value.win, c.by_value.lose, c.by_value.tie, c.by_value.draw, c.by_value.unsolved]);
    }
    rows.forEach((r, i) => {
      const tr = table.insertRow();
      for (const cell of r) {
        const td = document.createElement(i === 0 ? 'th' : 'td');
        td.textContent = typeof cell === 'number' ? cell.toLocaleString('en') : cell;
        tr.appendChild(td);
      }
    });
    out.appendChild(table);
    if (a.canonical_only) {
      const p = document.createElement('p');
      p.className = 'small muted';
      p.textContent = 'Positions equal under the game\'s symmetries are counted once.';
      out.appendChild(p);
    }
    const img = document.createElement('img');
    img.alt = `${a.game} (${a.variant}): positions by value and remoteness`;
    img.src = '/api/' + base() + 'analysis/plot.svg';
    out.appendChild(img);
  } catch (e) {
    out.textContent = '';
    say(e.message);
    $('analyze').disabled = false;
  }
}

// ---- wiring --------------------------------------------------------------------

$('game').addEventListener('change', (e) => loadGame(e.target.value).catch((x) => say(x.message)));
$('variant').addEventListener('change', (e) => loadVariant(e.target.value).catch((x) => say(x.message)));
$('undo').addEventListener('click', undo);
$('redo').addEventListener('click', redo);
$('restart').addEventListener('click', newGame);
$('go').addEventListener('click', () => {
  const a = state.answers.get(state.history[state.index]);
  if (a) computerMove(a, state.seq);
});
for (const id of ['side1', 'side2', 'mode']) {
  $(id).addEventListener('change', () => { state.auto = true; show(); });
}
$('show-values').addEventListener('change', () => show());
$('analyze').addEventListener('click', showAnalysis);
start();
