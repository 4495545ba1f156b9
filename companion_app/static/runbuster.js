// The Run Buster page: redraw the turns whenever the game changes (another phone sent a photo or a fix).
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
    if (html !== null && mine === refreshes) panel.innerHTML = html;  // a later refresh wins
  }

  const events = new EventSource(root.dataset.eventsUrl);
  events.addEventListener("open", () => { status.textContent = "live"; });
  events.addEventListener("error", () => { status.textContent = "reconnecting…"; });
  events.addEventListener("change", () => { refreshPanel(); });
})();
