// The table page of a seat or a spectator. It speaks the WebSocket protocol of
// docs/protocol.md with render: "html": the server sends the board, the panels and
// the log already drawn from this seat's views, in the reader's language.
const body = document.body;
const tableId = body.dataset.table;
const lang = body.dataset.lang;
const pace = Number(body.dataset.pace || 0);
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

let seq = null;          // the last entry shown
let mySeats = [];
let legal = [];
let ws = null;
let retry = 0;
const queue = [];        // messages waiting to be shown (other seats' moves are paced)
let busy = false;

function send(message) {
  $("error").textContent = "";
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: 1, ...message }));
}

function play(id) {
  if (!legal.some((a) => a.id === id)) { $("error").textContent = text.not_now; return; }
  send({ type: "action", seq, action: id });
}

function addLog(entry) {
  const li = document.createElement("li");
  li.value = entry.seq;
  const head = document.createElement("b");
  head.textContent = entry.kind === "undo" ? "↶ " + entry.label_undo : entry.head;
  li.append(head);
  for (const line of entry.lines || []) { li.append(document.createElement("br"), line); }
  $("log").append(li);
  li.scrollIntoView({ block: "nearest" });
}

function showState(state) {
  seq = state.seq;
  body.dataset.seq = String(seq);
  body.dataset.finished = String(state.finished);
  const html = state.html;
  $("board").innerHTML = html.board;
  $("panels").innerHTML = html.panels;
  $("status").innerHTML = html.status;   // escaped text from the server
  legal = state.legal;
  const list = $("legal");
  const hadFocus = [list, $("board"), $("panels")].some((area) => area.contains(document.activeElement));
  list.replaceChildren();
  for (const a of legal) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "action";
    b.dataset.id = a.id;
    const n = document.createElement("code");
    n.textContent = a.notation;
    b.append(n, " ", a.label);
    if (a.hint) { const h = document.createElement("small"); h.textContent = a.hint; b.append(" ", h); }
    b.addEventListener("click", () => play(a.id));
    li.append(b);
    list.append(li);
  }
  $("actions").hidden = !state.your_turn && !state.can_undo;
  $("choose").hidden = true;
  $("undo").hidden = !state.can_undo;
  $("replay-link").hidden = !state.finished;
  document.title = (state.your_turn ? "● " : "") + $("title").textContent + " — subtable";
  if (state.your_turn && hadFocus) list.querySelector("button")?.focus();
  document.dispatchEvent(new CustomEvent("subtable:state", { detail: state }));  // hint.js
}

// Other seats' moves (bots especially) arrive in bursts: show them one by one.
function pump() {
  if (busy) return;
  const message = queue.shift();
  if (!message) return;
  busy = true;
  apply(message);
  const mine = message.entry && mySeats.includes(message.entry.seat);
  const wait = message.type === "update" && !mine && queue.length ? pace : 0;
  setTimeout(() => { busy = false; pump(); }, wait);
}

let names = [];
function apply(message) {
  if (message.type === "sync") {
    for (const e of message.entries) addLog(decorate(e));
    showState(message.state);
  } else if (message.type === "update") {
    addLog(decorate(message.entry));
    showState(message.state);
  }
}

function decorate(entry) {
  const who = entry.seat === null || entry.seat === undefined ? "" : names[entry.seat] || "";
  return { ...entry, who, head: "#" + entry.seq + " " + (who ? who + " — " : "") + (entry.label || entry.action),
    label_undo: entry.action };
}

function onMessage(event) {
  const message = JSON.parse(event.data);
  document.dispatchEvent(new CustomEvent("subtable:message", { detail: message }));  // hint.js
  if (message.type === "welcome") {
    mySeats = message.seats;
    names = message.names || [];
    $("role").textContent = message.role_text || "";
    if (seq === null && (message.lines || []).length && !$("log").children.length) {
      addLog({ seq: 0, kind: "setup", head: text.setup, lines: message.lines });
    }
    retry = 0;
    $("banner").hidden = true;
    return;
  }
  if (message.type === "error") {
    $("error").textContent = message.why || message.message;
    if (message.code === "bad_token" || message.code === "no_table") ws.close(4000);
    return;
  }
  if (message.type === "sync" || message.type === "update") {
    queue.push(message);
    pump();
  }
}

function connect() {
  if (!token) { $("status").textContent = text.no_token; return; }
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/ws");
  // last_seq 0 the first time: the whole log so far (a reload shows it all again)
  ws.addEventListener("open", () => send({ type: "hello", table: tableId, token, last_seq: seq ?? 0, lang, render: "html" }));
  ws.addEventListener("message", onMessage);
  ws.addEventListener("close", (event) => {
    if (event.code === 4000) return;        // a bad link: retrying cannot help
    queue.length = 0;                       // the resumed sync brings what was not shown yet
    $("banner").hidden = false;
    const delay = Math.min(500 * 2 ** retry, 5000);
    retry += 1;
    setTimeout(connect, delay);
  });
}

// A click (or Enter/Space) on the board: one action plays; several narrow the list.
function boardChoice(target) {
  const ids = target.dataset.actions.split(" ").filter(Boolean).map(Number);
  const mine = ids.filter((id) => legal.some((a) => a.id === id));
  if (mine.length === 0) { $("error").textContent = text.not_now; return; }
  if (mine.length === 1) { play(mine[0]); return; }
  $("choose").hidden = false;
  let first = null;
  for (const b of $("legal").querySelectorAll("button")) {
    const on = mine.includes(Number(b.dataset.id));
    b.closest("li").hidden = !on;
    if (on && !first) first = b;
  }
  first?.focus();
}
// The board and the panels (the cards in a hand) both carry targets.
for (const area of [$("board"), $("panels")]) {
  area.addEventListener("click", (event) => {
    const target = event.target.closest("[data-actions]");
    if (target) boardChoice(target);
  });
  area.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target.closest("[data-actions]");
    if (target) { event.preventDefault(); boardChoice(target); }
  });
}
$("undo").addEventListener("click", () => send({ type: "undo", seq }));
// The same messages any client may send (the server checks everything): for the console and tests.
window.subtable = { send, play };
connect();
