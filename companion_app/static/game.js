// The game page: live refresh from the server's event stream, the tap-to-fix dialog, upload progress.
"use strict";

(() => {
  const root = document.getElementById("game");
  const panel = document.getElementById("panel");
  const status = document.getElementById("live-status");
  const csrf = document.querySelector('meta[name="csrf-token"]').content;

  async function refreshPanel() {
    const response = await fetch(root.dataset.panelUrl, { headers: { "X-CSRF-Token": csrf } });
    if (response.ok) panel.innerHTML = await response.text();
  }

  const events = new EventSource(root.dataset.eventsUrl);
  events.addEventListener("open", () => { status.textContent = "live"; });
  events.addEventListener("error", () => { status.textContent = "reconnecting…"; });
  events.addEventListener("change", () => { refreshPanel(); });

  const dialog = document.getElementById("fix-dialog");
  const fixForm = document.getElementById("fix-form");
  panel.addEventListener("click", (event) => {
    const space = event.target.closest("button.space");
    if (!space) return;
    fixForm.action = space.dataset.action;
    document.getElementById("fix-cell").value = space.dataset.cell;
    document.getElementById("fix-title").textContent = `${space.dataset.player}: fix ${space.dataset.cell}`;
    const die = space.dataset.die;
    for (const input of fixForm.querySelectorAll("input[type=radio]")) {
      input.checked = die !== "" && (input.value === die[0] || input.value === die[1]);
    }
    dialog.showModal();
  });
  document.getElementById("fix-cancel").addEventListener("click", () => dialog.close());

  const captureForm = document.getElementById("capture-form");
  if (captureForm) {
    captureForm.addEventListener("submit", (event) => {
      const file = captureForm.querySelector("input[type=file]").files[0];
      if (!file) return;
      event.preventDefault();
      const progress = document.getElementById("upload-progress");
      progress.hidden = false;
      const request = new XMLHttpRequest();
      request.open("POST", captureForm.action);
      request.setRequestHeader("X-CSRF-Token", csrf);
      request.upload.addEventListener("progress", (e) => {
        if (e.lengthComputable) progress.value = (100 * e.loaded) / e.total;
      });
      request.addEventListener("load", () => {
        if (request.status < 400) {
          window.location.assign(request.responseURL);
        } else {
          document.open();
          document.write(request.responseText);
          document.close();
        }
      });
      request.addEventListener("error", () => {
        progress.hidden = true;
        alert("The photo could not be sent. Check the connection and try again.");
      });
      request.send(new FormData(captureForm));
    });
  }
})();
