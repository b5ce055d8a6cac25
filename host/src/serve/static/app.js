// The board page of `host serve`: pick a game and variant, play on an SVG board drawn
// from the module's AutoGUI data (draw.js), with every move coloured by its value.
//
// Everything it knows comes from the JSON API under /api/ (the same answers
// GamesmanUni reads); it never decides values itself. The computer's moves come from
// /api/<game>/<variant>/computer/, which chooses as the text player does.
'use strict';

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

// The API gives positions with % # & + percent-encoded (GamesmanUni sends them in
// query strings unencoded); they are shown as the module writes them.
function shownText(position) {
  try { return decodeURIComponent(position); } catch (e) { return position; }
}

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
  $('position').textContent = shownText(a.position);
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
    const g = parseMove(m.boardMove);
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
