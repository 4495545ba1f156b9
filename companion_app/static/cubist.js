// Cubist's workrooms: a value's button lights the columns where a die showing it may go next (beside the
// others or on top), from the values each column of the grid lists in its data-may attribute.
"use strict";

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-may-value]");
  if (!button) return;
  const room = button.closest("article.workroom");
  const value = button.dataset.mayValue;
  let columns = 0;
  for (const cell of room.querySelectorAll("td[data-may]")) {
    const may = cell.dataset.may.split(" ").includes(value);
    cell.classList.toggle("may-go", may);
    if (may) columns += 1;
  }
  for (const other of room.querySelectorAll("button[data-may-value]")) {
    other.setAttribute("aria-pressed", String(other === button));
  }
  room.querySelector(".may-go-result").textContent = columns
    ? `A ${value} may go in ${columns} column${columns > 1 ? "s" : ""}.`
    : `A ${value} can go nowhere.`;
});
