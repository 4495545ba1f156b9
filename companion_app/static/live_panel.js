// A game page whose live part is one panel: redraw it whenever the game changes (another phone sent a
// move, a photo or a fix). The page names the panel and the event stream in data attributes on #game.
"use strict";

(() => {
  const root = document.getElementById("game");
  const panel = document.getElementById("panel");
  const status = document.getElementById("live-status");

  let refreshes = 0;
  async function refreshPanel() {
    const mine = ++refreshes;
    const response = await fetch(root.dataset.panelUrl);
    const html = response.ok ? await response.text() : null;
    if (html === null || mine !== refreshes) return;  // a later refresh wins
    panel.innerHTML = html;
    // The game ended on another phone: reload, so this page's forms outside the panel go too.
    if (panel.querySelector("[data-game-over]") && !("ended" in root.dataset)) window.location.reload();
  }

  // A form that asks first (ending the game for everyone), wherever it is on the page.
  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  const events = new EventSource(root.dataset.eventsUrl);
  events.addEventListener("open", () => { status.textContent = "live"; });
  events.addEventListener("error", () => { status.textContent = "reconnecting…"; });
  events.addEventListener("change", () => { refreshPanel(); });
})();
