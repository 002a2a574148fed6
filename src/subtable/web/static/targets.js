// The board and the panels (the cards in a hand) carry targets ([data-actions]): a click, or
// Enter or Space on a focused one, chooses it. The table and the lessons both listen so.
export function listenForTargets(areas, choose) {
  for (const area of areas) {
    area.addEventListener("click", (event) => {
      const target = event.target.closest("[data-actions]");
      if (target) choose(target);
    });
    area.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const target = event.target.closest("[data-actions]");
      if (target) { event.preventDefault(); choose(target); }
    });
  }
}
