// On a desktop, the decision comes first: when the stage over the options would push the
// last option below the window, the stage leaves the column and floats over the board's
// lower corner, whole and on screen (it never scrolls), with a button that hides it until
// the next move is staged. It is put back in the column as soon as both fit again.
// (A position with so many options that they alone pass the window's foot, with a fix-it's
// ten minutes in three rows, still scrolls the page: the stage then floats all the same.)

const desktop = window.matchMedia("(min-width: 1200px) and (pointer: fine)");

/** Put the stage in the column or over the board, whichever keeps the options in view. */
export function fitStage() {
  const stage = document.getElementById("stage");
  stage.classList.remove("aside");
  stage.style.right = "";
  if (stage.hidden || !desktop.matches) return;
  const last = document.querySelector("#legal > li:last-child");
  if (!last || !last.getClientRects().length) return;
  if (last.getBoundingClientRect().bottom + window.scrollY <= window.innerHeight) return;
  const play = document.querySelector(".play").getBoundingClientRect();
  stage.style.right = Math.max(0, document.documentElement.clientWidth - play.right) + "px";
  stage.classList.add("aside");
}

/** The floating stage's hide button (`label` its words), added once to a stage just drawn. */
export function addHide(stage, label) {
  const hide = document.createElement("button");
  hide.type = "button";
  hide.className = "stage-hide";
  hide.textContent = "×";
  hide.title = label;
  hide.setAttribute("aria-label", label);
  hide.addEventListener("click", () => { stage.hidden = true; stage.classList.remove("aside"); });
  stage.prepend(hide);
}

desktop.addEventListener("change", fitStage);
window.addEventListener("resize", fitStage);
// whatever grows or shrinks above or beside the options (the status line, the name prompt,
// the expert's answer, the end screen) fits the stage again; the stage's own move leaves the
// column as it found it, so this settles at once
const watch = new ResizeObserver(() => fitStage());
for (const part of document.querySelectorAll(".topline, .side")) watch.observe(part);
