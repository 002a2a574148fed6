// A lesson in the browser. The server plays it (POST /api/learn/GAME/LESSON, the same
// LessonRun as `subtable learn`): this page sends the scene, the moves the scene accepted
// so far and the move to try, and draws what comes back — the scene's text, the board and
// panels drawn from the learner's view, the options, what happened or why a move misses.
import { listenForTargets } from "./targets.js";

const body = document.body;
const game = body.dataset.game;
const lesson = body.dataset.lesson;
const lang = body.dataset.lang;
const text = JSON.parse(document.getElementById("learn-strings").textContent);
const $ = (id) => document.getElementById(id);

let data = JSON.parse($("learn-first").textContent);
let busy = false;

async function post(request) {
  if (busy) return null;
  busy = true;
  body.dataset.busy = "true";
  try {
    const response = await fetch(`/api/learn/${encodeURIComponent(game)}/${encodeURIComponent(lesson)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ lang, ...request }),
    });
    const answer = await response.json();
    if (!response.ok) { feedback("error", (answer.error && answer.error.message) || text.failed); return null; }
    return answer;
  } catch {
    feedback("error", text.failed);
    return null;
  } finally {
    busy = false;
    body.dataset.busy = "false";
  }
}

function feedback(kind, message) {
  const box = $("feedback");
  box.hidden = !message;
  box.className = "feedback " + kind;
  box.textContent = message || "";
}

function played(moves, fresh) {
  const list = $("happened");
  if (fresh) list.replaceChildren();
  for (const move of moves) {
    const li = document.createElement("li");
    if (move.learner) li.className = "mine";
    const head = document.createElement("b");
    head.textContent = move.head;
    li.append(head);
    for (const line of move.lines) li.append(document.createElement("br"), line);
    list.append(li);
  }
  $("happened-box").hidden = !list.children.length;
  list.lastElementChild?.scrollIntoView({ block: "nearest" });
}

function tryMove(move) {
  return post({ scene: data.scene.index, moves: data.moves, move }).then((answer) => {
    if (!answer) return;
    const outcome = answer.outcome;
    show(answer, false);
    played(outcome.played, false);
    const kind = outcome.accepted ? "good" : outcome.kind === "wrong" ? "wrong" : "error";
    feedback(kind, outcome.message);
    if (outcome.accepted && !answer.scene.done) $("legal").querySelector("button")?.focus();
    if (answer.scene.done) $("done-box").querySelector("button:not([hidden]), a:not([hidden])")?.focus();
  });
}

function goTo(scene) {
  return post({ scene, moves: [] }).then((answer) => {
    if (!answer) return;
    show(answer, true);
    $("scene-h").focus();
  });
}

function show(answer, fresh) {
  data = answer;
  const scene = answer.scene;
  body.dataset.scene = String(scene.index);
  body.dataset.done = String(scene.done);
  body.dataset.finished = String(answer.finished);
  $("scene-h").textContent = scene.heading;
  $("scene-h").tabIndex = -1;
  $("intro").textContent = scene.intro;
  $("task").textContent = scene.task;
  $("board").innerHTML = answer.board;     // drawn by the server from the learner's view
  $("panels").innerHTML = answer.panels;
  if (fresh) { feedback("", ""); played(answer.opening, true); }
  const list = $("legal");
  list.replaceChildren();
  for (const option of answer.options) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "action";
    b.dataset.id = option.id;
    b.dataset.notation = option.notation;
    const n = document.createElement("code");
    n.textContent = option.notation;
    b.append(n, " ", option.label);
    if (option.hint) { const h = document.createElement("small"); h.textContent = option.hint; b.append(" ", h); }
    b.addEventListener("click", () => tryMove(option.notation));
    li.append(b);
    list.append(li);
  }
  $("choose").hidden = true;
  $("actions").hidden = scene.done;
  $("show").hidden = scene.done;
  $("again").hidden = !answer.moves.length && !scene.done;
  $("skip").hidden = scene.done || answer.next_scene === null;
  const rules = $("rules");
  rules.replaceChildren();
  for (const section of answer.rules) {
    const h = document.createElement("h3");
    h.className = "small-h";
    h.textContent = section.title;
    rules.append(h);
    for (const entry of section.entries) {
      const p = document.createElement("p");
      if (entry.title) { const t = document.createElement("b"); t.textContent = entry.title + " "; p.append(t); }
      p.append(entry.text);
      rules.append(p);
    }
  }
  $("rules-box").hidden = !answer.rules.length;
  // the end of a scene: on to the next one; the end of the lesson: the next lesson
  const last = answer.next_scene === null;
  $("done-box").hidden = !scene.done;
  $("next").hidden = last;
  $("lesson-done").textContent = [answer.result, answer.lesson_done].filter(Boolean).join(" ");
  $("lesson-done").hidden = !$("lesson-done").textContent;
  const after = answer.next_lesson;
  $("next-lesson").hidden = !(scene.done && last && after);
  if (after) {
    $("next-lesson").href = `/learn/${encodeURIComponent(game)}/${encodeURIComponent(after.id)}?lang=${lang}`;
    $("next-lesson").textContent = after.title + " →";
  }
  $("all-lessons").hidden = !(scene.done && last);
  const url = new URL(location.href);
  url.searchParams.set("scene", String(scene.index + 1));
  history.replaceState(null, "", url);
}

// A click (or Enter/Space) on the board: one option tries it; several narrow the list.
function boardChoice(target) {
  const ids = target.dataset.actions.split(" ").filter(Boolean).map(Number);
  const mine = data.options.filter((o) => ids.includes(o.id));
  if (mine.length === 0) return;
  if (mine.length === 1) { tryMove(mine[0].notation); return; }
  $("choose").hidden = false;
  let first = null;
  for (const b of $("legal").querySelectorAll("button")) {
    const on = mine.some((o) => o.id === Number(b.dataset.id));
    b.closest("li").hidden = !on;
    if (on && !first) first = b;
  }
  first?.focus();
}
listenForTargets([$("board"), $("panels")], boardChoice);
$("type-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const move = $("type-move").value.trim();
  if (!move) return;
  const n = /^\d+$/.test(move) ? Number(move) : move;
  tryMove(n).then(() => { $("type-move").value = ""; });
});
$("show").addEventListener("click", () => feedback("hint", data.show));
$("again").addEventListener("click", () => goTo(data.scene.index));
$("skip").addEventListener("click", () => { if (data.next_scene !== null) goTo(data.next_scene); });
$("next").addEventListener("click", () => { if (data.next_scene !== null) goTo(data.next_scene); });
window.subtableLesson = { tryMove, goTo, get data() { return data; } };
show(data, true);
