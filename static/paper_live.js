/* The digital paper at the table: the phone's deal pad and the live paper.
 *
 * The pad is the deal form drawn as buttons (radios and checkboxes in labels), so the page still
 * posts plain forms without JavaScript. With it, a deal is sent by fetch (the deal address
 * answers JSON) and the paper is drawn again in place from the paper's own page, the pad reset
 * under a new key, focus where it was. Every value and word shown comes from the page
 * (#pad-words, the server's json_script): nothing of the rules or the words is written here.
 *
 * Offline (or with deals still kept): a deal is kept on the phone (static/offline-store.js), drawn
 * under the paper as "not sent yet" and counted: the next deal's number, its ``after`` and the
 * refe still to play follow the kept ones, after a reload or a reopened tab too. static/offline.js
 * sends them, once each, in order, when the network is back; the paper is then drawn again.
 * Every few seconds a watching phone draws the paper again. No innerHTML.
 */
(function () {
  "use strict";

  if (typeof document === "undefined") return;
  var REFRESH_MS = 5000;
  var wordsNode = document.getElementById("pad-words");
  var pad = wordsNode ? JSON.parse(wordsNode.textContent) : null;
  var busy = false;

  function fill(template, values) {
    return Object.keys(values).reduce(function (text, key) {
      return text.split("%(" + key + ")s").join(String(values[key]));
    }, template);
  }

  function dealForm() { return document.querySelector("form[data-deal-form]"); }
  function sheet() { return document.querySelector("[data-live-paper]"); }
  function status(text) {
    var box = document.querySelector("[data-pad-status]");
    if (box) box.textContent = text || "";
  }
  function checked(form, name) {
    var input = form.querySelector("input[name='" + name + "']:checked");
    return input ? input.value : null;
  }
  function serverCount() {
    var current = sheet();
    return current ? Number(current.getAttribute("data-deals")) : 0;
  }
  function dealPath(form) { return new URL(form.getAttribute("action"), location.href).pathname; }
  function valuesOf(fields) {
    var values = {};
    fields.forEach(function (pair) { values[pair[0]] = pair[1]; });
    return values;
  }

  // The deals kept on this phone for this paper, oldest first --------------------------------

  var kept = [], refused = 0;

  function loadKept() {
    var form = dealForm();
    if (!form || !window.indexedDB || !window.clubPapers) return Promise.resolve(kept = []);
    var path = dealPath(form);
    return window.clubPapers.all().then(function (all) {
      var mine = all.filter(function (p) { return p.url === path; });
      // A deal the club refused is the banner's to show (its link opens it): not counted here.
      refused = mine.filter(function (p) { return p.refused; }).length;
      kept = mine.filter(function (p) { return !p.refused; })
        .sort(function (a, b) { return a.keptAt - b.keptAt; });
      return kept;
    }, function () { return (kept = []); });
  }

  /* The refe each seat still plays, the server's counts with the kept deals on top. */
  function openRefe() {
    var counts = ((sheet() && sheet().getAttribute("data-open-refa-counts")) || "0,0,0").split(",").map(Number);
    kept.forEach(function (deal) {
      var v = valuesOf(deal.fields);
      if (v.kind === "refa") counts = counts.map(function (c) { return c + 1; });
      else if (v.on_refa && v.declarer) counts[v.declarer - 1] = Math.max(0, counts[v.declarer - 1] - 1);
    });
    return counts;
  }

  function describe(v) {
    if (v.kind === "refa") return pad.words.refa;
    var parts = [pad.names[v.declarer - 1] + ":", pad.contracts[v.contract] || v.contract];
    if (v.igra) parts.push(pad.words.igra);
    if (v.on_refa) parts.push("×2");
    if (v.kontra && v.kontra !== "0") parts.push(pad.kontra[v.kontra]);
    parts.push("·", v.failed ? pad.words.fell : pad.words.made);
    var value = pad.values[v.contract] && pad.values[v.contract][v.igra ? 1 : 0][v.on_refa ? 1 : 0][Number(v.kontra || 0)];
    if (value) parts.push("·", value);
    return parts.join(" ");
  }

  function drawKept() {
    var list = document.querySelector("[data-kept-deals]");
    if (!list || !pad) return;
    while (list.firstChild) list.removeChild(list.firstChild);
    var first = serverCount() + 1;
    kept.forEach(function (deal, index) {
      var item = document.createElement("li");
      item.className = "kept";
      item.textContent = fill(pad.words.deal, { number: first + index }) + " · " + describe(valuesOf(deal.fields)) + " — ";
      var mark = document.createElement("strong");
      mark.textContent = pad.words.notSent;
      item.appendChild(mark);
      list.appendChild(item);
    });
    list.hidden = kept.length === 0;
    if (kept.length) status(fill(pad.words.kept, { count: kept.length }));
  }

  /* The pad whole on the screen, the paper above it: scrolled up when it grew below. Only after
   * the member's own taps and on load: another phone's deal never moves the page. */
  function keepInView() {
    var box = document.querySelector("[data-live-pad] .deal-pad");
    if (!box) return;
    var edges = box.getBoundingClientRect();
    if (edges.top < 0 || edges.bottom > window.innerHeight) box.scrollIntoView({ block: "end" });
  }

  /* The pad follows the paper and the kept deals while nothing is tapped in it: the deal's
   * number, the deals it comes after, who deals, the refe still open. A pad being tapped keeps
   * them: the member may be entering the deal that just arrived from another phone, and is told
   * on adding it. */
  function follow(force) {
    var form = dealForm();
    if (!form || !pad || (form.getAttribute("data-tapped") && !force)) return;
    var count = serverCount() + kept.length;
    form.querySelector("input[name=after]").value = count;
    var number = count + 1;
    var dealer = (number - 1) % 3, first = number % 3;
    document.getElementById("deal-title").textContent = fill(pad.words.deal, { number: number });
    var line = form.querySelector("[data-dealer]");
    if (line) line.textContent = fill(pad.words.dealer, { dealer: pad.names[dealer], first: pad.names[first] });
    form.querySelectorAll("[data-seat-button]").forEach(function (button) {
      var seat = Number(button.getAttribute("data-seat-button")) - 1;
      button.classList.toggle("dealer", seat === dealer);
      button.classList.toggle("first-bid", seat === first);
    });
    update(form, null);
  }

  // The pad -------------------------------------------------------------------------------------

  function update(form, event) {
    var target = event && event.target;
    var declarer = checked(form, "declarer");
    if (target && target.name === "declarer" && declarer) {
      form.querySelector("input[name=on_refa]").checked = openRefe()[declarer - 1] > 0;
    }
    // One tap says it: tricks mean the follower came, "passed" or "invited" clears the tricks.
    var match = target && /^(tricks|play)_(\d)$/.exec(target.name);
    if (match) {
      var other = (match[1] === "tricks" ? "play_" : "tricks_") + match[2];
      form.querySelectorAll("input[name=" + other + "]").forEach(function (input) { input.checked = false; });
    }
    form.querySelectorAll("fieldset.follower").forEach(function (fieldset) {
      fieldset.hidden = !declarer || fieldset.getAttribute("data-seat") === declarer;
    });
    var igra = form.querySelector("input[name=igra]").checked ? 1 : 0;
    var refa = form.querySelector("input[name=on_refa]").checked ? 1 : 0;
    var kontra = Number(checked(form, "kontra") || 0);
    form.querySelectorAll("[data-value-of]").forEach(function (box) {
      box.textContent = pad.values[box.getAttribute("data-value-of")][igra][refa][kontra];
    });
  }

  function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 15) | 64;
    bytes[8] = (bytes[8] & 63) | 128;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function resetPad(form) {
    form.reset();
    form.querySelector("input[name=submission_key]").value = newKey();
    form.removeAttribute("data-tapped");
    follow(true);
  }

  function keep(form, fields) {
    var paper = { key: valuesOf(fields).submission_key, url: dealPath(form), fields: fields, keptAt: Date.now() };
    return window.clubPapers.put(paper).then(function () {
      resetPad(form);
      return loadKept();
    }).then(function () {
      drawKept();
      follow(true);
      keepInView();
      if (window.clubOffline) {
        window.clubOffline.refresh();
        if (navigator.onLine) window.clubOffline.sendAll();
      }
    });
  }

  function send(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var fields = window.clubPapers ? window.clubPapers.fields(data) : [];
    if (window.clubPapers && window.indexedDB && (kept.length || !navigator.onLine)) {
      // Behind a kept deal, or offline: kept too, so the deals reach the club in order.
      return keep(form, fields);
    }
    return fetch(form.action, {
      method: "POST", body: new URLSearchParams(data), credentials: "same-origin",
      headers: { Accept: "application/json" },
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") !== 0) {
        // Not the club's answer about the deal (a login page, a server error): the page shows it.
        throw new Error("answered " + response.status);
      }
      return response.json().then(function (answer) {
        if (answer.ok) {
          resetPad(form);
          status(fill(pad.words.added, { number: answer.deals }));
          return refresh(true).then(keepInView);
        }
        status(answer.errors.join(" "));
        if (answer.reused) form.querySelector("input[name=submission_key]").value = newKey();
        if (answer.stale) {
          // Another phone was first: the taps stay, for the deal after the paper's last.
          form.querySelector("input[name=after]").value = answer.deals;
          refresh(false);  // not waited for: the pad is free at once
        }
      });
    }, function () {
      // The network failed although the phone thought it online: kept.
      if (!window.clubPapers || !window.indexedDB) throw new Error("no network");
      status(pad.words.offline);
      return keep(form, fields);
    });
  }

  function setUpPad(form) {
    form.addEventListener("change", function (event) {
      form.setAttribute("data-tapped", "1");
      update(form, event);
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (busy) return;  // a double tap adds one deal
      busy = true;
      var submitter = event.submitter;
      send(form, submitter).catch(function () {
        // No answer the pad can read: the server's own page instead, the tapped button kept.
        if (submitter && submitter.name) {
          var said = document.createElement("input");
          said.type = "hidden"; said.name = submitter.name; said.value = submitter.value;
          form.appendChild(said);
        }
        form.submit();
      })
        .then(function () { busy = false; }, function () { busy = false; });
    });
    follow(true);
  }

  // Undo and repeal: posted by fetch; the paper page they answer with is drawn in place. Undo
  // with deals kept on the phone takes back the last kept one, which the club never saw.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-pad-post")) return;
    event.preventDefault();
    if (form.id === "paper-undo" && kept.length) {
      window.clubPapers.remove(kept[kept.length - 1].key).then(loadKept).then(function () {
        drawKept();
        follow(true);
        if (!kept.length) status("");
        if (window.clubOffline) window.clubOffline.refresh();
      });
      return;
    }
    fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (text) {
        var fresh = new DOMParser().parseFromString(text, "text/html");
        if (!fresh.querySelector("[data-live-paper]")) return form.submit();
        draw(fresh);
        follow(true);  // the member's own undo or repeal: the pad follows, taps or not
        keepInView();
        var told = fresh.querySelector(".messages");
        status(told ? told.textContent.trim() : "");
      })
      .catch(function () { status(pad ? pad.words.offline.split(":")[0] : ""); });
  });

  // The live paper ---------------------------------------------------------------------------------

  function draw(fresh) {
    var current = sheet(), freshSheet = fresh.querySelector("[data-live-paper]");
    if (!current || !freshSheet) return;
    var open = current.querySelector("details[open]") !== null;
    ["[data-live-paper]", "[data-live-deals]", "[data-live-finish]"].forEach(function (selector) {
      var old = document.querySelector(selector), next = fresh.querySelector(selector);
      if (old && next) old.replaceWith(document.importNode(next, true));
      else if (old) old.remove();
    });
    if (open) sheet().querySelector("details").open = true;
    // The game is over (or on again after an undo): the finish replaces the pad, or the pad it.
    var padBox = document.querySelector("[data-live-pad]"), freshPad = fresh.querySelector("[data-live-pad]");
    if (padBox && freshPad && !!padBox.querySelector("form") !== !!freshPad.querySelector("form")) {
      padBox.replaceWith(document.importNode(freshPad, true));
      var form = dealForm();
      if (form) {
        pad = JSON.parse(document.getElementById("pad-words").textContent);
        setUpPad(form);
      }
    }
    drawKept();
    follow(false);
  }

  /* The paper's own page again (the paper's address, not the page's: a refused deal is shown at
   * the deal form's address, which takes only POST); drawn when it changed or when forced. */
  var lastETag = null;
  function refresh(force) {
    var current = sheet();
    if (!current || (document.hidden && !force)) return Promise.resolve();
    var url = current.getAttribute("data-live-url") || window.location.href;
    // Answered 304 without drawing while the paper is as this phone last saw it (the server's
    // ETag, ratings.page_cache.conditional_page); no-store keeps the browser's cache out of it.
    var headers = { "X-Club-Page": "1" };
    if (lastETag && !force) headers["If-None-Match"] = lastETag;
    return fetch(url, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (response) {
        if (!response.ok) return null;  // 304 too: nothing new
        lastETag = response.headers.get("ETag");
        return response.text();
      })
      .then(function (text) {
        if (text === null) return;
        var fresh = new DOMParser().parseFromString(text, "text/html");
        var freshSheet = fresh.querySelector("[data-live-paper]"), now = sheet();
        if (!freshSheet || !now) return;
        if (!force && freshSheet.getAttribute("data-deals") === now.getAttribute("data-deals") &&
            freshSheet.textContent === now.textContent) return;
        draw(fresh);
      })
      .catch(function () { /* offline for a moment: try again at the next tick */ });
  }

  /* A refused deal is drawn at the deal form's address, which takes only POST: the address bar
   * shows the paper's own, so a reload or a shared link opens the paper. */
  var first = sheet();
  var paperUrl = first && first.getAttribute("data-live-url");
  if (paperUrl && window.history.replaceState && window.location.pathname !== paperUrl) {
    window.history.replaceState(null, "", paperUrl);
  }

  var form = dealForm();
  if (form && pad) {
    setUpPad(form);
    // The pad in view: the paper above it, the deals list and the rest below.
    keepInView();
    loadKept().then(function () { drawKept(); follow(true); keepInView(); });
  }
  // static/offline.js sent the kept deals (or some): the paper shows them sent.
  document.addEventListener("club:kept-sent", function () {
    var had = kept.length;
    loadKept().then(function () {
      drawKept();
      return refresh(true);
    }).then(function () {
      if (had && !kept.length && !refused && pad) status(pad.words.sent);
    });
  });
  window.addEventListener("online", function () {
    if (kept.length && pad) status(pad.words.sending);
  });
  window.setInterval(refresh, REFRESH_MS);
})();
