// The play page (service/web/play.py): moves are sent with fetch and the answer, the live part
// as it is now, replaces the old one; the seat's stream (/games/{id}/me/stream, which reads the
// session cookie) announces every new view, and the live part is fetched again. Plain browser
// APIs only.
"use strict";
const live = document.getElementById("play");
if (live) {
  let busy = false; // a refresh is on its way
  let again = false; // a view was announced meanwhile: fetch the live part once more after
  let moving = false; // a move is on its way: its answer brings the live part
  const shown = () => Number(live.querySelector("[data-version]")?.dataset.version ?? -1);
  const over = () => live.querySelector("[data-over]") !== null;
  const swap = (html) => {
    // a keyboard player keeps their place: focus goes to the first move, else to the hand
    const hadFocus = live.contains(document.activeElement);
    live.innerHTML = html;
    if (hadFocus) {
      const next = live.querySelector(".moves button, .moves summary") || live.querySelector(".status");
      if (next) {
        if (!next.hasAttribute("tabindex") && next.matches(".status")) next.setAttribute("tabindex", "-1");
        next.focus();
      }
    }
  };
  const refresh = async () => {
    if (busy || moving) { again = true; return; }
    busy = true;
    try {
      const answer = await fetch(live.dataset.live, { credentials: "same-origin" });
      const html = answer.ok ? await answer.text() : null;
      // read before a move was sent: shown now, it would offer that move's buttons again, enabled,
      // on the old version; the move's answer is newer
      if (moving) again = true;
      else if (html !== null) swap(html);
    } finally {
      busy = false;
      if (again && !moving) { again = false; refresh(); }
    }
  };
  live.addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const body = new URLSearchParams(new FormData(form, event.submitter));
    // a fresh key per move: the same move sent twice (a double click, a retry) is made once
    if (window.crypto && crypto.randomUUID) body.set("key", crypto.randomUUID());
    body.set("fragment", "1");
    for (const button of form.querySelectorAll("button")) button.disabled = true;
    moving = true;
    try {
      const answer = await fetch(form.action, { method: "POST", body, credentials: "same-origin" });
      if ((answer.headers.get("content-type") || "").startsWith("text/html")) {
        swap(await answer.text());
        return;
      }
      moving = false;
      await refresh();
    } catch (failure) {
      moving = false;
      await refresh();
    } finally {
      moving = false;
      // a view announced while the move was on its way is fetched now
      if (again) { again = false; refresh(); }
    }
    const notice = document.createElement("p");
    notice.className = "notice";
    notice.setAttribute("role", "status");
    notice.textContent = live.dataset.failed;
    live.querySelector(".play")?.prepend(notice);
  });
  if (live.dataset.stream && !over()) {
    const stream = new EventSource(live.dataset.stream);
    stream.addEventListener("view", (message) => {
      if (Number(message.lastEventId) !== shown()) refresh();
    });
    // the stream ends with the match; left open, the browser would ask for it again and again
    stream.addEventListener("error", () => { if (over()) stream.close(); });
  }
}
