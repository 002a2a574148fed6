// The table page of a seat or a spectator. It speaks the WebSocket protocol of
// docs/protocol.md with render: "html": the server sends the board, the panels, the options,
// the stage (dice and cards) and the log already drawn from this seat's views, in the
// reader's language. The server sends every entry at once; this page plays other seats'
// entries one at a time, at the pace the player chose.
import "./people.js";  // names, table talk, turn-based clocks and turn notices
import { listenForTargets } from "./targets.js";
import { listenForTips, quietTitles } from "./boardtips.js";
import { placesOf, slideFrom } from "./motion.js";
import { pageStage } from "./stagepager.js";
import { addHide, fitDecision } from "./decisionfit.js";
const body = document.body;
const tableId = body.dataset.table;
const lang = body.dataset.lang;
const text = JSON.parse(document.getElementById("strings").textContent);
const $ = (id) => document.getElementById(id);

// The seat's token travels in the link's #fragment (never to the server's logs); it is
// kept for this tab so that a reload puts the player back at the table.
const key = "subtable:token:" + tableId;
if (location.hash.length > 1) {
  sessionStorage.setItem(key, location.hash.slice(1));
  history.replaceState(null, "", location.pathname + location.search);
}
const token = sessionStorage.getItem(key) || localToken();

function localToken() {
  try {
    const tables = JSON.parse(localStorage.getItem("subtable:tables") || "[]");
    const mine = tables.find((t) => t.id === tableId);
    return mine ? mine.token : null;
  } catch { return null; }
}

// -- the pace: ?pace=ms for this page, else the player's choice (kept), else 0.8 s -------
const PACE_KEY = "subtable:pace";
let pace = 800;
if (body.dataset.pace !== "") {
  pace = Number(body.dataset.pace);
} else {
  const kept = Number(localStorage.getItem(PACE_KEY));
  if (kept > 0) pace = kept;
}
const speed = $("speed");
if (![...speed.options].some((o) => Number(o.value) === pace)) {
  speed.add(new Option(pace + " ms", String(pace)));
}
speed.value = String(pace);
speed.addEventListener("change", () => {
  pace = Number(speed.value);
  localStorage.setItem(PACE_KEY, String(pace));
});

let seq = null;          // the last entry shown
let mySeats = [];
let role = "player";
let legal = [];
let ws = null;
let retry = 0;
let names = [];
let owners = [];         // the player holding each seat
let players = [];        // each player: a person's or a bot's
let people = [];         // each player's name, if any
const queue = [];        // updates waiting to be shown (other seats' moves are paced)
let timer = null;
let nextAt = 0;          // when the next other seat's entry may appear
let recent = [];         // what the others did since this seat's last move
let rematch = null;

function send(message) {
  $("error").textContent = "";
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: 1, ...message }));
}

function play(id) {
  if (!legal.some((a) => a.id === id)) { $("error").textContent = text.not_now; return; }
  send({ type: "action", seq, action: id });
}

const mine = (entry) => entry.seat !== null && entry.seat !== undefined && mySeats.includes(entry.seat);

function head(entry) {
  const who = entry.seat === null || entry.seat === undefined ? "" : names[entry.seat] || "";
  const what = entry.label || entry.action;
  const said = entry.kind === "undo" ? "↶ " + text.undo_entry.replace("{action}", what) : what;
  return (who ? who + ": " : "") + said;
}

// -- the log: it scrolls inside its own box, and only when the reader is at its end ------
function addLog(entry, title) {
  const log = $("log");
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const li = document.createElement("li");
  li.value = entry.seq;
  li.dataset.seat = entry.seat ?? "";
  const b = document.createElement("b");
  b.textContent = title ?? "#" + entry.seq + " " + head(entry);
  li.append(b);
  for (const line of entry.lines || []) { li.append(document.createElement("br"), line); }
  log.append(li);
  if (atEnd) log.scrollTop = log.scrollHeight;
}

// -- what just happened: the others' entries since this seat's last move -----------------
function noteRecent(entry) {
  if (mine(entry)) { recent = []; return; }
  recent.push({ head: head(entry), lines: (entry.stage && entry.stage.lines) || [] });
  if (recent.length > 40) recent.shift();
}

const noneYet = $("recent").firstElementChild;
function showRecent() {
  const list = $("recent");
  list.replaceChildren();
  if (!recent.length) list.append(noneYet);
  for (const r of recent) {
    const li = document.createElement("li");
    const b = document.createElement("b");
    b.textContent = r.head;
    li.append(b);
    for (const line of r.lines) {
      const s = document.createElement("span");
      s.textContent = line;
      li.append(s);
    }
    list.append(li);
  }
  list.lastElementChild?.classList.toggle("now", recent.length > 0);   // the move being shown
  list.scrollTop = list.scrollHeight;   // its own box: the window stays where it is
}

