// Tokens move to their new place: the board is drawn anew for every move, so each piece's
// place is read before and after, and the new piece starts where the old one stood and slides
// (a CSS transition). Pieces are known by what they are: a gnome by its seat, a Time Keeper
// by its gnome, the ghost, a Destruction token by its name, a boat or a player's bathyscaphes
// by their colour (the first with the first).
// `prefers-reduced-motion` turns the motion off.

const PIECES = [
  ["g.gnome[data-seat]", (el) => "gnome:" + el.dataset.seat],
  ["g.keeper", (el) => "keeper:" + el.getAttribute("class")],
  ["g.ghost", () => "ghost"],
  ["g.token[data-token]", (el) => "token:" + el.dataset.token],
  ["g.piece.boat", (el) => "boat:" + el.getAttribute("class")],
  ["g.piece.bathyscaphe", (el) => "bath:" + el.getAttribute("class")],
];

const still = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function pieces(board) {
  const found = new Map();
  for (const svg of board.querySelectorAll("svg")) {
    if (!svg.getBoundingClientRect().width) continue;   // the drawing a phone hides
    for (const [selector, key] of PIECES) {
      for (const el of svg.querySelectorAll(selector)) {
        const base = (svg.getAttribute("class") || "") + "|" + key(el).replace(/ (active|you|changed|moving)/g, "");
        let k = base;
        for (let n = 2; found.has(k); n++) k = base + "#" + n;
        found.set(k, el);
      }
    }
  }
  return found;
}

/** Where each piece of `board` is now, in the page's pixels. */
export function placesOf(board) {
  const places = new Map();
  for (const [k, el] of pieces(board)) {
    const r = el.getBoundingClientRect();
    places.set(k, { x: r.left + r.width / 2, y: r.top + r.height / 2 });
  }
  return places;
}

/** Slide each piece of the newly drawn `board` from its place in `before`. */
export function slideFrom(board, before) {
  if (still() || !before.size) return;
  for (const [k, el] of pieces(board)) {
    const old = before.get(k);
    if (!old) continue;
    const r = el.getBoundingClientRect();
    const dx = old.x - (r.left + r.width / 2);
    const dy = old.y - (r.top + r.height / 2);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const svg = el.ownerSVGElement;
    const scale = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width || 1;
    el.classList.add("moving");
    el.style.transition = "none";
    el.style.transform = `translate(${dx * scale}px, ${dy * scale}px)`;
    void el.getBoundingClientRect();
    el.style.transition = "";
    el.style.transform = "";
    el.addEventListener("transitionend", () => el.classList.remove("moving"), { once: true });
  }
}
