// The game page: live refresh from the server's event stream, the tap-to-fix dialog, one-tap answers to
// the photo's unsure spaces, upload progress.
"use strict";

(() => {
  const root = document.getElementById("game");
  const panel = document.getElementById("panel");
  const status = document.getElementById("live-status");
  const csrf = document.querySelector('meta[name="csrf-token"]').content;

  let refreshes = 0;
  async function refreshPanel() {
    const mine = ++refreshes;
    const response = await fetch(root.dataset.panelUrl);
    const html = response.ok ? await response.text() : null;
    if (html !== null && mine === refreshes) {  // a later refresh wins
      panel.innerHTML = html;
      restoreHint();
    }
  }

  // The hint on show survives a redraw from another phone's capture: it is asked again for the new window.
  let shownHint = null;
  function restoreHint() {
    const form = shownHint && panel.querySelector(`#${shownHint.card} form.hint`);
    if (!form) return;
    for (const [name, value] of shownHint.fields) {
      const field = form.elements.namedItem(name);
      if (field) field.value = value;
    }
    showHint(form);
  }

  const events = new EventSource(root.dataset.eventsUrl);
  events.addEventListener("open", () => { status.textContent = "live"; });
  events.addEventListener("error", () => { status.textContent = "reconnecting…"; });
  events.addEventListener("change", () => { refreshPanel(); });

  const dialog = document.getElementById("fix-dialog");
  const fixForm = document.getElementById("fix-form");
  const fixError = document.getElementById("fix-error");
  // A space opens the dialog when tapped, and so does an unsure space's "something else" answer.
  function tappedSpace(target) {
    const other = target.closest("button.fix-other");
    if (!other) return target.closest("button.space");
    return other.closest(".window-card").querySelector(`button.space[data-cell="${other.dataset.space}"]`);
  }
  panel.addEventListener("click", (event) => {
    const space = tappedSpace(event.target);
    if (!space) return;
    fixForm.action = space.dataset.action;
    document.getElementById("fix-cell").value = space.dataset.cell;
    fixError.hidden = true;
    document.getElementById("fix-title").textContent = `${space.dataset.player}: fix ${space.dataset.cell}`;
    const die = space.dataset.die;
    for (const input of fixForm.querySelectorAll("input[type=radio]")) {
      input.checked = die !== "" && (input.value === die[0] || input.value === die[1]);
    }
    dialog.showModal();
  });
  document.getElementById("fix-cancel").addEventListener("click", () => dialog.close());

  // Corrections, answers and undo are posted in the background: the page stays put and the feed redraws it.
  async function postInBackground(form, submitter) {
    const body = new FormData(form);
    if (submitter && submitter.name) body.append(submitter.name, submitter.value);
    const response = await fetch(form.action, {
      method: "POST", body, redirect: "manual", headers: { "X-CSRF-Token": csrf },
    });
    if (response.type === "opaqueredirect" || response.ok) {
      refreshPanel();
      return null;
    }
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const message = page.querySelector(".message");
    return message ? message.textContent : `The server answered ${response.status}.`;
  }

  fixForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    fixError.hidden = true;
    const problem = await postInBackground(fixForm, event.submitter);
    if (problem === null) {
      dialog.close();
    } else {
      fixError.textContent = problem;
      fixError.hidden = false;
    }
  });
  panel.addEventListener("submit", async (event) => {
    const hint = event.target.closest("form.hint");
    if (hint) {
      event.preventDefault();
      showHint(hint);
      return;
    }
    const form = event.target.closest("form.undo, form.answer");
    if (!form) return;
    event.preventDefault();
    const problem = await postInBackground(form, event.submitter);
    if (problem !== null) alert(problem);
  });

  // Hints: light up every space where the chosen die may go, and name them in words too.
  async function showHint(form) {
    const card = form.closest(".window-card");
    const result = form.querySelector(".hint-result");
    shownHint = { card: card.id, fields: [...new FormData(form)] };
    const response = await fetch(`${form.action}?${new URLSearchParams(new FormData(form))}`);
    for (const space of card.querySelectorAll(".space.may-go")) space.classList.remove("may-go");
    if (!response.ok) {
      result.textContent = `No hint (error ${response.status}).`;
      return;
    }
    const answer = await response.json();
    for (const cell of answer.cells) {
      const space = card.querySelector(`.space[data-cell="${cell}"]`);
      if (space) space.classList.add("may-go");
    }
    result.textContent = answer.cells.length
      ? `${answer.die.toUpperCase()} can go on ${answer.cells.join(", ")}`
      : `${answer.die.toUpperCase()} can go nowhere`;
  }

  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }

  // Captures with a photo go up with a progress bar; a 12 MP photo takes a while on a phone's Wi-Fi.
  const captureForm = document.getElementById("capture-form");
  function sendCapture(data) {
    const progress = document.getElementById("upload-progress");
    const status = document.getElementById("upload-status");
    progress.hidden = false;
    status.hidden = false;
    const request = new XMLHttpRequest();
    request.open("POST", captureForm.action);
    request.setRequestHeader("X-CSRF-Token", csrf);
    request.upload.addEventListener("progress", (e) => {
      if (!e.lengthComputable) return;
      progress.value = (100 * e.loaded) / e.total;
      status.textContent = `Sending the photo: ${Math.round(progress.value)}%`;
    });
    request.upload.addEventListener("load", () => {
      progress.removeAttribute("value");  // indeterminate while the server reads the photo
      status.textContent = "Sent. Reading the photo…";
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
      status.hidden = true;
      alert("The photo could not be sent. Check the connection and try again.");
    });
    request.send(data);
  }

  if (captureForm) {
    captureForm.addEventListener("submit", (event) => {
      const demo = event.submitter && event.submitter.name === "demo";
      if (demo || !captureForm.querySelector("input[type=file]").files[0]) return;
      event.preventDefault();
      sendCapture(new FormData(captureForm));
    });
  }

  // A live camera view, where the browser allows one (a secure context: localhost, or HTTPS).
  const cameraOpen = document.getElementById("camera-open");
  if (captureForm && window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    const view = document.getElementById("camera-view");
    const problem = document.getElementById("camera-error");
    cameraOpen.hidden = false;
    cameraOpen.addEventListener("click", async () => {
      try {
        view.srcObject = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: "environment", width: { ideal: 4000 }, height: { ideal: 3000 } },
        });
        document.getElementById("camera-box").hidden = false;
        cameraOpen.hidden = true;
      } catch (error) {
        problem.textContent = `The camera could not be opened (${error.name}). Use the photo button instead.`;
        problem.hidden = false;
      }
    });
    document.getElementById("camera-snap").addEventListener("click", () => {
      const canvas = document.createElement("canvas");
      canvas.width = view.videoWidth;
      canvas.height = view.videoHeight;
      canvas.getContext("2d").drawImage(view, 0, 0);
      canvas.toBlob((blob) => {
        const data = new FormData(captureForm);
        data.set("photo", blob, "camera.jpg");
        sendCapture(data);
      }, "image/jpeg", 0.92);
    });
  }
})();
