// People at the table: the name prompt of a person's seat that has none yet,
// the table talk, a turn-based table's clock, and a notice when it becomes your turn (the
// tab's title, a browser notification once allowed, a sound if asked for).
//
// table.js owns the WebSocket: it passes every frame on as a "subtable:message" event and
// every position it shows as "subtable:state"; this module sends with window.subtable.send.
// Everything people wrote (names, chat) is set as text, never as markup.
import { fill, nameTooLong, timeLeft } from "./clock.js";

const $ = (id) => document.getElementById(id);
const text = JSON.parse($("people-strings").textContent);
const lang = document.body.dataset.lang || document.documentElement.lang;
const tableId = document.body.dataset.table;
const NAME = "subtable:name";
const SOUND = "subtable:sound";
const LATER = "subtable:name-later:" + tableId;
const send = (message) => window.subtable?.send(message);

let me = null;          // this page's player (null: a spectator)
let people = [];        // each player's name (null: a bot, or a person not named yet)
let mode = "live";
let turnLimit = null;
let late = null;
let lastChat = 0;       // the last line of chat shown
let deadline = null;    // the current decision's deadline (server clock, seconds)
let mine = false;       // whether the decision shown is this page's
let wasMine = null;     // the previous state's, to notice a turn starting
let over = false;       // the game is over: nobody is asked for a name, nobody talks

// The name prompt and the clock stand under the status line, whatever the layout.
$("status").after($("name-form"), $("clock"));

document.addEventListener("subtable:message", (event) => {
  const m = event.detail;
  if (m.type === "welcome") welcome(m);
  else if (m.type === "sync") for (const line of m.chat || []) addChat(line);
  else if (m.type === "chat") addChat(m.chat);
  else if (m.type === "people") { people = m.people || []; askName(); }
  else if (m.type === "closed") { deadline = null; tick(); }
});
document.addEventListener("subtable:state", (event) => showTurn(event.detail));

function welcome(m) {
  me = m.player;
  people = m.people || [];
  mode = m.mode || "live";
  turnLimit = m.turn_limit;
  late = m.late || null;
  const seated = me !== null && me !== undefined;
  $("chat-form").hidden = !seated;
  $("chat-spectators").hidden = seated;
  $("turn-tools").hidden = !seated;
  showNotify();
  askName();
  if (seated) remember();
}

// A seat opened from a link is one of "your tables" on the home page from now on.
function remember() {
  const token = sessionStorage.getItem("subtable:token:" + tableId);
  if (!token) return;
  try {
    const tables = JSON.parse(localStorage.getItem("subtable:tables") || "[]");
    if (tables.some((t) => t.id === tableId && t.token === token)) return;
    const url = location.origin + location.pathname + "#" + token;
    const entry = { id: tableId, game: $("title").textContent, url, token, when: new Date().toISOString() };
    localStorage.setItem("subtable:tables", JSON.stringify([entry, ...tables.filter((t) => t.id !== tableId)].slice(0, 30)));
  } catch { /* no storage: nothing to remember */ }
}

// -- names --------------------------------------------------------------------------------
function askName() {
  const form = $("name-form");
  const wanted = !over && me !== null && me !== undefined && !people[me] && !sessionStorage.getItem(LATER);
  if (wanted && form.hidden) {
    form.hidden = false;
    const input = $("my-name");
    if (!input.value) input.value = localStorage.getItem(NAME) || "";
    input.focus();
  } else if (!wanted) {
    form.hidden = true;
  }
}
$("name-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = $("my-name").value.trim();
  if (!name) { $("my-name").focus(); return; }
  const long = nameTooLong($("my-name"), name);
  $("my-name-help").textContent = long || text.name_help;
  $("my-name-help").classList.toggle("error", Boolean(long));
  if (long) { $("my-name").focus(); return; }
  localStorage.setItem(NAME, name);
  send({ type: "name", name });   // everyone is told (a "people" frame), this page too
});
$("name-later").addEventListener("click", () => { sessionStorage.setItem(LATER, "1"); $("name-form").hidden = true; });

