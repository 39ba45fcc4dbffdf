// A signed-in player's notifications while any page of the club is open: their own stream
// (body[data-notices]) brings each notice they chose for the browser, shown as a Notification in
// the page's language (the patterns in #notice-words). Browsers ask for the permission only
// after a click: the header's button (data-notify-ask) does, and hides once answered.
"use strict";
(() => {
  const source = document.body.dataset.notices;
  const patterns = document.getElementById("notice-words");
  if (!source || !patterns || !("Notification" in window)) return;
  const words = JSON.parse(patterns.textContent);
  const ask = document.querySelector("[data-notify-ask]");
  if (ask && Notification.permission === "default") {
    ask.hidden = false;
    ask.addEventListener("click", async () => {
      await Notification.requestPermission();
      ask.hidden = Notification.permission === "default";
    });
  }
  const lang = document.documentElement.lang || "en";
  const time = (iso) => new Date(iso).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  const text = (notice) => {
    const data = notice.data;
    const holes = {
      tournament: data.tournament || "", round: data.round_no ?? "", table: data.table ?? "",
      time: data.starts_at ? time(data.starts_at) : "",
    };
    // a Mao match's notice has its own sentence
    const kind = data.mao_game_id ? `mao_${notice.kind}` : notice.kind;
    return (words[kind] || words[notice.kind] || "").replace(/\{(\w+)\}/g, (hole, name) => String(holes[name] ?? hole));
  };
  const stream = new EventSource(source);
  stream.addEventListener("notice", (message) => {
    if (Notification.permission !== "granted") return;
    const notice = JSON.parse(message.data);
    // the table's own page: a Mao match's, or a card game's (its play page or its score sheet)
    const data = notice.data;
    const table = data.mao_game_id ? `/web/mao-games/${data.mao_game_id}`
      : data.game_id ? `/web/games/${data.game_id}` : "";
    // the table's own play page, in view, says whose move it is already
    const atTable = table && location.pathname.startsWith(table);
    if (atTable && document.visibilityState === "visible") return;
    // every open page gets the notice: the tag makes the browser show it once
    const shown = new Notification(words.title, { body: text(notice), tag: notice.id, lang });
    // the page the notice is about, as its mail links to it (notice_words.page_of on the server)
    if (notice.page) {
      shown.addEventListener("click", () => { window.focus(); location.href = notice.page; });
    }
  });
})();
