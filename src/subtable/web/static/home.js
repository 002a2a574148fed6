// The home page: keep the tables this browser opened or sat down at (their links) in
// localStorage, list them with whose turn it is; the lobby of public tables (sit down at an
// open seat with one click); the creation form's seat rows and turn-based fields.
import { fill, nameTooLong, timeLeft } from "./clock.js";

const KEY = "subtable:tables";
const NAME = "subtable:name";
const lang = document.documentElement.lang;
const load = () => { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch { return []; } };
const save = (tables) => localStorage.setItem(KEY, JSON.stringify(tables.slice(0, 30)));
const text = JSON.parse(document.getElementById("home-strings")?.textContent || "{}");

function remember(entry) {
  save([entry, ...load().filter((t) => t.id !== entry.id)]);
}

const created = document.getElementById("created");
if (created) {
  const first = created.querySelector(".invite .link");
  const url = new URL(first.value);
  remember({ id: created.dataset.table, game: created.dataset.game, url: first.value,
    token: url.hash.slice(1), when: new Date().toISOString() });
  for (const button of created.querySelectorAll("button.copy")) {
    button.addEventListener("click", async () => {
      const input = button.parentElement.querySelector(".link");
      input.select();
      try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand?.("copy"); }
      button.textContent = button.dataset.copied;
    });
  }
}

// -- your tables, and whether it is your turn at each -----------------------------------
const list = document.getElementById("your-tables");
const rows = new Map();   // table id -> its <li>

function showYours() {
  const tables = load();
  list.replaceChildren();
  rows.clear();
  if (!tables.length) { const empty = document.createElement("li"); empty.textContent = list.dataset.empty; list.append(empty); }
  for (const t of tables) {
    const li = document.createElement("li");
    li.dataset.table = t.id;
    const a = document.createElement("a");
    a.href = t.url;
    a.textContent = t.game + " · " + new Date(t.when).toLocaleString(lang);
    const turn = document.createElement("span");
    turn.className = "turn";
    const forget = document.createElement("button");
    forget.type = "button";
    forget.textContent = list.dataset.forget;
    forget.addEventListener("click", () => { save(load().filter((x) => x.id !== t.id)); showYours(); askYours(); });
    li.append(a, " ", turn, " ", forget);
    list.append(li);
    rows.set(t.id, li);
  }
}

let answers = { now: 0, seats: [], at: 0 };
function showTurns() {
  const skew = answers.now ? answers.now - answers.at / 1000 : 0;   // the server's clock - ours
  const now = Date.now() / 1000 + skew;
  for (const s of answers.seats) {
    const li = rows.get(s.table);
    if (!li) continue;
    const turn = li.querySelector(".turn");
    let words = text.waiting;
    let state = "waiting";
    if (s.error) { words = text.gone; state = "gone"; }
    else if (s.closed) { words = text.closed; state = "over"; }
    else if (s.finished) { words = text.game_over; state = "over"; }
    else if (s.waiting) words = fill(s.waiting === 1 ? text.begins_one : text.begins_many, { n: s.waiting });
    else if (s.your_turn) {
      state = "yours";
      words = "● " + text.your_turn;
      if (s.deadline) {
        const left = s.deadline - now;
        words += " — " + (left > 0 ? fill(text.time_left, { time: timeLeft(left, lang) }) : text.time_up);
      }
    }
    li.dataset.turn = state;
    turn.textContent = words;
  }
  // the tables where you decide first
  for (const li of [...list.children].filter((x) => x.dataset.turn === "yours").reverse()) list.prepend(li);
}

async function askYours() {
  const seats = load().filter((t) => t.id && t.token).slice(0, 50).map((t) => ({ table: t.id, token: t.token }));
  if (!seats.length) return;
  try {
    const r = await fetch("/api/seats", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seats }) });
    if (!r.ok) return;
    answers = { ...(await r.json()), at: Date.now() };
    showTurns();
  } catch { /* offline: the list stays as it was */ }
}

if (list) {
  showYours();
  askYours();
  setInterval(() => { if (document.visibilityState === "visible") askYours(); }, 60_000);
  setInterval(showTurns, 15_000);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") askYours(); });
}

