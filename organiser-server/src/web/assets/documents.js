// Documents (documents.js; EXTENSIONS.md §6, documents: "drag-and-drop PDF
// upload"): files dropped on the page's drop zone, or chosen in its file
// field, are sent one at a time to the upload form's own address, each
// with its progress and what became of it said in a live region; then the
// grid and the folders' counts are read again from the page. Without this
// script the form sends its files itself.
{
  const zone = document.getElementById("doc-drop");
  const form = document.getElementById("doc-upload-form");
  const list = document.getElementById("doc-progress");
  const status = document.getElementById("doc-upload-status");

  // Puts the parts of the page the upload changes in place, from the page
  // read again; the focus stays where it was.
  const refresh = async () => {
    const answer = await fetch(window.location.href, { credentials: "same-origin" });
    if (!answer.ok) return;
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const focused = document.activeElement?.id;
    for (const id of ["doc-list", "doc-tree"]) {
      const next = page.getElementById(id);
      const here = document.getElementById(id);
      if (next && here) here.replaceWith(next);
    }
    if (focused) document.getElementById(focused)?.focus();
  };

  // What the server said of a refused file (the page it answered with).
  const refusal = (xhr) => {
    if (xhr.status === 403) return "The page is out of date: reload it and try again.";
    if (xhr.status === 413) return "The file is too large.";
    const page = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
    const said = [...page.querySelectorAll("#doc-upload-errors li")].map((e) => e.textContent.trim());
    return said.length ? said.join(" ") : "The file could not be added.";
  };

  // Sends one file with the form's fields; resolves with whether it was
  // added.
  const send = (file) =>
    new Promise((resolve) => {
      const row = document.createElement("li");
      const name = document.createElement("span");
      name.className = "doc-file";
      name.textContent = file.name;
      const bar = document.createElement("progress");
      bar.max = Math.max(file.size, 1);
      bar.value = 0;
      bar.setAttribute("aria-label", `Uploading ${file.name}`);
      const state = document.createElement("span");
      state.className = "doc-state";
      state.textContent = "Waiting";
      row.append(name, bar, state);
      list.append(row);

      const data = new FormData();
      for (const field of ["csrf_token", "folder", "back"]) {
        data.append(field, form.elements[field]?.value ?? "");
      }
      data.append("files", file, file.name);
      const xhr = new XMLHttpRequest();
      xhr.open("POST", form.action);
      xhr.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) {
          bar.max = event.total;
          bar.value = event.loaded;
        }
      });
      const done = (added, text) => {
        bar.value = bar.max;
        state.textContent = text;
        row.classList.add(added ? "added" : "refused");
        resolve(added);
      };
      xhr.addEventListener("load", () => {
        // Added: the answer is the documents page the form's 303 leads
        // to (not the sign-in page of a session that has ended).
        const at = new URL(xhr.responseURL || form.action, window.location.href).pathname;
        if (xhr.status === 200 && at.startsWith("/documents")) done(true, "Added");
        else if (xhr.status === 200) done(false, "You are signed out: reload the page and sign in.");
        else done(false, refusal(xhr));
      });
      xhr.addEventListener("error", () => done(false, "The connection failed."));
      state.textContent = "Uploading";
      xhr.send(data);
    });

  let queue = Promise.resolve();
  // Sends `files` after any still being sent.
  const upload = (files) => {
    const all = [...files];
    if (!all.length) return;
    queue = queue.then(async () => {
      let added = 0;
      for (const [i, file] of all.entries()) {
        status.textContent = `Uploading ${i + 1} of ${all.length}: ${file.name}`;
        if (await send(file)) added += 1;
      }
      const refused = all.length - added;
      status.textContent =
        `${added} of ${all.length} ${all.length === 1 ? "file" : "files"} added.` +
        (refused ? ` ${refused} refused: see below.` : "");
      if (added) await refresh().catch(() => {});
    });
  };

  if (zone && form && list && status) {
    const over = (event) => {
      if (![...(event.dataTransfer?.types ?? [])].includes("Files")) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
      zone.classList.add("doc-drop-over");
    };
    zone.addEventListener("dragenter", over);
    zone.addEventListener("dragover", over);
    zone.addEventListener("dragleave", (event) => {
      if (!zone.contains(event.relatedTarget)) zone.classList.remove("doc-drop-over");
    });
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("doc-drop-over");
      upload(event.dataTransfer?.files ?? []);
    });
    // A file dropped beside the zone is not opened in place of the page.
    for (const type of ["dragover", "drop"]) {
      window.addEventListener(type, (event) => {
        if (!zone.contains(event.target) && [...(event.dataTransfer?.types ?? [])].includes("Files")) {
          event.preventDefault();
        }
      });
    }
    // The file field's choice, sent the same way.
    form.addEventListener("submit", (event) => {
      const field = form.elements.files;
      if (!field?.files?.length) return;
      event.preventDefault();
      upload(field.files);
      field.value = "";
    });
  }
}
