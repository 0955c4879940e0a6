// The desk's pages: the operator's desk (and an advisor's) and the
// audience screen. Both follow the match through server-sent events and
// count the running clock down between them; the desk enters turns
// through the same JSON API that the manual documents.
"use strict";

const page = document.body.dataset.page;
const params = new URLSearchParams(location.search);
const token = params.get("token") || sessionStorage.getItem("desk-token") || "";
if (token) sessionStorage.setItem("desk-token", token);
const $ = (id) => document.getElementById(id);

let state = null;
let received = 0;
let chosen = new Map();
let adviceVersion = -1;

function clockText(ms) {
  ms = Math.max(0, ms);
  const tenths = Math.floor(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  return `${minutes}:${String(seconds).padStart(2, "0")}.${tenths % 10}`;
}

// The clocks as they stand now: the mover's and the game's run down from
// the last state while the desk's clock runs.
function clocksNow() {
  const spent = state && state.running ? performance.now() - received : 0;
  const mover = state && state.to_move;
  const left = (team) => state.teams[team].team_left_ms - (team === mover ? spent : 0);
  return { A: left("A"), B: left("B"), game: state.game_left_ms - spent };
}

function drawClocks() {
  if (!state) return;
  const now = clocksNow();
  const row = (label, cls, ms, extra) =>
    `<span class="label ${cls}">${label}</span><span class="time ${cls} ${extra}">${clockText(ms)}</span>`;
  const team = (t) => {
    const info = state.teams[t];
    const name = info.name && info.name !== t ? `${t} · ${escapeHtml(info.name)}` : t;
    const extra = (state.to_move === t ? "moving" : "") + (info.out ? " out" : "");
    return row(name, `team-${t.toLowerCase()}`, now[t], extra);
  };
  $("clocks").innerHTML = team("A") + team("B") + row("game", "", now.game, "");
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function phaseText() {
  const s = state;
  if (s.phase === "before") return "Ready: game 1 has not started";
  if (s.phase === "playing") return `Game ${s.game} · turn ${s.turn} · ${s.to_move} to move${s.paused ? " · PAUSED" : ""}`;
  if (s.phase === "between") return `Game 1 over (${s.end}) · game 2 next`;
  const m = s.match;
  if (m && m.needs_janken) return "Both games over: level on every count, a janken decides";
  if (m && m.winner) return `Match over: ${m.winner} wins by ${m.by} (criterion ${m.criterion})`;
  return "Match over";
}

function render() {
  const s = state;
  $("phase").textContent = phaseText();
  const img = $("board-img");
  if (s.picture) {
    const src = `/api/board.png?v=${s.version}`;
    if (img.getAttribute("src") !== src) img.setAttribute("src", src);
    img.hidden = false;
  } else {
    img.hidden = true;
  }
  // The picture carries its caption; the screen says it again, large.
  const caption = $("caption");
  if (caption) caption.textContent = s.picture ? s.picture.caption + (s.picture.detail ? ` — ${s.picture.detail}` : "") : "";
  drawClocks();
  if (page === "screen") return renderScreen();
  renderDesk();
}

function renderScreen() {
  const s = state;
  const lines = s.results.map((r, i) => `Game ${i + 1}: A ${r.territory.A} – B ${r.territory.B}`);
  if (s.match && s.match.winner) lines.push(`<strong>${s.match.winner} wins the match</strong> (${s.match.by})`);
  $("results").innerHTML = lines.join("<br>");
}

function renderDesk() {
  const s = state;
  $("role").textContent = s.advise ? `advisor for ${s.advise} · no referee's authority` : "desk";
  $("start").disabled = !(s.phase === "before" || s.phase === "between");
  $("start").textContent = s.phase === "between" ? "Start game 2" : "Start game 1";
  $("pause").disabled = s.phase !== "playing" || s.clock !== "wall";
  $("pause").textContent = s.paused ? "Resume" : "Pause";
  $("undo").disabled = !(s.game > 0 && (s.phase !== "before") && s.turn > (s.phase === "playing" ? 1 : 0));
  $("turn-no").textContent = s.phase === "playing" ? `${s.game}:${s.turn}` : "–";
  $("to-move").textContent = s.to_move || "nobody";
  $("end-turn").disabled = s.phase !== "playing";
  $("duration-field").hidden = s.clock !== "manual";
  $("record").textContent = s.record;
  // A record that cannot be written is said until it can be again.
  if (s.record_error) $("error").textContent = `The record is not being saved: ${s.record_error}`;
  $("janken").hidden = !(s.match && s.match.needs_janken);
  $("setup").hidden = s.phase !== "before" || Boolean(s.advise);
  if (s.phase === "before" && !$("setup-text").value) $("setup-text").value = s.record;
  drawCellTargets();
  if (s.advise && s.version !== adviceVersion) {
    adviceVersion = s.version;
    fetchAdvice();
  }
}

function drawCellTargets() {
  const board = $("board");
  board.querySelectorAll(".cell-hit").forEach((el) => el.remove());
  const img = $("board-img");
  if (!state.picture || !img.naturalWidth) return;
  const scale = img.clientWidth / state.picture.size[0];
  state.picture.cells.forEach(([x, y, side], index) => {
    const cell = state.cells[index];
    const hit = document.createElement("div");
    hit.className = "cell-hit" + (chosen.has(cell.name) ? " chosen" : "");
    hit.dataset.cell = cell.name;
    Object.assign(hit.style, { left: `${x * scale}px`, top: `${y * scale}px`, width: `${side * scale}px`, height: `${side * scale}px` });
    if (chosen.has(cell.name) && action() !== "move") {
      hit.innerHTML = `<span class="amount">${chosen.get(cell.name)}</span>`;
    }
    hit.addEventListener("click", (event) => clickCell(cell.name, event.shiftKey));
    board.appendChild(hit);
  });
}

function action() {
  return document.querySelector('input[name="action"]:checked').value;
}

function clickCell(name, fewer) {
  const act = action();
  if (act === "pass") setAction("clear");
  if (act === "move") {
    chosen = new Map([[name, 1]]);
  } else {
    const next = (chosen.get(name) || 0) + (fewer ? -1 : 1);
    if (next > 0) chosen.set(name, next); else chosen.delete(name);
  }
  composeSteps();
  drawCellTargets();
}

function composeSteps() {
  const act = action();
  const parts = [];
  if ($("empty-before").checked) parts.push("empty");
  if (act === "pass") parts.push("pass");
  else if (act === "move") parts.push(...[...chosen.keys()].slice(0, 1).map((c) => `move ${c}`));
  else if (chosen.size) parts.push(act + " " + [...chosen].map(([c, n]) => (n === 1 ? c : `${c}:${n}`)).join(" "));
  if ($("empty-after").checked) parts.push("empty");
  $("steps").value = parts.join(" ");
}

function setAction(value) {
  document.querySelector(`input[name="action"][value="${value}"]`).checked = true;
  if (value === "move" && chosen.size > 1) chosen = new Map([...chosen].slice(0, 1));
  if (value === "pass") chosen.clear();
  composeSteps();
  drawCellTargets();
}

function clearEntry() {
  chosen.clear();
  $("empty-before").checked = false;
  $("empty-after").checked = false;
  $("steps").value = "";
  $("duration").value = "";
  $("comment").value = "";
  $("error").textContent = "";
  setAction("clear");
}

async function api(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Desk-Token"] = token;
  const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
  const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    $("error").textContent = answer.code ? `${answer.code} (${answer.section || "§10"}): ${answer.error}` : answer.error;
    return null;
  }
  $("error").textContent = "";
  if (answer.state) accept(answer.state);
  return answer;
}

async function endTurn(steps) {
  if (!state || state.phase !== "playing") return;
  const body = { game: state.game, turn: state.turn, steps: steps ?? $("steps").value };
  if (state.clock === "manual") {
    const seconds = Number($("duration").value.replace(",", "."));
    if (steps !== "timeout" && (!$("duration").value || !Number.isFinite(seconds) || seconds < 0)) {
      $("error").textContent = "Enter the turn's duration in seconds (manual clock).";
      return;
    }
    body.duration_ms = Math.round(seconds * 1000);
  }
  if ($("comment").value.trim()) body.comment = $("comment").value;
  if (await api("/api/turn", body)) clearEntry();
}

async function fetchAdvice() {
  const box = $("advice");
  box.hidden = false;
  box.textContent = "Thinking…";
  const response = await fetch("/api/advice");
  const advice = await response.json().catch(() => ({}));
  if (advice.message || !advice.steps) {
    box.textContent = advice.message || advice.error || "";
    return;
  }
  const whose = advice.to_move === advice.team ? `Suggested for ${advice.team}` : `${advice.to_move}'s likely turn`;
  box.innerHTML = `<strong>${whose}:</strong> <code>${escapeHtml(advice.steps)}</code><br>${escapeHtml(advice.explanation)} · ${advice.team} ${advice.score_cells >= 0 ? "+" : ""}${advice.score_cells.toFixed(1)} cells`;
}

function accept(next) {
  if (state && next.version < state.version) return;
  state = next;
  received = performance.now();
  render();
}

function follow() {
  fetch("/api/state").then((r) => r.json()).then(accept);
  const events = new EventSource("/api/stream");
  events.addEventListener("state", (event) => accept(JSON.parse(event.data)));
  events.onerror = () => setTimeout(() => fetch("/api/state").then((r) => r.json()).then(accept).catch(() => {}), 1000);
  setInterval(drawClocks, 100);
}

function wireDesk() {
  $("entry").addEventListener("submit", (event) => { event.preventDefault(); endTurn(); });
  $("timeout").addEventListener("click", () => endTurn("timeout"));
  $("clear-entry").addEventListener("click", clearEntry);
  $("start").addEventListener("click", () => api("/api/start"));
  $("setup-button").addEventListener("click", () => api("/api/setup", { header: $("setup-text").value }));
  $("pause").addEventListener("click", () => api(state.paused ? "/api/resume" : "/api/pause"));
  $("undo").addEventListener("click", () => {
    const last = state.phase === "playing" ? state.turn - 1 : state.turn;
    if (confirm(`Take back game ${state.game}, turn ${last}?`)) api("/api/undo", { game: state.game, turn: last });
  });
  document.querySelectorAll('input[name="action"]').forEach((el) => el.addEventListener("change", () => setAction(action())));
  ["empty-before", "empty-after"].forEach((id) => $(id).addEventListener("change", composeSteps));
  $("steps").addEventListener("input", () => { chosen.clear(); drawCellTargets(); });
  $("janken").querySelectorAll("button").forEach((b) => b.addEventListener("click", () => api("/api/janken", { winner: b.dataset.winner })));
  $("board-img").addEventListener("load", drawCellTargets);
  window.addEventListener("resize", drawCellTargets);
  if (token) $("screen-link").href = "/screen";
  document.addEventListener("keydown", (event) => {
    const typing = event.target.tagName === "INPUT" && event.target.type !== "radio" && event.target.type !== "checkbox";
    if (event.key === "Escape") { clearEntry(); return; }
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = { c: () => setAction("clear"), l: () => setAction("place"), m: () => setAction("move"), s: () => setAction("pass"),
      e: () => { $("empty-after").checked = !$("empty-after").checked; composeSteps(); },
      p: () => $("pause").click(), u: () => $("undo").click(), g: () => $("start").click(), Enter: () => endTurn() };
    const run = keys[event.key];
    if (run) { event.preventDefault(); run(); }
  });
}

if (page === "desk") wireDesk();
follow();
