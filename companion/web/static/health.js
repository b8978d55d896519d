/* The Health page: the checks, the guided ring test, the LED test, the buttons seen, the
   diagnostics bundle. Progress comes from /api/health/live (polled while the page is open,
   and at once on every ring change the live stream reports). */
"use strict";
(() => {
  const { el, api, live, say, coalesce, data, t, tn, locale } = Panel;
  /* Each part of the strip, in the words of each sentence that names it. */
  const ROLE_NAMES = { spokes: () => t("spokes"), entrances: () => t("entrances"),
    bases: () => t("bases"), scores: () => t("score pixels") };
  const ROLE_LIGHT = {
    spokes: (count) => t("Light the spokes ({count})", { count }),
    entrances: (count) => t("Light the entrances ({count})", { count }),
    bases: (count) => t("Light the bases ({count})", { count }),
    scores: (count) => t("Light the score pixels ({count})", { count }),
  };
  const ROLE_NONE = {
    spokes: () => t("the LED map has no spokes"),
    entrances: () => t("the LED map has no entrances"),
    bases: () => t("the LED map has no bases"),
    scores: () => t("the LED map has no score pixels"),
  };
  const ROLE_LIT = {
    spokes: (count) => tn("Lit: the spokes ({count} pixel), white.",
      "Lit: the spokes ({count} pixels), white.", count),
    entrances: (count) => tn("Lit: the entrances ({count} pixel), white.",
      "Lit: the entrances ({count} pixels), white.", count),
    bases: (count) => tn("Lit: the bases ({count} pixel), white.",
      "Lit: the bases ({count} pixels), white.", count),
    scores: (count) => tn("Lit: the score pixels ({count} pixel), white.",
      "Lit: the score pixels ({count} pixels), white.", count),
  };
  /* A check's name as the Health page shows it (``mandala doctor`` prints the name itself). */
  const CHECK_NAMES = {
    leds: () => t("leds"), groups: () => t("groups"), serial: () => t("serial"),
    pins: () => t("pins"), rest: () => t("rest"), data: () => t("data"),
    database: () => t("database"), clock: () => t("clock"), hardware: () => t("hardware"),
    speaker: () => t("speaker"),
  };
  /* The word of each status: a check's, a ring's in the ring test, a button's. */
  const STATUS_WORDS = {
    ok: () => t("ok"), warn: () => t("warn"), fail: () => t("fail"),
    waiting: () => t("waiting"), turning: () => t("turning"), passed: () => t("passed"),
    failed: () => t("failed"),
  };
  const word = (table, key) => (Object.hasOwn(table, key) ? table[key]() : String(key));
  const CHASE_MS = 500;
  const ROLE_MS = 2500;
  const count = data.leds.count;
  const roleCount = Object.fromEntries(data.leds.roles);
  let chase = null;
  let pixel = -1;

  function statusItem(status, text, extra) {
    return el("li", extra || {}, el("span", { class: `status status-${status}`, text: word(STATUS_WORDS, status) }),
      " ", text);
  }

  function drawChecks(checks) {
    document.getElementById("checks").replaceChildren(...checks.map((check) =>
      statusItem(check.status, t("{name}: {message}",
        { name: word(CHECK_NAMES, check.name), message: check.message }), { "data-check": check.name })));
    const failed = checks.filter((check) => check.status === "fail").length;
    document.getElementById("checked").textContent = failed ?
      tn("{count} check failed", "{count} checks failed", failed) : t("nothing failed");
  }

  function drawRings(rings) {
    const list = document.getElementById("ring-results");
    const summary = document.getElementById("ring-test-summary");
    if (!rings) {
      list.replaceChildren();
      summary.textContent = t("Not started.");
      return;
    }
    list.replaceChildren(...rings.map((ring) =>
      statusItem(ring.verdict, Panel.phraseText(ring.phrase), { "data-ring": ring.ring })));
    const passed = rings.filter((ring) => ring.verdict === "passed").length;
    const failed = rings.filter((ring) => ring.verdict === "failed").length;
    const values = { passed, failed, count: rings.length };
    summary.textContent = failed ? t("{passed} of {count} rings passed, {failed} failed.", values) :
      t("{passed} of {count} rings passed.", values);
  }

  /* A button's name in the page's language: the pin map names them "done" and "undo" (the
     emulator's "Press “done”" says them the same way); another name stays as it is. */
  function buttonName(name) {
    if (name === "done") return t("done");
    if (name === "undo") return t("undo");
    return name;
  }

  function drawButtons(buttons) {
    const list = document.getElementById("buttons");
    if (!buttons.length) {
      list.replaceChildren(el("li", { class: "muted", text: t("No buttons in the pin map.") }));
      return;
    }
    list.replaceChildren(...buttons.map((button) => {
      const seen = button.presses > 0;
      const name = buttonName(button.button);
      const when = seen ? new Date(button.last * 1000).toLocaleTimeString(locale()) : "";
      const text = seen ? tn("“{button}”: seen {count} time, last at {when}",
        "“{button}”: seen {count} times, last at {when}", button.presses, { button: name, when }) :
        t("“{button}”: not pressed yet", { button: name });
      return statusItem(seen ? "passed" : "waiting", text, { "data-button": button.button });
    }));
  }

  /* What a finished run said ("Done: …"): a later refresh of an idle strip must not wipe it. */
  let finished = "";

  function stepText(step) {
    if (!step) return finished || t("The strip shows the game.");
    if (step.show === "pixel") {
      return t("Pixel {number} of {count} is lit (index {index} in the LED map).",
        { number: step.pixel + 1, count: step.of, index: step.pixel });
    }
    const lit = roleCount[step.show];
    return Object.hasOwn(ROLE_LIT, step.show) ? ROLE_LIT[step.show](lit) : step.show;
  }

  function drawStep(step) {
    if (step) finished = "";
    document.getElementById("led-step").textContent = stepText(step);
    if (!step || step.show !== "pixel") pixel = step ? pixel : -1;
  }

  function draw(view) {
    drawRings(view.rings);
    drawButtons(view.buttons || []);
    if (!chase) drawStep(view.led_step);
  }

  const refresh = coalesce(async () => { draw(await api("GET", "/api/health/live")); });

  async function leds(body) {
    const answer = await api("POST", "/api/health/leds", body);
    drawStep(answer.led_step);
    Emulator.drawLeds(answer.leds);
    return answer;
  }

  function stopChase() {
    if (chase) window.clearInterval(chase);
    chase = null;
    finished = "";
    document.getElementById("chase-start").textContent = t("Start the chase");
    document.getElementById("roles-in-turn").textContent = t("Light each part in turn");
  }

  async function showPixel(next) {
    pixel = ((next % count) + count) % count;
    await leds({ show: "pixel", pixel });
  }

  function buildRoles() {
    const box = document.getElementById("led-roles");
    for (const [role, lit] of data.leds.roles) {
      box.append(el("button", { type: "button", "data-role": role, disabled: lit === 0,
        title: lit === 0 ? word(ROLE_NONE, role) : null,
        text: Object.hasOwn(ROLE_LIGHT, role) ? ROLE_LIGHT[role](lit) : `${role} (${lit})`,
        onclick: () => { stopChase(); leds({ show: role }).catch(() => {}); } }));
    }
    if (!count) {
      for (const button of document.querySelectorAll("#led-test button")) button.disabled = true;
      document.getElementById("led-step").textContent = t("No LED strip is attached.");
    }
  }

  /* Run a control's action; a refusal is already said next to the control. */
  function action(task) {
    return () => task().catch(() => {});
  }

  document.getElementById("recheck").addEventListener("click", action(async () => {
    document.getElementById("checked").textContent = t("checking…");
    const answer = await api("GET", "/api/health");
    drawChecks(answer.checks);
    draw(answer);
  }));
  document.getElementById("start-ring-test").addEventListener("click", action(async () => {
    draw(await api("POST", "/api/health/ring-test", {}));
    document.getElementById("start-ring-test").textContent = t("Start the ring test again");
  }));
  document.getElementById("roles-in-turn").addEventListener("click", () => {
    if (chase) { stopChase(); return; }
    const roles = data.leds.roles.filter(([, lit]) => lit > 0).map(([role]) => role);
    document.getElementById("roles-in-turn").textContent = t("Stop");
    let next = 0;
    const step = () => {
      if (next >= roles.length) {
        stopChase();
        leds({ show: "off" }).then(() => {
          finished = t("Done: {parts} were lit in turn.",
            { parts: roles.map((role) => word(ROLE_NAMES, role)).join(", ") });
          document.getElementById("led-step").textContent = finished;
        }).catch(() => {});
        return;
      }
      leds({ show: roles[next] }).catch(stopChase);
      next += 1;
    };
    step();
    chase = window.setInterval(step, ROLE_MS);
  });
  document.getElementById("chase-start").addEventListener("click", () => {
    if (chase) { stopChase(); return; }
    document.getElementById("chase-start").textContent = t("Pause the chase");
    let next = 0;
    const step = () => {
      if (next >= count) {
        stopChase();
        finished = t("Chase done: all {count} pixels were lit one by one, in strip order.",
          { count });
        document.getElementById("led-step").textContent = finished;
        return;
      }
      showPixel(next).catch(stopChase);
      next += 1;
    };
    step();
    chase = window.setInterval(step, CHASE_MS);
  });
  document.getElementById("chase-next").addEventListener("click", () => {
    stopChase();
    showPixel(pixel + 1).catch(() => {});
  });
  document.getElementById("chase-back").addEventListener("click", () => {
    stopChase();
    showPixel(pixel - 1).catch(() => {});
  });
  document.getElementById("led-off").addEventListener("click", action(async () => {
    stopChase();
    await leds({ show: "off" });
  }));
  document.getElementById("bundle").addEventListener("click", async () => {
    const said = document.getElementById("bundle-said");
    said.textContent = t("making it…");
    try {
      await Panel.download("/api/health/bundle", "application/zip", "mandala-diagnostics.zip", said);
    } catch (error) {
      said.textContent = "";
      say(t("The bundle could not be made: {error}", { error: error.message }));
    }
  });

  let board = data.board;  // as sensed: the page's, then the stream's
  const refetchBoard = coalesce(async () => {
    board = await api("GET", "/api/board");
    Emulator.render(board);
  });
  live((item) => {
    if (item.type === "state" && item.board) {
      board = item.board;
      Emulator.render(board);
      refresh();
    } else if (item.type === "board") {
      board = Panel.mergeBoard(board, item);  // null: a change was missed
      if (board === null) refetchBoard(); else Emulator.render(board);
      refresh();
    } else if (item.type === "leds" && item.leds) {
      board = board && Object.assign({}, board, { leds: item.leds });
      Emulator.drawLeds(item.leds);
    }
  });
  buildRoles();
  drawChecks(data.checks);
  draw(data);
  Emulator.render(board);
  window.setInterval(refresh, 1000);
})();
