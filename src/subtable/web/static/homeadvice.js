// The home page's "allow advice" box follows the table's default until it is touched: on
// at a cooperative game, and where at most one person plays; off at a competitive table
// of several people (the server applies the same default when a request leaves it out).
for (const box of document.querySelectorAll("input[type=checkbox][name$='-advice']")) {
  const form = box.closest("form");
  if (box.dataset.cooperative === "true") continue;
  let touched = false;
  box.addEventListener("change", () => { touched = true; });
  const sync = () => {
    if (touched) return;
    const people = [...form.querySelectorAll(".seat select:not([disabled])")].filter((s) => s.value === "human").length;
    box.checked = people <= 1;
  };
  form.addEventListener("change", (event) => { if (event.target !== box) sync(); });
  sync();
}
