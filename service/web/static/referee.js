// The referee console's replay: the slider and the previous/next buttons fetch the table after
// the event chosen (its fragment, with the void form preset to that event) instead of reloading
// the page. Without a script the same controls submit the form and the page is drawn anew.
"use strict";
const stepper = document.querySelector("form.stepper");
if (stepper) {
  const slider = stepper.querySelector("input[type=range]");
  const shown = stepper.querySelector("output");
  const replay = document.getElementById("replay");
  let asked = 0;
  const show = async () => {
    const at = slider.value;
    shown.value = at;
    slider.setAttribute("aria-valuetext", at);
    const mine = ++asked;
    const answer = await fetch(stepper.dataset.replay + at, { credentials: "same-origin" });
    // a slider dragged fast asks many times: only the last answer is shown
    if (answer.ok && mine === asked) replay.innerHTML = await answer.text();
  };
  slider.addEventListener("input", show);
  // a slider moved while this script was still on its way has fired no input event yet
  if (replay.querySelector(".replay")?.dataset.at !== slider.value) show();
  for (const button of stepper.querySelectorAll("button[data-step]")) {
    button.addEventListener("click", (click) => {
      click.preventDefault();
      slider.value = String(Number(slider.value) + Number(button.dataset.step));
      show();
    });
  }
}