// -- the stage: dice and cards face up (server-drawn), the board's changed parts ---------
function showStage(entry, animate) {
  const stage = $("stage");
  const html = entry && entry.stage ? entry.stage.html : "";
  if (!html) return;
  stage.innerHTML = html;
  stage.hidden = false;
  pageStage(stage, animate ? Math.max(pace, 600) : 0, { prev: text.stage_prev, next: text.stage_next });
  addHide(stage, text.stage_hide);   // placed by showState's fit, which always follows
  // what was just staged is brought into view where the page had scrolled past it (a long
  // list of options clicked near its end); a stage in a hidden tab measures nothing
  const box = stage.getBoundingClientRect();
  if (box.height > 0 && (box.top < 0 || box.bottom > window.innerHeight)) {
    stage.scrollIntoView({ block: "nearest" });
  }
  if (animate) { void stage.offsetWidth; stage.classList.add("turning"); } else stage.classList.remove("turning");
}

// The board's parts an entry changed light up for a moment (the next board drawn, or 1.8 s).
let unmark = null;
function highlight(entry) {
  const marks = (entry && entry.stage && entry.stage.marks) || [];
  const board = $("board");
  const lit = [];
  for (const sel of marks) {
    try { board.querySelectorAll(sel).forEach((el) => { el.classList.add("changed"); lit.push(el); }); } catch { /* a bad selector */ }
  }
  clearTimeout(unmark);
  if (lit.length) unmark = setTimeout(() => lit.forEach((el) => el.classList.remove("changed")), 1800);
}

// A person's seat whose turn it is and that nobody sits at: the status line says the table
// waits for that person (the table's public status says which seats are taken).
async function sayIfWaiting(state) {
  if (state.waiting) return;   // the table waits for its people: gathering.js says so
  const owner = state.finished || state.decider == null ? undefined : owners[state.decider];
  if (owner === undefined || players[owner]?.controller !== "human" || mySeats.includes(state.decider)) return;
  try {
    const r = await fetch("/api/tables/" + encodeURIComponent(tableId));
    const status = await r.json();
    if (!r.ok || status.players[owner].taken || seq !== state.seq) return;
    const who = people[owner] || text.player.replace("{n}", String(owner + 1));
    $("status").textContent = text.waiting_seat.replace("{who}", who);
  } catch { /* offline: the status line stays as it was */ }
}

function showState(state, animate = false) {
  seq = state.seq;
  body.dataset.seq = String(seq);
  body.dataset.finished = String(state.finished);
  const html = state.html;
  const list = $("legal");
  const hadFocus = [list, $("board"), $("panels")].some((area) => area.contains(document.activeElement));
  const before = animate ? placesOf($("board")) : new Map();
  $("board").innerHTML = html.board;
  quietTitles($("board"));
  slideFrom($("board"), before);
  $("panels").innerHTML = html.panels;
  $("status").innerHTML = html.status;   // escaped text from the server
  sayIfWaiting(state);
  legal = state.legal;
  list.innerHTML = html.options || "";
  list.scrollTop = 0;
  $("unavailable").innerHTML = html.unavailable || "";
  $("unavailable-box").hidden = !html.unavailable;
  $("help").innerHTML = html.help || "";
  $("end").innerHTML = html.end || "";
  $("end").hidden = !state.finished;
  $("actions").hidden = !state.your_turn && !state.can_undo;
  $("choose").hidden = true;
  $("undo").hidden = !state.can_undo;
  $("options-badge").hidden = !state.your_turn;
  body.dataset.yourTurn = String(state.your_turn);
  document.title = (state.your_turn ? "● " : "") + $("title").textContent + " — subtable";
  if (state.your_turn && hadFocus) list.querySelector("button")?.focus({ preventScroll: true });
  fitDecision();
  document.dispatchEvent(new CustomEvent("subtable:state", { detail: state }));  // people.js, hint.js
}

