// On a desktop the decision comes first: every option in the window without scrolling.
// - When the stage over the options would push the last option below the window, the stage
//   leaves the column and floats over the board's lower corner, whole and on screen (it
//   never scrolls), with a button that hides it until the next move is staged.
// - When the options alone still pass the window's foot (a rare position with a dozen rows:
//   every hatch, three fix-its, items with long texts), they are drawn a little smaller, down
//   to LEAST of their size; nothing of them is cut or hidden.
// Both are undone as soon as everything fits again.

const desktop = window.matchMedia("(min-width: 1200px) and (pointer: fine)");
const LEAST = 0.8;

const bottom = (el) => el.getBoundingClientRect().bottom + window.scrollY;

/** Place the stage and size the options so that the last option is in the window. */
export function fitDecision() {
  const stage = document.getElementById("stage");
  const legal = document.getElementById("legal");
  stage.classList.remove("aside");
  stage.style.right = "";
  legal.style.zoom = "";
  const last = legal.lastElementChild;
  if (!desktop.matches || !last || !last.getClientRects().length) return;
  if (bottom(last) <= window.innerHeight) return;
  if (!stage.hidden) {
    const play = document.querySelector(".play").getBoundingClientRect();
    stage.style.right = Math.max(0, document.documentElement.clientWidth - play.right) + "px";
    stage.classList.add("aside");
  }
  // smaller by the part that passes the foot, again while it still does (lines re-wrap)
  const top = legal.getBoundingClientRect().top + window.scrollY;
  let zoom = 1;
  for (let tries = 0; tries < 4 && zoom > LEAST && bottom(last) > window.innerHeight; tries++) {
    zoom = Math.max(LEAST, zoom * (window.innerHeight - top - 2) / (bottom(last) - top));
    legal.style.zoom = String(zoom);
  }
}

/** The floating stage's hide button (`label` its words), added once to a stage just drawn. */
export function addHide(stage, label) {
  const hide = document.createElement("button");
  hide.type = "button";
  hide.className = "stage-hide";
  hide.textContent = "×";
  hide.title = label;
  hide.setAttribute("aria-label", label);
  hide.addEventListener("click", () => { stage.hidden = true; fitDecision(); });
  stage.prepend(hide);
}

desktop.addEventListener("change", fitDecision);
window.addEventListener("resize", fitDecision);
// whatever grows or shrinks above the options (the status line, the name prompt, the end
// screen, the new table's offer) fits the decision again; none of these is changed by the fit
const watch = new ResizeObserver(() => fitDecision());
for (const part of document.querySelectorAll(".topline, #rematch, #end, #turning-link")) {
  watch.observe(part);
}