// -- table talk ---------------------------------------------------------------------------
function who(line) {
  const name = line.name || fill(text.player, { n: line.player + 1 });
  return line.player === me ? name + " (" + text.you + ")" : name;
}

function addChat(line) {
  if (!line || line.n <= lastChat) return;   // a resumed sync brings the last lines again
  lastChat = line.n;
  const list = $("chat");
  list.querySelector(".none")?.remove();
  const li = document.createElement("li");
  li.dataset.n = String(line.n);
  if (line.player === me) li.className = "mine";
  const b = document.createElement("b");
  b.className = "who";
  b.textContent = who(line);
  const said = document.createElement("span");
  said.className = "said";
  said.textContent = line.text;
  li.append(b, ": ", said);
  if (line.at) li.title = new Date(line.at * 1000).toLocaleString(lang);
  list.append(li);
  list.scrollTop = list.scrollHeight;
}

$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("chat-text");
  const said = input.value.trim();
  if (!said) return;
  send({ type: "chat", text: said });
  input.value = "";
});

// -- a turn-based table's clock, and the turn's notices -------------------------------------
function showTurn(state) {
  if (state.finished && !over) {   // names and the table talk close with the game
    over = true;
    askName();
    $("chat-form").hidden = true;
  }
  mine = Boolean(state.your_turn);
  deadline = state.finished ? null : state.deadline ?? null;
  if (mine) document.title = "● " + text.your_turn + " — " + $("title").textContent + " — subtable";
  if (mine && wasMine === false) notify();
  wasMine = mine;
  tick();
}

function tick() {
  const clock = $("clock");
  if (mode !== "turn-based" || !turnLimit) { clock.hidden = true; return; }
  clock.hidden = false;
  const time = timeLeft(turnLimit, lang);
  $("pace").textContent = fill(late === "abandon" ? text.mode_abandon : text.mode_bot, { time });
  const left = deadline === null ? null : deadline - Date.now() / 1000;
  clock.classList.toggle("mine", mine && left !== null);
  $("time-left").textContent = left === null ? "" : left > 0 ? fill(text.time_left, { time: timeLeft(left, lang) }) : text.time_up;
}
setInterval(tick, 1000);

function showNotify() {
  const button = $("notify");
  const state = $("notify-state");
  if (!("Notification" in window)) { button.hidden = true; return; }
  const permission = Notification.permission;
  button.hidden = permission !== "default";
  state.textContent = permission === "granted" ? text.notify_on : permission === "denied" ? text.notify_denied : "";
}
// asked on a click only, never on load
$("notify").addEventListener("click", async () => {
  try { await Notification.requestPermission(); } catch { /* an old browser */ }
  showNotify();
});

let audio = null;
const sound = $("sound");
sound.checked = localStorage.getItem(SOUND) === "1";   // off unless asked for
sound.addEventListener("change", () => {
  localStorage.setItem(SOUND, sound.checked ? "1" : "0");
  if (sound.checked) beep();   // a click lets the page play sound, and says what it sounds like
});

function beep() {
  try {
    audio = audio || new AudioContext();
    const t = audio.currentTime;
    for (const [i, f] of [660, 880].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, t + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.2, t + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.18 + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(t + i * 0.18);
      osc.stop(t + i * 0.18 + 0.17);
    }
  } catch { /* no sound here */ }
}

function notify() {
  if (sound.checked) beep();
  const away = document.visibilityState !== "visible" || !document.hasFocus();
  if (away && "Notification" in window && Notification.permission === "granted") {
    try {
      const note = new Notification(fill(text.notification, { title: $("title").textContent }), { tag: "subtable:" + tableId });
      note.onclick = () => { window.focus(); note.close(); };
    } catch { /* some browsers allow notifications only from a service worker */ }
  }
  document.body.dataset.notified = String(Number(document.body.dataset.notified || 0) + 1);
}
