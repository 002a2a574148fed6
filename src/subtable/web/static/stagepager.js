// The stage shows one figure (a roll, a card, an event and what it asks) at a time, so that
// it never scrolls and never pushes the options out of sight: the figures follow one another
// at the table's pace and stay on the last one (usually the event that asks something); a
// pager ("‹ 2 / 3 ›") steps back through them. Beside the board (not in a phone's tab) the
// stage keeps the height of its tallest figure, so that the options under it stand still
// while the figures follow one another.

let timer = null;
const phone = window.matchMedia("(max-width: 52rem)");   // the tabs of style.css

/** Page through the figures of `stage` (just drawn); `pace` ms apart, 0: the last at once. */
export function pageStage(stage, pace, words) {
  clearTimeout(timer);
  stage.style.minHeight = "";
  const figures = [...stage.querySelectorAll(".stage-figures > figure")];
  if (figures.length < 2) return;
  const nav = document.createElement("nav");
  nav.className = "stage-pager";
  const prev = button("‹", words.prev);
  const where = document.createElement("span");
  const next = button("›", words.next);
  nav.append(prev, where, next);
  stage.prepend(nav);
  let at = 0;
  const show = (i) => {
    at = Math.max(0, Math.min(figures.length - 1, i));
    figures.forEach((f, j) => { f.hidden = j !== at; });
    where.textContent = at + 1 + " / " + figures.length;
    prev.disabled = at === 0;
    next.disabled = at === figures.length - 1;
  };
  reserve(stage, figures, show);
  prev.addEventListener("click", () => { clearTimeout(timer); show(at - 1); });
  next.addEventListener("click", () => { clearTimeout(timer); show(at + 1); });
  if (pace <= 0) { show(figures.length - 1); return; }
  show(0);
  const step = () => {
    if (at >= figures.length - 1 || !stage.contains(nav)) return;
    show(at + 1);
    timer = setTimeout(step, pace);
  };
  timer = setTimeout(step, pace);
}

/** Hold `stage` at the height of its tallest figure (nothing where it is not drawn). */
function reserve(stage, figures, show) {
  if (phone.matches) return;
  let tallest = 0;
  figures.forEach((_, i) => { show(i); tallest = Math.max(tallest, stage.offsetHeight); });
  if (tallest) stage.style.minHeight = tallest + "px";
}

function button(mark, label) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = mark;
  b.setAttribute("aria-label", label);
  return b;
}
