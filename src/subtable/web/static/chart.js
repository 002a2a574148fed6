// Where the game turned: the server draws the chart (inline SVG). When it was not computed
// yet, the page holds a placeholder (data-src) and asks for it until it comes.
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

export async function loadTurning(section, src, failed = "") {
  let wait = 800;
  for (let tries = 0; tries < 200; tries += 1) {
    let response = null;
    try { response = await fetch(src, { headers: { Accept: "application/json" } }); } catch { response = null; }
    if (response && response.status === 200) {
      const data = await response.json();
      fill(section, data.html);
      return true;
    }
    if (response && response.status !== 202 && response.status !== 503) {
      if (response.status === 409) { section.hidden = true; return false; }
      const p = section.querySelector(".computing");
      if (p) { p.className = "error"; p.textContent = failed || p.textContent; }
      return false;
    }
    await sleep(wait);
    wait = Math.min(wait * 1.4, 4000);
  }
  return false;
}

function fill(section, html) {
  section.querySelector(".computing")?.remove();
  section.insertAdjacentHTML("beforeend", html); // a div.turning-body, drawn and escaped by the server
  section.dataset.ready = "true";
}

const waiting = document.querySelector("#turning[data-src]");
if (waiting && !waiting.dataset.ready) loadTurning(waiting, waiting.dataset.src, waiting.dataset.failed);