// -- pacing -------------------------------------------------------------------------------
function apply(message, animate) {
  if (message.type === "sync") {
    // a first visit, a reload or a resume: fast-forward, nothing animated
    let staged = null;
    for (const e of message.entries) {
      addLog(e);
      noteRecent(e);
      if (e.stage && e.stage.html) staged = e;
      else if (mine(e)) staged = null;
    }
    if (message.entries.length) { $("stage").hidden = true; showStage(staged, false); }
    showRecent();
    showState(message.state);
    return;
  }
  if (!message.entry) {  // people (names drawn anew), closed: in order with the entries
    if (message.state) showState(message.state);
    return;
  }
  const entry = message.entry;
  addLog(entry);
  noteRecent(entry);
  showRecent();
  if (entry.stage && entry.stage.html) {
    showStage(entry, animate);
    if (mine(entry) && body.dataset.pane !== "board") $("board-badge").hidden = false;  // a phone: look there
  } else if (mine(entry)) $("stage").hidden = true;
  showState(message.state, animate);
  if (animate) highlight(entry);
}

function weight(message) {
  const stage = message.entry && message.entry.stage;
  return 1 + Math.min(2, stage ? stage.weight : 0);
}

function pump() {
  if (timer !== null) return;
  while (queue.length) {
    const wait = nextAt - performance.now();
    if (wait > 0) {
      timer = setTimeout(() => { timer = null; pump(); }, wait);
      showWaiting();
      return;
    }
    const message = queue.shift();
    apply(message, pace > 0);
    if (message.entry) nextAt = pace > 0 ? performance.now() + pace * weight(message) : 0;
  }
  showWaiting();
}

// Everything queued at once, without animation: "skip to now", your own move, a resume.
function flush() {
  if (timer !== null) { clearTimeout(timer); timer = null; }
  let last = null;
  while (queue.length) {
    const message = queue.shift();
    apply(message, false);
    if (message.entry) last = message;
  }
  if (last) highlight(last.entry);     // what the last of them changed
  nextAt = 0;
  showWaiting();
}

function showWaiting() {
  $("skip").hidden = queue.length === 0;
  $("skip-n").textContent = queue.length ? "(" + queue.length + ")" : "";
}

$("skip").addEventListener("click", flush);

function onMessage(event) {
  const message = JSON.parse(event.data);
  document.dispatchEvent(new CustomEvent("subtable:message", { detail: message }));  // people.js, hint.js
  if (message.names) names = message.names;  // welcome, and people when someone is named
  if (message.people) people = message.people;
  if (message.type === "welcome") {
    mySeats = message.seats;
    owners = message.owners || [];
    players = message.players || [];
    role = message.role;
    names = message.names || [];
    $("role").textContent = message.role_text || "";
    if (seq === null && (message.lines || []).length && !$("log").children.length) {
      addLog({ seq: 0, lines: message.lines }, text.setup);
    }
    retry = 0;
    $("banner").hidden = true;
    return;
  }
  if (message.type === "error") {
    if (["bad_token", "no_table", "unreadable"].includes(message.code)) {
      ws.close(4000);
      noSeat(message.why || message.message);
      return;
    }
    $("error").textContent = message.why || message.message;
    return;
  }
  if (message.type === "why") { showWhy(message); return; }
  if (message.type === "rematch") { showRematch(message); return; }
  if (message.type === "sync") {
    flush();
    apply(message, false);
    return;
  }
  if (["update", "people", "closed"].includes(message.type)) {
    queue.push(message);
    if ((message.entry && mine(message.entry)) || pace === 0) flush();   // your own moves are never delayed
    else pump();
  }
}

// A link that opens no seat: a page saying so, with the way home, instead of the table's skeleton.
function noSeat(why) {
  $("no-seat-why").textContent = why;
  $("table").hidden = true;
  $("no-seat").hidden = false;
  $("no-seat-h").focus();
}

function connect() {
  if (!token) { noSeat(text.no_token); return; }
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/ws");
  // last_seq 0 the first time: the whole log so far (a reload shows it all again)
  ws.addEventListener("open", () => send({ type: "hello", table: tableId, token, last_seq: seq ?? 0, lang, render: "html" }));
  ws.addEventListener("message", onMessage);
  ws.addEventListener("close", (event) => {
    if (event.code === 4000) return;        // a bad link: retrying cannot help
    if (timer !== null) { clearTimeout(timer); timer = null; }
    queue.length = 0;                       // the resumed sync brings what was not shown yet
    showWaiting();
    $("banner").hidden = false;
    const delay = Math.min(500 * 2 ** retry, 5000);
    retry += 1;
    setTimeout(connect, delay);
  });
}

// -- options: a click plays; the rows of choices; why an action is not possible ----------
$("legal").addEventListener("click", (event) => {
  const button = event.target.closest("button[data-id]");
  if (button) play(Number(button.dataset.id));
});

