// The replay page: each step is drawn in the page (the server's HTML for that step, fetched
// and swapped in) without reloading; Play steps by itself at the table's paces; the seat
// choice applies at once. Without scripts, the links and the form still work page by page.
const $ = (id) => document.getElementById(id);
const form = $("replay-form");
const step = $("step");
const out = $("step-out");
const seat = $("seat");
const play = $("play");
const pace = $("replay-pace");
const last = Number(step.max);
let timer = null;
let loading = null;

function stepUrl(n) {
  const url = new URL(location.href);
  url.searchParams.set("seat", seat.value);
  url.searchParams.set("step", String(n));
  return url;
}

// Swap the step's parts (board, panels, log, links, result) for those of the fetched page;
// the chart stays (its script may still be filling it) unless the new one is already drawn.
function swapIn(doc) {
  for (const selector of [".replay-steps", ".table.replay", "#result"]) {
    const fresh = doc.querySelector(selector);
    const old = document.querySelector(selector);
    if (fresh && old) old.replaceWith(fresh);
  }
  const chart = doc.getElementById("turning");
  const shown = $("turning");
  if (chart && shown && !chart.dataset.src) shown.replaceWith(chart);
}

async function show(n) {
  const target = Math.min(Math.max(Number(n) || 0, 0), last);
  const url = stepUrl(target);
  let response = null;
  try { response = await fetch(url, { headers: { Accept: "text/html" } }); } catch { response = null; }
  if (!response || !response.ok) { stop(); location.href = url.href; return; }
  const doc = new DOMParser().parseFromString(await response.text(), "text/html");
  swapIn(doc);
  step.value = String(target);
  out.textContent = String(target);
  document.body.dataset.step = String(target);
  for (const field of document.querySelectorAll('input[type="hidden"][name="step"]')) field.value = String(target);
  for (const field of document.querySelectorAll('input[type="hidden"][name="seat"]')) field.value = seat.value;
  history.replaceState(null, "", url);
}

// One step at a time: a click during a fetch waits for it rather than racing it.
function go(n) {
  loading = (loading ?? Promise.resolve()).then(() => show(n));
  return loading;
}

function stop() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  play.setAttribute("aria-pressed", "false");
  play.textContent = play.dataset.play;
}

function tick() {
  const next = Number(step.value) + 1;
  if (next > last) { stop(); return; }
  go(next).then(() => { if (timer !== null) timer = setTimeout(tick, Number(pace.value)); });
}

play.addEventListener("click", () => {
  if (timer !== null) { stop(); return; }
  play.setAttribute("aria-pressed", "true");
  play.textContent = play.dataset.pause;
  const from = Number(step.value) >= last ? go(0) : Promise.resolve();
  timer = 0;
  from.then(() => { if (timer !== null) timer = setTimeout(tick, Number(pace.value)); });
});

step.addEventListener("input", () => { out.textContent = step.value; });
step.addEventListener("change", () => { stop(); go(step.value); });
seat.addEventListener("change", () => go(step.value));
form.addEventListener("submit", (event) => { event.preventDefault(); stop(); go(step.value); });

// The step links (and the chart's moments) show their step in the page.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[href]");
  if (!link || link.hasAttribute("download") || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const url = new URL(link.href, location.href);
  if (url.pathname !== location.pathname || !url.searchParams.has("step")) return;
  event.preventDefault();
  stop();
  go(url.searchParams.get("step"));
});

document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.key === "ArrowRight") $("next").click();
  if (event.key === "ArrowLeft") $("prev").click();
});
