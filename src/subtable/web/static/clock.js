// Time left, in the page's language: "2 days, 5 hours", "3 hours, 12 minutes", "1 minute,
// 30 seconds", "40 seconds": the seconds count down through the last two minutes
// (the browser's Intl words: no catalogue needed).
export function timeLeft(seconds, lang) {
  const s = Math.max(0, Math.floor(seconds));
  const word = (n, unit) => new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(n);
  const two = (big, bigUnit, small, smallUnit) => [word(big, bigUnit), small > 0 ? word(small, smallUnit) : ""];
  let parts;
  if (s >= 86400) parts = two(Math.floor(s / 86400), "day", Math.floor((s % 86400) / 3600), "hour");
  else if (s >= 3600) parts = two(Math.floor(s / 3600), "hour", Math.floor((s % 3600) / 60), "minute");
  else if (s >= 120) parts = [word(Math.floor(s / 60), "minute")];
  else if (s >= 60) parts = two(1, "minute", s - 60, "second");
  else parts = [word(s, "second")];
  parts = parts.filter(Boolean);
  try { return new Intl.ListFormat(lang, { style: "long", type: "unit" }).format(parts); } catch { return parts.join(" "); }
}

// "{time} left" with its placeholders filled in
export const fill = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));

// Why a name typed in `input` is refused for its length (its data-limit, counted in
// characters as the server counts them), or "" when it fits: a name is never cut.
export function nameTooLong(input, name) {
  const n = [...name].length;
  return n > Number(input.dataset.limit) ? fill(input.dataset.tooLong, { n }) : "";
}