const asked = new Map();
$("unavailable").addEventListener("click", (event) => {
  const button = event.target.closest("button.why");
  if (!button) return;
  const answer = document.getElementById(button.getAttribute("aria-controls"));
  if (button.getAttribute("aria-expanded") === "true") {
    button.setAttribute("aria-expanded", "false");
    answer.hidden = true;
    return;
  }
  if (answer.textContent) {
    button.setAttribute("aria-expanded", "true");
    answer.hidden = false;
    return;
  }
  askWhy(button.dataset.notation, (why) => {
    if (!button.isConnected) return;
    answer.textContent = why;
    answer.hidden = false;
    button.setAttribute("aria-expanded", "true");
  });
});

// "why not?": the server's answer goes to whoever asked (an option, a room on the board)
function askWhy(notation, answer) {
  asked.set(notation, answer);
  send({ type: "why", action: notation });
}

function showWhy(message) {
  const answer = asked.get(message.action);
  asked.delete(message.action);
  if (answer) answer(message.why);
}

// -- the end: play again, and the new table's link for this connection -------------------
$("end").addEventListener("click", async (event) => {
  const button = event.target.closest("#again");
  if (!button) return;
  button.disabled = true;
  try {
    const r = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/again", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
    });
    const data = await r.json();
    if (!r.ok) throw new Error((data.error && data.error.message) || String(r.status));
    location.href = data.url;
  } catch (err) {
    $("error").textContent = text.again_failed.replace("{reason}", err.message);
    button.disabled = false;
  }
});

function showRematch(message) {
  rematch = message;
  const box = $("rematch");
  box.replaceChildren();
  box.append(text.rematch + " ");
  const a = document.createElement("a");
  a.href = message.url;
  a.className = "button primary";
  a.textContent = role === "spectator" ? text.rematch_watch : text.rematch_seat;
  box.append(a);
  box.hidden = false;
}

// -- the board: a click (or Enter/Space) plays one action or narrows the list ------------
function boardChoice(target) {
  const ids = target.dataset.actions.split(" ").filter(Boolean).map(Number);
  const ok = ids.filter((id) => legal.some((a) => a.id === id));
  if (ok.length === 0) { $("error").textContent = text.not_now; return; }
  if (ok.length === 1) { play(ok[0]); return; }
  $("choose").hidden = false;
  let first = null;
  for (const li of $("legal").children) {
    let any = false;
    for (const b of li.querySelectorAll("button[data-id]")) {
      const on = ok.includes(Number(b.dataset.id));
      b.hidden = !on;
      any = any || on;
      if (on && !first) first = b;
    }
    li.hidden = !any;
  }
  showPane("options");
  first?.focus({ preventScroll: true });
}
listenForTargets([$("board"), $("panels")], boardChoice);
listenForTips($("board"), askWhy, () => legal.length > 0);

// -- the phone's tabs: one part of the table at a time ------------------------------------
function showPane(name) {
  body.dataset.pane = name;
  if (name === "board") $("board-badge").hidden = true;
  if (name === "log") {
    $("log").scrollTop = $("log").scrollHeight;   // the log opens at the latest move
    seenTalk();
  }
  for (const b of $("tabs").querySelectorAll("button[data-tab]")) {
    b.setAttribute("aria-pressed", String(b.dataset.tab === name));
  }
}
$("tabs").addEventListener("click", (event) => {
  const b = event.target.closest("button[data-tab]");
  if (b) showPane(b.dataset.tab);
});

// -- the table talk's unread lines: counted while the talk is out of sight ---------------
let unread = 0;
let talkInView = false;
function showUnread() {
  $("talk-link").hidden = unread === 0;
  $("talk-n").textContent = String(unread);
  $("log-badge").hidden = unread === 0;
  $("log-badge").textContent = " " + unread;
}
function seenTalk() { unread = 0; showUnread(); }
new IntersectionObserver((seen) => {
  talkInView = seen.some((s) => s.isIntersecting);
  if (talkInView) seenTalk();
}).observe($("talk"));
document.addEventListener("subtable:message", (event) => {
  const m = event.detail;
  if (m.type !== "chat" || !m.chat || mySeats.includes(m.chat.player)) return;
  if (talkInView && getComputedStyle($("tabs")).display === "none") return;
  if (body.dataset.pane === "log" && getComputedStyle($("tabs")).display !== "none") return;
  unread += 1;
  showUnread();
});
$("talk-link").addEventListener("click", () => { showPane("log"); seenTalk(); });

$("undo").addEventListener("click", () => send({ type: "undo", seq }));
// The same messages any client may send (the server checks everything): for the console and tests.
window.subtable = { send, play, flush, get queued() { return queue.length; }, get rematch() { return rematch; } };
connect();