// -- the lobby: sit down at a public table's open seat -----------------------------------
const lobby = document.getElementById("lobby");
const nameOf = () => localStorage.getItem(NAME) || "";
for (const input of document.querySelectorAll("input.your-name")) {
  if (!input.value) input.value = nameOf();
  input.addEventListener("change", () => { const v = input.value.trim(); if (v) localStorage.setItem(NAME, v); });
  input.addEventListener("input", () => { const error = document.getElementById("lobby-error"); if (error) error.textContent = ""; });
}

function markMine() {
  const mine = new Map(load().map((t) => [t.id, t]));
  for (const item of lobby.querySelectorAll(".lobby-table")) {
    const t = mine.get(item.dataset.table);
    if (!t) continue;
    for (const b of item.querySelectorAll("button.sit")) b.hidden = true;
    if (!item.querySelector("a.back")) {
      const a = document.createElement("a");
      a.className = "back";
      a.href = t.url;
      a.textContent = lobby.dataset.yours;
      item.querySelector("h3").after(a);
    }
  }
}

async function refreshLobby() {
  try {
    const r = await fetch("/lobby?lang=" + encodeURIComponent(lang));
    if (!r.ok) return;
    const doc = new DOMParser().parseFromString(await r.text(), "text/html");
    const fresh = doc.getElementById("lobby-list");
    if (fresh) document.getElementById("lobby-list").replaceWith(document.importNode(fresh, true));
    markMine();
  } catch { /* offline */ }
}

async function sit(button) {
  const error = document.getElementById("lobby-error");
  const input = document.getElementById("lobby-name");
  const name = input.value.trim();
  error.textContent = "";
  if (!name) { error.textContent = lobby.dataset.nameNeeded; input.focus(); return; }
  const long = nameTooLong(input, name);
  if (long) { error.textContent = long; input.focus(); return; }
  localStorage.setItem(NAME, name);
  const item = button.closest(".lobby-table");
  button.disabled = true;
  try {
    const r = await fetch("/api/tables/" + encodeURIComponent(item.dataset.table) + "/join?lang=" + encodeURIComponent(document.documentElement.lang), {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ player: Number(button.dataset.player), name }),
    });
    const data = await r.json();
    if (r.status === 201) {
      remember({ id: data.table, game: item.dataset.game, url: data.url, token: data.token, when: new Date().toISOString() });
      location.href = data.url;
      return;
    }
    if (r.status === 409) { error.textContent = lobby.dataset.taken; await refreshLobby(); return; }
    error.textContent = fill(lobby.dataset.failed, { reason: data.error?.message || r.status });
  } catch (e) {
    error.textContent = fill(lobby.dataset.failed, { reason: String(e) });
  } finally {
    button.disabled = false;
  }
}

if (lobby) {
  markMine();
  lobby.addEventListener("click", (event) => {
    const button = event.target.closest("button.sit");
    if (button) sit(button);
  });
  document.getElementById("lobby-refresh").addEventListener("click", () => { document.getElementById("lobby-error").textContent = ""; refreshLobby(); });
  // the server pushes each change of the lobby; a page it cannot listen to looks now and then
  const feed = "EventSource" in window ? new EventSource("/api/lobby/events") : null;
  feed?.addEventListener("lobby", () => refreshLobby());
  setInterval(() => {
    if (document.visibilityState === "visible" && (!feed || feed.readyState === EventSource.CLOSED)) refreshLobby();
  }, 30_000);
}

// -- the creation form ----------------------------------------------------------------
for (const select of document.querySelectorAll("select.players")) {
  const form = select.closest("form");
  const sync = () => {
    const n = Number(select.value);
    for (const row of form.querySelectorAll(".seat")) {
      const on = Number(row.dataset.seat) < n;
      row.hidden = !on;
      row.querySelector("select").disabled = !on;
    }
  };
  select.addEventListener("change", sync);
  sync();
}
for (const form of document.querySelectorAll("form.new-table")) {
  const fields = form.querySelector(".turn-fields");
  const sync = () => {
    const on = form.querySelector("input.mode[value='turn-based']").checked;
    fields.hidden = !on;
    for (const s of fields.querySelectorAll("select")) s.disabled = !on;
  };
  for (const radio of form.querySelectorAll("input.mode")) radio.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", () => {
    const v = form.querySelector("input.your-name")?.value.trim();
    if (v) localStorage.setItem(NAME, v);
  });
}
