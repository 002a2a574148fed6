// The home page: keep the tables this browser opened (their invite links) in
// localStorage, list them, and show only the seat rows the chosen player count uses.
const KEY = "subtable:tables";
const load = () => { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch { return []; } };
const save = (tables) => localStorage.setItem(KEY, JSON.stringify(tables.slice(0, 30)));

const created = document.getElementById("created");
if (created) {
  const tables = load().filter((t) => t.id !== created.dataset.table);
  const first = created.querySelector(".invite .link");
  const url = new URL(first.value);
  tables.unshift({ id: created.dataset.table, game: created.dataset.game, url: first.value,
    token: url.hash.slice(1), when: new Date().toISOString() });
  save(tables);
  for (const button of created.querySelectorAll("button.copy")) {
    button.addEventListener("click", async () => {
      const input = button.parentElement.querySelector(".link");
      input.select();
      try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand?.("copy"); }
      button.textContent = button.dataset.copied;
    });
  }
}

const list = document.getElementById("your-tables");
if (list) {
  const tables = load();
  if (tables.length) list.replaceChildren();
  for (const t of tables) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = t.url;
    a.textContent = t.game + " · " + new Date(t.when).toLocaleString(document.documentElement.lang);
    const forget = document.createElement("button");
    forget.type = "button";
    forget.textContent = list.dataset.forget;
    forget.addEventListener("click", () => {
      save(load().filter((x) => x.id !== t.id));
      li.remove();
      if (!list.children.length) { const empty = document.createElement("li"); empty.textContent = list.dataset.empty; list.append(empty); }
    });
    li.append(a, " ", forget);
    list.append(li);
  }
}

for (const select of document.querySelectorAll("select.players")) {
  const form = select.closest("form");
  const sync = () => {
    const n = Number(select.value);
    for (const row of form.querySelectorAll(".seat")) {
      const on = Number(row.dataset.seat) < n;
      row.hidden = !on;
      row.querySelector("select").disabled = !on;
    }
  };
  select.addEventListener("change", sync);
  sync();
}
