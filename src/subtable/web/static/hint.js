// The table's learning parts, beside table.js: the hint button (ask the expert about your
// decision: the answer comes to you alone, and everyone's log says you asked) and, once
// the game is over, the chart of where it turned. table.js passes on every message it
// gets ("subtable:message") and every position it shows ("subtable:state"), and lends
// its send() and play() as window.subtable. The page loads this module before table.js
// (modules run in document order), so it listens before the first message arrives.
import { loadTurning } from "/static/chart.js";

const $ = (id) => document.getElementById(id);
const box = $("hint-box");
const tableId = document.body.dataset.table;
const lang = document.body.dataset.lang;
let allowed = false;
let mySeats = [];
let seq = null;
let yours = false;
let asking = null;       // the seq asked about, while the expert thinks
let charted = false;
const shown = new Set(); // the numbers of the "asked for advice" lines in the log
const waiting = [];      // such lines whose entry the log does not show yet

const button = document.createElement("button");
button.type = "button";
button.id = "hint";
button.className = "hint";
button.textContent = box.dataset.ask;
const answer = document.createElement("div");
answer.id = "advice";
answer.className = "advice";
answer.setAttribute("aria-live", "polite");
box.append(button, answer);
button.addEventListener("click", () => {
  if (!window.subtable || asking !== null) return;
  asking = seq;
  button.disabled = true;
  answer.replaceChildren(Object.assign(document.createElement("p"), { className: "thinking", textContent: box.dataset.thinking }));
  window.subtable.send({ type: "hint" });
});

function refresh() {
  box.hidden = !(allowed && yours);
  button.disabled = asking !== null;
}

function showAdvice(message) {
  if (message.seq !== seq) return;    // the position moved on meanwhile
  asking = null;
  const title = document.createElement("p");
  title.className = "advice-title";
  title.textContent = message.title;
  const list = document.createElement("ol");
  list.className = "advice-options";
  for (const o of message.options) {
    const li = document.createElement("li");
    if (o.expert) li.className = "expert";
    const head = document.createElement("span");
    const code = document.createElement("code");
    code.textContent = o.notation;
    const chance = document.createElement("b");
    chance.className = "chance";
    chance.textContent = o.chance;
    head.append(code, " ", o.label, " — ", chance, ` [${o.low}–${o.high}]`);
    const why = document.createElement("small");
    why.textContent = o.reason;
    const play = document.createElement("button");
    play.type = "button";
    play.className = "play-advised";
    play.textContent = box.dataset.play;
    play.addEventListener("click", () => window.subtable.play(o.action));
    li.append(head, document.createElement("br"), why, " ", play);
    list.append(li);
  }
  answer.replaceChildren(title, list);
  refresh();
}

// "Gnome 1 (you) asked the expert for advice." goes in the log after the entry it followed.
function placeAsked(item) {
  if (shown.has(item.asked.n)) return;
  const log = $("log");
  const entries = [...log.children].filter((li) => !li.classList.contains("asked"));
  const after = entries.filter((li) => Number(li.value) <= item.asked.seq).pop();
  const known = entries.some((li) => Number(li.value) >= item.asked.seq);
  if (!known && item.asked.seq > 0) { if (!waiting.includes(item)) waiting.push(item); return; }
  shown.add(item.asked.n);
  const li = document.createElement("li");
  li.className = "asked";
  li.value = item.asked.seq;
  li.textContent = item.line;
  let anchor = after || null;
  while (anchor && anchor.nextElementSibling?.classList.contains("asked")) anchor = anchor.nextElementSibling;
  if (anchor) anchor.after(li); else log.prepend(li);
}
new MutationObserver(() => {
  for (const item of waiting.splice(0)) placeAsked(item);
}).observe($("log"), { childList: true });

function showTurning() {
  if (charted) return;
  charted = true;
  const section = $("turning-box");
  const seat = mySeats.length ? String(mySeats[0] + 1) : "all";
  const src = `/api/tables/${encodeURIComponent(tableId)}/turning?seat=${seat}&lang=${lang}`;
  section.hidden = false;
  $("turning-link").hidden = false; // the end screen points to it
  const p = document.createElement("p");
  p.className = "computing";
  p.setAttribute("role", "status");
  p.textContent = section.dataset.computing;
  section.append(p);
  loadTurning(section, src, section.dataset.failed);
}

document.addEventListener("subtable:message", (event) => {
  const message = event.detail;
  if (message.type === "welcome") {
    allowed = Boolean(message.advice);
    mySeats = message.seats || [];
  } else if (message.type === "sync") {
    for (const item of message.advice_asked || []) placeAsked(item);
  } else if (message.type === "advice_asked") {
    placeAsked(message);
  } else if (message.type === "advice") {
    showAdvice(message);
  } else if (message.type === "error" && message.about === "hint") {
    asking = null;
    answer.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: message.why || message.message }));
  }
  refresh();
});
// the position the page shows now (other seats' moves are shown one by one, paced)
document.addEventListener("subtable:state", (event) => {
  const state = event.detail;
  if (state.seq !== seq) { answer.replaceChildren(); asking = null; }
  seq = state.seq;
  yours = Boolean(state.your_turn) && !state.finished;
  if (state.finished) showTurning();
  refresh();
});
