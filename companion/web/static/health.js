/* The Health page: the checks, the guided ring test, the LED test, the buttons seen, the
   diagnostics bundle. Progress comes from /api/health/live (polled while the page is open,
   and at once on every ring change the live stream reports). */
"use strict";
(() => {
  const { el, api, live, say, coalesce, data } = Panel;
  const ROLE_NAMES = { spokes: "spokes", entrances: "entrances", bases: "bases",
    scores: "score pixels" };
  const CHASE_MS = 500;
  const ROLE_MS = 2500;
  const count = data.leds.count;
  const roleCount = Object.fromEntries(data.leds.roles);
  let chase = null;
  let pixel = -1;

  function statusItem(status, text, extra) {
    return el("li", extra || {}, el("span", { class: `status status-${status}`, text: status }),
      " ", text);
  }

  function drawChecks(checks) {
    document.getElementById("checks").replaceChildren(...checks.map((check) =>
      statusItem(check.status, `${check.name}: ${check.message}`, { "data-check": check.name })));
    const failed = checks.filter((check) => check.status === "fail").length;
    document.getElementById("checked").textContent = failed ?
      `${failed} check${failed === 1 ? "" : "s"} failed` : "nothing failed";
  }

  function drawRings(rings) {
    const list = document.getElementById("ring-results");
    const summary = document.getElementById("ring-test-summary");
    if (!rings) {
      list.replaceChildren();
      summary.textContent = "Not started.";
      return;
    }
    list.replaceChildren(...rings.map((ring) =>
      statusItem(ring.verdict, ring.text, { "data-ring": ring.ring })));
    const passed = rings.filter((ring) => ring.verdict === "passed").length;
    const failed = rings.filter((ring) => ring.verdict === "failed").length;
    summary.textContent = `${passed} of ${rings.length} rings passed` +
      (failed ? `, ${failed} failed` : "") + ".";
  }

  function drawButtons(buttons) {
    const list = document.getElementById("buttons");
    if (!buttons.length) {
      list.replaceChildren(el("li", { class: "muted", text: "No buttons in the pin map." }));
      return;
    }
    list.replaceChildren(...buttons.map((button) => {
      const seen = button.presses > 0;
      const when = seen ? `, last at ${new Date(button.last * 1000).toLocaleTimeString()}` : "";
      const text = seen ? `“${button.button}”: seen ${button.presses} time` +
        `${button.presses === 1 ? "" : "s"}${when}` : `“${button.button}”: not pressed yet`;
      return statusItem(seen ? "passed" : "waiting", text, { "data-button": button.button });
    }));
  }

  /* What a finished run said ("Done: …"): a later refresh of an idle strip must not wipe it. */
  let finished = "";

  function stepText(step) {
    if (!step) return finished || "The strip shows the game.";
    if (step.show === "pixel") {
      return `Pixel ${step.pixel + 1} of ${step.of} is lit (index ${step.pixel} in the LED map).`;
    }
    const lit = roleCount[step.show];
    return `Lit: the ${ROLE_NAMES[step.show]} (${lit} pixel${lit === 1 ? "" : "s"}), white.`;
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
    document.getElementById("chase-start").textContent = "Start the chase";
    document.getElementById("roles-in-turn").textContent = "Light each part in turn";
  }

  async function showPixel(next) {
    pixel = ((next % count) + count) % count;
    await leds({ show: "pixel", pixel });
  }

  function buildRoles() {
    const box = document.getElementById("led-roles");
    for (const [role, lit] of data.leds.roles) {
      box.append(el("button", { type: "button", "data-role": role, disabled: lit === 0,
        title: lit === 0 ? `the LED map has no ${ROLE_NAMES[role]}` : null,
        text: `Light the ${ROLE_NAMES[role]} (${lit})`,
        onclick: () => { stopChase(); leds({ show: role }).catch(() => {}); } }));
    }
    if (!count) {
      for (const button of document.querySelectorAll("#led-test button")) button.disabled = true;
      document.getElementById("led-step").textContent = "No LED strip is attached.";
    }
  }

  /* Run a control's action; a refusal is already said next to the control. */
  function action(task) {
    return () => task().catch(() => {});
  }

  document.getElementById("recheck").addEventListener("click", action(async () => {
    document.getElementById("checked").textContent = "checking…";
    const answer = await api("GET", "/api/health");
    drawChecks(answer.checks);
    draw(answer);
  }));
  document.getElementById("start-ring-test").addEventListener("click", action(async () => {
    draw(await api("POST", "/api/health/ring-test", {}));
    document.getElementById("start-ring-test").textContent = "Start the ring test again";
  }));
  document.getElementById("roles-in-turn").addEventListener("click", () => {
    if (chase) { stopChase(); return; }
    const roles = data.leds.roles.filter(([, lit]) => lit > 0).map(([role]) => role);
    document.getElementById("roles-in-turn").textContent = "Stop";
    let next = 0;
    const step = () => {
      if (next >= roles.length) {
        stopChase();
        leds({ show: "off" }).then(() => {
          finished = `Done: ${roles.map((role) => ROLE_NAMES[role]).join(", ")} were lit in turn.`;
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
    document.getElementById("chase-start").textContent = "Pause the chase";
    let next = 0;
    const step = () => {
      if (next >= count) {
        stopChase();
        finished = `Chase done: all ${count} pixels were lit one by one, in strip order.`;
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
    said.textContent = "making it…";
    try {
      await Panel.download("/api/health/bundle", "application/zip", "mandala-diagnostics.zip", said);
    } catch (error) {
      said.textContent = "";
      say(`The bundle could not be made: ${error.message}`);
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
