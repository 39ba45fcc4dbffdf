// Keeps a page's live part current without a reload: each [data-live] element's fragment is
// fetched again when its game's stream announces an event (data-stream, listening for the
// event names in data-events) or every data-every milliseconds until the fragment says it is
// over (an element with data-over in it). Plain browser APIs only.
"use strict";
// the play page's part (data-socket) is play.js's: a stream opened here too would be a second one
for (const part of document.querySelectorAll("[data-live]:not([data-socket])")) {
  let busy = false;
  let again = false;
  let timer = null;
  const reload = async () => {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const answer = await fetch(part.dataset.live, { credentials: "same-origin" });
      if (answer.ok) part.innerHTML = await answer.text();
      if (timer !== null && part.querySelector("[data-over]")) clearInterval(timer);
    } finally {
      busy = false;
      if (again) { again = false; reload(); }
    }
  };
  if (part.dataset.stream) {
    const stream = new EventSource(part.dataset.stream);
    for (const name of (part.dataset.events || "").split(" ")) stream.addEventListener(name, reload);
    // the stream ends with the match; left open, the browser would ask for it again and again
    for (const end of ["MatchEnded", "Abandoned"]) stream.addEventListener(end, () => stream.close());
    // a seat's stream (event "view") ends after the finished match's view: no asking again then
    stream.addEventListener("error", () => { if (part.querySelector("[data-over]")) stream.close(); });
  } else if (!part.querySelector("[data-over]")) {
    timer = setInterval(reload, Number(part.dataset.every || 3000));
  }
}
