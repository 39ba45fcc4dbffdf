// The play page (service/web/play.py). Where the browser has WebSocket, the seat's play socket
// (/games/{id}/me/socket, opened with the session cookie) sends the moves, as the API's move bodies,
// and announces every new view; after an answer or a new view the live part is fetched again. A
// refused move is posted as the form (its answer shows the refusal in the page's language: a refused
// move changed nothing, so it is refused again). Without a socket, or once it is lost, moves are
// posted as forms, the answer (the live part as it is now) replaces the old one, and the seat's
// stream (/games/{id}/me/stream) announces the views. Plain browser APIs only.
"use strict";
const live = document.getElementById("play");
if (live) {
  let busy = false; // a refresh is on its way
  let again = false; // a view was announced meanwhile: fetch the live part once more after
  let moving = false; // a move is on its way: its answer brings the live part
  let socket = null; // the play socket, while it is open
  let answered = null; // what the socket's next answer goes to
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
  // the form as the API's move message (service/web/play_form.py reads the same fields)
  const messageOf = (fields) => {
    const [kind, first, second] = String(fields.get("move") || "").split(":");
    const body = { version: Number(fields.get("version")) };
    if (fields.get("seat")) body.seat = Number(fields.get("seat"));
    const call = fields.get("call") || null;
    if (kind === "play") {
      const prefix = `more:${first}:`;
      const more = [...fields.keys()].filter((name) => name.startsWith(prefix));
      Object.assign(body, { kind, card: first, suit: second || null, call });
      if (more.length) body.more = more.map((name) => name.slice(prefix.length));
    } else if (kind === "face_down") {
      const suit = fields.get("declared_suit") || null;
      Object.assign(body, { kind: "play", card: fields.get("face_down_card"), declared: fields.get("declared"), suit, call });
    } else if (kind === "name_suit") Object.assign(body, { kind, suit: first });
    else if (kind === "choose_player") Object.assign(body, { kind, player: Number(first) });
    else if (kind === "challenge") return { type: "challenge", body };
    else if (["draw", "keep", "challenge_declaration"].includes(kind)) body.kind = kind;
    else return null;
    return { type: "move", body };
  };
  const overSocket = (message, key) => new Promise((resolve) => {
    answered = resolve;
    socket.send(JSON.stringify({ ...message, key }));
  });
  const announced = (version) => { if (version !== shown()) refresh(); };
  const follow = () => {
    if (!live.dataset.stream || over()) return;
    const stream = new EventSource(live.dataset.stream);
    stream.addEventListener("view", (message) => announced(Number(message.lastEventId)));
    // the stream ends with the match; left open, the browser would ask for it again and again
    stream.addEventListener("error", () => { if (over()) stream.close(); });
  };
  const connect = () => {
    const url = new URL(live.dataset.socket, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const opened = new WebSocket(url);
    opened.addEventListener("open", () => { socket = opened; });
    opened.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "view") announced(message.version);
      else if (answered) { const to = answered; answered = null; to(message); }
    });
    // lost (or refused): the stream announces the views from now on, moves are posted
    opened.addEventListener("close", () => {
      socket = null;
      if (answered) { const to = answered; answered = null; to(null); }
      follow();
    });
  };
  live.addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const fields = new FormData(form, event.submitter);
    const body = new URLSearchParams(fields);
    // a fresh key per move: the same move sent twice (a double click, a retry) is made once
    const key = window.crypto && crypto.randomUUID ? crypto.randomUUID() : null;
    if (key) body.set("key", key);
    body.set("fragment", "1");
    for (const button of form.querySelectorAll("button")) button.disabled = true;
    moving = true;
    try {
      const message = socket ? messageOf(fields) : null;
      const answer = message ? await overSocket(message, key) : null;
      if (answer && answer.type === "answer") {
        moving = false;
        await refresh();
        return;
      }
      const posted = await fetch(form.action, { method: "POST", body, credentials: "same-origin" });
      if ((posted.headers.get("content-type") || "").startsWith("text/html")) {
        swap(await posted.text());
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
  if (!over()) {
    if (live.dataset.socket && "WebSocket" in window) connect();
    else follow();
  }
}
