/* The card game's score sheet (cards.md section 9): the server scores it as `mandala score`. */
"use strict";
(() => {
  const { api, t } = Panel;
  const form = document.getElementById("sheet");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const sheet = {};
    for (const box of form.querySelectorAll(".sheet-seat")) {
      const name = box.querySelector("[name=name]").value.trim();
      const river = [];
      for (const select of box.querySelectorAll(".sheet-river select")) if (select.value) river.push(select.value);
      const cup = {};
      for (const input of box.querySelectorAll(".sheet-cup input")) {
        cup[input.name.slice("cup-".length)] = input.value === "" ? 0 : Number(input.value);
      }
      sheet[name] = { river, cup };
    }
    const result = document.getElementById("sheet-result");
    result.textContent = "";
    try {
      const answer = await api("POST", "/api/cards/score", { game: "cards", sheet });
      const scores = Object.entries(answer.scores).map(([name, points]) => name + " " + points).join(" · ");
      result.textContent = scores + " — " + (answer.winner ? t("{name} wins", { name: answer.winner }) : t("a shared win"));
    } catch (error) { /* shown */ }
  });
})();
