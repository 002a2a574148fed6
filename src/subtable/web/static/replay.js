// The replay page: scrubbing the step slider shows that step; the seat choice applies at once.
const form = document.getElementById("replay-form");
const step = document.getElementById("step");
const out = document.getElementById("step-out");
step.addEventListener("input", () => { out.textContent = step.value; });
step.addEventListener("change", () => form.submit());
document.getElementById("seat").addEventListener("change", () => form.submit());
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.key === "ArrowRight") document.getElementById("next").click();
  if (event.key === "ArrowLeft") document.getElementById("prev").click();
});
