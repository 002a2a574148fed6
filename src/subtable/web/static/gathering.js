// A table that waits for its people: while seats nobody claimed are open, the page says how
// many people it waits for and, to the person who opened it, offers to start now (bots take
// the empty seats). table.js passes on every message ("subtable:message") and position
// ("subtable:state") and lends send() as window.subtable; this module loads before it.
const $ = (id) => document.getElementById(id);
const box = $("gathering");
const startNow = $("start-now");
let player = null;

startNow.addEventListener("click", () => {
  startNow.disabled = true;
  window.subtable?.send({ type: "start" });
});

document.addEventListener("subtable:message", (event) => {
  const message = event.detail;
  if (message.type === "welcome") player = message.player;
  if (message.type === "error") startNow.disabled = false;
});

document.addEventListener("subtable:state", (event) => {
  const waiting = event.detail.waiting;
  document.body.dataset.waiting = String(Boolean(waiting));
  box.hidden = !waiting;
  if (!waiting) return;
  const n = waiting.open.length;
  const words = (n === 1 ? box.dataset.one : box.dataset.many).replace("{n}", String(n));
  $("gathering-text").textContent = words;
  $("status").textContent = words;
  const host = player !== null && player === waiting.host;
  startNow.hidden = !host;
  startNow.disabled = false;
  $("gathering-host").hidden = host || waiting.host === null;
});
