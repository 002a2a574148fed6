// The board's zoom: −, 100 % and + buttons (keyboard reachable) and a two-finger pinch on
// touch screens. The drawing grows inside the board's frame, which then scrolls; the motion
// is a CSS transition that prefers-reduced-motion turns off (style.css).
const board = document.getElementById("board");
const reset = document.getElementById("zoom-reset");
const LEVELS = [1, 1.25, 1.5, 2, 2.5, 3];
const MAX = LEVELS[LEVELS.length - 1];
let zoom = 1;

function setZoom(value) {
  const before = zoom;
  zoom = Math.min(Math.max(value, 1), MAX);
  board.style.setProperty("--zoom", String(zoom));
  board.toggleAttribute("data-zoomed", zoom > 1);
  board.dataset.zoom = zoom.toFixed(2);
  reset.textContent = Math.round(zoom * 100) + "%";
  // keep the middle of what was in view in the middle
  const grow = zoom / before;
  board.scrollLeft = (board.scrollLeft + board.clientWidth / 2) * grow - board.clientWidth / 2;
  board.scrollTop = (board.scrollTop + board.clientHeight / 2) * grow - board.clientHeight / 2;
}

const step = (direction) => {
  const next = direction > 0 ? LEVELS.find((l) => l > zoom + 0.01) : [...LEVELS].reverse().find((l) => l < zoom - 0.01);
  setZoom(next ?? zoom);
};

document.getElementById("zoom-in").addEventListener("click", () => step(1));
document.getElementById("zoom-out").addEventListener("click", () => step(-1));
reset.addEventListener("click", () => setZoom(1));

// Pinch: two pointers on the board; the zoom follows the change of their distance.
const touches = new Map();
let pinch = null;
const spread = () => {
  const [a, b] = [...touches.values()];
  return Math.hypot(a.x - b.x, a.y - b.y);
};
board.addEventListener("pointerdown", (event) => {
  if (event.pointerType !== "touch") return;
  touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
  if (touches.size === 2) pinch = { distance: spread(), zoom };
});
board.addEventListener("pointermove", (event) => {
  if (!touches.has(event.pointerId)) return;
  touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
  if (pinch && touches.size === 2 && pinch.distance > 0) setZoom(pinch.zoom * (spread() / pinch.distance));
});
for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
  board.addEventListener(type, (event) => {
    touches.delete(event.pointerId);
    if (touches.size < 2) pinch = null;
  });
}
