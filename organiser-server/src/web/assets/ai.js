
// AI settings (ai.js): a backfill's progress, followed while it runs. The
// page draws it (done of total, with a link that loads it again); while
// its region names the address to follow (`data-poll`), the page is asked
// for again about every second (less often once nothing moved for ten
// seconds) and the region's words are put in place, so its live region
// says what changed.
// It stops once the server no longer names an address: the backfill is
// done, or the task is off.
{
  const FIRST = 1000;
  const LONGEST = 10000;
  let wait = FIRST;
  let said = "";
  let still = 0;
  const follow = async () => {
    const first = document.querySelector(".ai-progress[data-poll]");
    if (!first) return;
    if (document.hidden) {
      setTimeout(follow, wait);
      return;
    }
    let page = null;
    try {
      const answer = await fetch(first.dataset.poll, { credentials: "same-origin" });
      // Signed out (sent to sign in) or refused: stop; the link stays.
      if (!answer.ok || answer.redirected) return;
      page = new DOMParser().parseFromString(await answer.text(), "text/html");
    } catch {
      // Not reached this time: try again later.
    }
    if (page) {
      let now = "";
      for (const region of document.querySelectorAll(".ai-progress")) {
        const next = page.getElementById(region.id);
        if (!next) continue;
        now += next.textContent;
        if (next.textContent !== region.textContent) {
          region.replaceChildren(...next.childNodes);
        }
        if (next.dataset.poll) {
          region.dataset.poll = next.dataset.poll;
        } else {
          delete region.dataset.poll;
          document.getElementById(`${region.id}-refresh`)?.remove();
        }
      }
      still = now === said ? still + 1 : 0;
      wait = still < 10 ? FIRST : Math.min(wait * 2, LONGEST);
      said = now;
    } else {
      wait = Math.min(wait * 2, LONGEST);
    }
    setTimeout(follow, wait);
  };
  if (document.querySelector(".ai-progress[data-poll]")) setTimeout(follow, FIRST);
}
