// Keeps a page's live part current without a reload: each [data-live] element's fragment is
// fetched again when its game's stream announces an event (data-stream, listening for the
// event names in data-events) or every data-every milliseconds. Plain browser APIs only.
"use strict";
for (const part of document.querySelectorAll("[data-live]")) {
  let busy = false;
  let again = false;
  const reload = async () => {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const answer = await fetch(part.dataset.live, { credentials: "same-origin" });
      if (answer.ok) part.innerHTML = await answer.text();
    } finally {
      busy = false;
      if (again) { again = false; reload(); }
    }
  };
  if (part.dataset.stream) {
    const stream = new EventSource(part.dataset.stream);
    for (const name of (part.dataset.events || "").split(" ")) stream.addEventListener(name, reload);
    // the stream ends with the match: the browser would open it again from the start
    stream.addEventListener("MatchEnded", () => stream.close());
  } else {
    setInterval(reload, Number(part.dataset.every || 3000));
  }
}
