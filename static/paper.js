/* Live help for the Preferans paper form: final scores, the middle-column check, field hints.
 * Progressive enhancement only: the server computes and validates everything again, so the form
 * works without this file and nothing here blocks a submission. No libraries, no innerHTML.
 * The arithmetic is in pure functions, exported for node when loaded there.
 */
(function () {
  "use strict";

  var SEATS = 3;
  var DEFAULT_MESSAGES = {
    integer: "Enter a whole number.",
    negative: "Side columns are never negative.",
    bula: "The starting bula must be above zero.",
    duplicate: "{name} already sits in seat {seat}: a player takes one seat."
  };

  /* papers: [[left, middle, right], ...] in seating order, any value may be null (not known).
   * final_i = 10*middle_i - left_i - right_i + left_(i+1) + right_(i-1), seats wrapping round. */
  function finalScores(papers) {
    var n = papers.length;
    return papers.map(function (paper, i) {
      var next = papers[(i + 1) % n], prev = papers[(i + n - 1) % n];
      var needed = [paper[0], paper[1], paper[2], next[0], prev[2]];
      if (needed.some(function (v) { return v === null; })) return null;
      return 10 * paper[1] - paper[0] - paper[2] + next[0] + prev[2];
    });
  }

  /* "ok" when the middles sum to 0, "early" when they do not but the game ended early,
   * "bad" otherwise, null while a middle is missing. */
  function middleStatus(middles, endedEarly) {
    if (middles.some(function (v) { return v === null; })) return { state: null, sum: null };
    var sum = middles.reduce(function (a, b) { return a + b; }, 0);
    return { state: sum === 0 ? "ok" : endedEarly ? "early" : "bad", sum: sum };
  }

  /* A whole number typed in a field, or null; "invalid" for anything else typed. */
  function parseWhole(text) {
    var value = String(text).trim();
    if (value === "") return null;
    return /^[+-]?\d{1,9}$/.test(value) ? parseInt(value, 10) : "invalid";
  }

  /* The same rule as the server: names compare trimmed, spaces collapsed, case ignored. */
  function nameKey(text) {
    return String(text).trim().split(/\s+/).join(" ").toLowerCase();
  }

  function fill(template, values) {
    return Object.keys(values).reduce(function (text, key) {
      return text.split("{" + key + "}").join(String(values[key]));
    }, template);
  }

  function enhance(paper) {
    var form = paper.form;
    var messages = {};
    Object.keys(DEFAULT_MESSAGES).forEach(function (key) {
      messages[key] = paper.getAttribute("data-msg-" + key) || DEFAULT_MESSAGES[key];
    });
    var sumBox = form.querySelector("[data-middle-sum]");
    if (sumBox && !sumBox.hasAttribute("aria-live")) sumBox.setAttribute("aria-live", "polite");
    var touched = {}, owned = {};

    function field(name) { return form.elements.namedItem(name); }

    function number(name) {
      var input = field(name);
      if (!input) return null;
      if (input.validity && input.validity.badInput) return "invalid";
      // Any minus sign a keyboard types, as the server reads it (ratings/forms/games.py, MINUS_SIGNS).
      return parseWhole(String(input.value).replace(/[\u2212\u2013\u2012\ufe63\uff0d]/g, "-"));
    }

    /* Hints go on fields the member has edited (server messages stay on the others), and on a
     * seat whose player another edit made a repeat (always). */
    function mark(name, message, always) {
      var input = field(name);
      if (!input || !(touched[name] || owned[name] || (always && message))) return;
      owned[name] = true;
      var box = form.querySelector('[data-error-for="' + name + '"]');
      var serverErrors = input.id && document.getElementById(input.id + "_error");
      if (serverErrors) serverErrors.hidden = true; // it described the value before this edit
      if (message) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
      if (!box) return;
      box.textContent = message || "";
      if (!box.id) box.id = "js-error-" + name;
      var described = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      if (described.indexOf(box.id) < 0) {
        input.setAttribute("aria-describedby", described.concat(box.id).join(" "));
      }
    }

    function update() {
      var papers = [], seen = {};
      for (var seat = 0; seat < SEATS; seat++) {
        var paper = ["left", "middle", "right"].map(function (column) {
          var name = column + "_" + seat, value = number(name);
          var negative = column !== "middle" && typeof value === "number" && value < 0;
          mark(name, value === "invalid" ? messages.integer : negative ? messages.negative : "");
          return typeof value === "number" && !negative ? value : null;
        });
        papers.push(paper);
        var player = field("player_" + seat);
        var key = player ? nameKey(player.value) : "";
        if (key && key in seen) {
          var repeat = { name: player.value.trim(), seat: seen[key] + 1 };
          mark("player_" + seat, fill(messages.duplicate, repeat), true);
        } else {
          if (key) seen[key] = seat;
          mark("player_" + seat, "");
        }
      }
      var bula = number("bula");
      mark("bula", bula === "invalid" ? messages.integer : typeof bula === "number" && bula <= 0 ? messages.bula : "");

      finalScores(papers).forEach(function (score, i) {
        var out = form.querySelector('[data-final="' + i + '"]');
        // A real minus sign, as the server writes it (ratings/formatting.py).
        if (out) out.textContent = score === null ? "–" : String(score).replace("-", "\u2212");
      });
      if (!sumBox) return;
      var early = field("ended_early");
      var status = middleStatus(papers.map(function (p) { return p[1]; }), !!(early && early.checked));
      var text = { ok: "data-ok-text", bad: "data-bad-text", early: "data-early-text" }[status.state];
      // A real minus sign, as the server writes the sum (ratings/formatting.py).
      var sum = String(status.sum).replace("-", "\u2212");
      sumBox.textContent = text ? fill(sumBox.getAttribute(text) || "", { sum: sum }) : "";
      sumBox.classList.toggle("sum-ok", status.state === "ok" || status.state === "early");
      sumBox.classList.toggle("sum-bad", status.state === "bad");
      markMiddles(status.state);
    }

    /* A middle column that does not sum to zero is one error of the three Middle boxes: each is
     * marked invalid and described by the sum's line, which says it once. A box with an error
     * of its own (no number yet) keeps its mark: the sum is not known then. */
    function markMiddles(state) {
      if (state === null || !sumBox.id) return;
      for (var seat = 0; seat < SEATS; seat++) {
        var input = field("middle_" + seat);
        if (!input) continue;
        var described = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
        if (state === "bad") {
          input.setAttribute("aria-invalid", "true");
          if (described.indexOf(sumBox.id) < 0) described.push(sumBox.id);
        } else {
          input.removeAttribute("aria-invalid");
          described = described.filter(function (id) { return id !== sumBox.id; });
        }
        if (described.length) input.setAttribute("aria-describedby", described.join(" "));
        else input.removeAttribute("aria-describedby");
      }
    }

    function onEdit(event) {
      if (event.target && event.target.name) touched[event.target.name] = true;
      update();
    }
    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    update();
  }

  var api = { finalScores: finalScores, middleStatus: middleStatus, parseWhole: parseWhole, nameKey: nameKey, fill: fill };
  if (typeof module === "object" && module.exports) module.exports = api;
  if (typeof document === "undefined") return;
  function start() { Array.prototype.forEach.call(document.querySelectorAll("form fieldset.paper"), enhance); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
