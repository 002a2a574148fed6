// Every board element says what it is and its state in a small popover: on hover with a
// mouse, on a tap on touch (a tap on a target still plays it; its popover shows on hover or a
// long press). Clicking a room the gnome cannot reach asks the server why not, as the options'
// "why not?" does, and the answer shows in the same popover. The texts are the elements'
// aria-labels, drawn by the server in the reader's language; the native <title> tooltips
// (never shown on touch) give way to the popover.

const tip = document.createElement("div");
tip.className = "board-tip";
tip.setAttribute("role", "tooltip");
tip.id = "board-tip";
tip.hidden = true;

let shownFor = null;

/** The board element a pointer is on: the innermost one that says what it is. */
function described(node, board) {
  const el = node instanceof Element ? node.closest("svg [aria-label]") : null;
  return el && board.contains(el) && !el.matches("svg") ? el : null;
}

function place(el) {
  const r = el.getBoundingClientRect();
  const host = tip.offsetParent || document.body;
  const h = host.getBoundingClientRect();
  tip.style.left = Math.max(0, Math.min(r.left - h.left, h.width - tip.offsetWidth)) + "px";
  const below = r.bottom - h.top + 6;
  const above = r.top - h.top - tip.offsetHeight - 6;
  tip.style.top = (r.bottom + tip.offsetHeight + 6 > window.innerHeight && above > 0 ? above : below) + "px";
}

export function showTip(el, text) {
  tip.textContent = text;
  tip.hidden = false;
  shownFor = el;
  place(el);
}

export function hideTip() {
  tip.hidden = true;
  shownFor = null;
}

/**
 * Popovers on `board`. `askWhy(notation, answer)` asks the server why an action is not
 * possible (answer(text) is called with its reply); `deciding()` says whether this seat
 * decides now (only then may it ask).
 */
export function listenForTips(board, askWhy, deciding) {
  board.append(tip);
  board.addEventListener("pointerover", (event) => {
    if (event.pointerType === "touch") return;
    const el = described(event.target, board);
    if (el && el !== shownFor) showTip(el, el.getAttribute("aria-label"));
  });
  board.addEventListener("pointerleave", () => hideTip());
  board.addEventListener("focusin", (event) => {
    const el = described(event.target, board);
    if (el) showTip(el, el.getAttribute("aria-label"));
  });
  board.addEventListener("focusout", () => hideTip());
  board.addEventListener("click", (event) => {
    const el = described(event.target, board);
    if (!el) { hideTip(); return; }
    if (el.closest("[data-actions]")) return;   // a target plays (targets.js)
    const room = el.closest("[data-room]");
    const what = el.getAttribute("aria-label");
    showTip(el, what);
    if (room && deciding()) {
      const r = Number(room.dataset.room);
      askWhy("move " + (room.classList.contains("sea") ? "sea" : r), (why) => {
        if (shownFor === el) showTip(el, what + " — " + why);
      });
    }
  });
}

/** Drop the native tooltips of a freshly drawn board (the popover says the same). */
export function quietTitles(board) {
  for (const t of board.querySelectorAll("svg title")) t.remove();
  // without its <title> a labelled part is still a part with a name (not a bare <g>)
  for (const el of board.querySelectorAll("svg g[aria-label]:not([role])")) el.setAttribute("role", "group");
  hideTip();
  board.append(tip);
}
