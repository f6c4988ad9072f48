// Organiser's script (EXTENSIONS.md §6): what must feel immediate. Every
// action is a plain form that works without it; this sends such forms in
// the background and puts the page the server answers in place, so the
// page does not flash and the focus stays where it was.

const swap = async (form, submitter) => {
  const body = new URLSearchParams(new FormData(form, submitter));
  const answer = await fetch(form.action, {
    method: "POST",
    body,
    headers: { "X-Organiser-Fragment": "1" },
    credentials: "same-origin",
  });
  if (!answer.ok || !answer.redirected) {
    form.submit();
    return;
  }
  const html = await answer.text();
  const page = new DOMParser().parseFromString(html, "text/html");
  const next = page.querySelector("main");
  const main = document.querySelector("main");
  if (!next || !main) {
    window.location.assign(answer.url);
    return;
  }
  const focused = document.activeElement?.id;
  main.replaceWith(next);
  if (focused) document.getElementById(focused)?.focus();
};

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches("[data-immediate], .task form, .quick-add")) {
    return;
  }
  event.preventDefault();
  swap(form, event.submitter).catch(() => form.submit());
});

// Search as you type: the search page's form asks for its own page as the
// words change, and its results are put in place (the address follows, so
// back and reload keep them).
const live = document.querySelector("form[data-live]");
if (live) {
  const input = live.querySelector("input[type=search]");
  let timer = 0;
  let asked = 0;
  input?.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const n = ++asked;
      const url = `${live.action}?${new URLSearchParams(new FormData(live))}`;
      const answer = await fetch(url, { credentials: "same-origin" });
      if (!answer.ok || n !== asked) return;
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      const next = page.getElementById("results");
      const results = document.getElementById("results");
      if (next && results) {
        results.replaceChildren(...next.childNodes);
        history.replaceState(null, "", url);
      }
    }, 120);
  });
}
