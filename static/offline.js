/* Never lose a paper: a game entry form sent while the phone has no connection is kept on the
 * phone and sent when the connection comes back. A progressive enhancement: without scripts the
 * forms work as they always did.
 *
 * - A game form (it carries a submission_key) submitted while the browser is offline is kept in
 *   IndexedDB (static/offline-store.js) with its fields and its key; one whose POST cannot reach
 *   the server while the browser believes it is online is kept by the service worker.
 * - Every page (this file is in base.html) says how many papers wait ("1 paper waiting to be
 *   sent"), and sends them on page load, on the `online` event and when the tab is shown again.
 *   Not Background Sync: Safari and iOS lack it.
 * - Sending: GET the form's page for a fresh CSRF token (a login that expired meanwhile answers
 *   with the login page: the paper stays kept and the banner asks the member to log in), POST
 *   it as "Check scores" and then, with the preview's token, as "Save game". The key makes a
 *   second copy of a paper that did reach the server return the game already recorded.
 * - A paper the club refuses (a wrong column, a name close to a member's) is not lost either:
 *   the banner links to its form, which opens filled in and checked, showing the form's errors.
 * - It registers the service worker (/sw.js) that opens a visited entry page with no network.
 */
(function () {
  "use strict";

  var papers = window.clubPapers;  // static/offline-store.js
  var banner = document.getElementById("offline-queue");
  var sending = false;

  function all() { return papers.all(); }
  function put(paper) { return papers.put(paper); }
  function remove(key) { return papers.remove(key); }

  // The banner ----------------------------------------------------------------------------------

  function show(kept) {
    if (!banner) return;
    var waiting = kept.filter(function (p) { return !p.refused; });
    var refused = kept.filter(function (p) { return p.refused; });
    var text = banner.querySelector("[data-text]");
    var link = banner.querySelector("a");
    link.hidden = true;
    if (!kept.length) { banner.hidden = true; return; }
    var words = [];
    var deals = waiting.filter(isDeal), games = waiting.filter(function (p) { return !isDeal(p); });
    if (games.length) words.push(countText("papers", games.length));
    if (deals.length) words.push(countText("deals", deals.length));
    if (refused.length) {
      words.push(isDeal(refused[0]) ? banner.dataset.refusedDeal : banner.dataset.refused);
      link.textContent = banner.dataset.open;
      link.href = refused[0].url + "#kept-" + refused[0].key;
      link.hidden = false;
    } else if (waiting.some(function (p) { return p.loginNeeded; })) {
      words.push(banner.dataset.login);
      link.textContent = banner.dataset.loginLink;
      link.href = banner.dataset.loginUrl + "?next=" + encodeURIComponent(location.pathname + location.search);
      link.hidden = false;
    }
    // A line each: two counts run together read as one sentence ("1 paper waiting to be sent
    // 3 deals waiting to be sent"), in any language.
    text.textContent = "";
    words.forEach(function (line) {
      var part = document.createElement("span");
      part.className = "offline-line";
      part.textContent = line;
      text.appendChild(part);
    });
    banner.hidden = false;
  }

  // A digital paper's deal, kept under its paper's deal address (see keep).
  function isDeal(kept) { return /\/papers\/\d+\/deal\/$/.test(kept.url); }

  // "3 deals waiting to be sent" (what: "papers" or "deals") in the page's language: the plural
  // form its rules pick (one, few, many; the other numbers take the form of 5, as Russian's and
  // Serbian's "many" do).
  function countText(what, count) {
    var form = "many";
    try {
      form = new Intl.PluralRules(document.documentElement.lang || "en").select(count);
    } catch (error) { /* no Intl: the form of 5 */ }
    var words = banner.dataset[what + form.charAt(0).toUpperCase() + form.slice(1)];
    return (words || banner.dataset[what + "Many"]).replace("{count}", count);
  }

  function refresh() { return all().then(show); }

  // Keeping a paper -----------------------------------------------------------------------------

  function fieldsOf(form, submitter) {
    var fields = papers.fields(new FormData(form));
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    return fields;
  }

  // A form marked data-offline="direct" (a digital paper's deal) is sent in one POST to its own
  // address, not checked and saved as a game form is; it is kept under that address. Its
  // data-offline-count field counts the entries the phone has seen: the next deal tapped while
  // offline comes after the one just kept.
  function direct(form) { return form.dataset.offline === "direct"; }

  function keep(form, submitter) {
    var key = form.querySelector("input[name=submission_key]").value;
    var url = direct(form) ? new URL(form.action, location.href).pathname
      : location.pathname + location.search;
    var paper = { key: key, url: url, fields: fieldsOf(form, submitter), keptAt: Date.now() };
    var count = form.dataset.offlineCount && form.elements[form.dataset.offlineCount];
    var seen = count ? Number(count.value) : 0;
    return put(paper).then(function () {
      // The form is free for the next paper, under a key of its own.
      form.reset();
      form.querySelector("input[name=submission_key]").value = newKey();
      if (count) count.value = seen + 1;
      form.dispatchEvent(new Event("change"));  // a page's own script redraws the form reset
      return refresh();
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

  document.addEventListener("submit", function (event) {
    var form = event.target;
    // A page's own script that took the submit (the paper's pad, static/paper_live.js) keeps it.
    if (event.defaultPrevented) return;
    if (!form.querySelector("input[name=submission_key]") || navigator.onLine) return;
    event.preventDefault();
    keep(form, event.submitter);
  });

  // Sending -------------------------------------------------------------------------------------

  function page(response) {
    return response.text().then(function (html) {
      return new DOMParser().parseFromString(html, "text/html");
    });
  }

  function post(url, fields, token, extra) {
    var body = new URLSearchParams();
    body.append("csrfmiddlewaretoken", token);
    fields.forEach(function (pair) {
      if (pair[0] !== "save" && pair[0] !== "preview" && pair[0] !== "previewed") body.append(pair[0], pair[1]);
    });
    Object.keys(extra).forEach(function (name) { body.append(name, extra[name]); });
    return fetch(url, { method: "POST", body: body, credentials: "same-origin" });
  }

  function loginPage(response) {
    return response.redirected && new URL(response.url).pathname === banner.dataset.loginUrl;
  }

  function send(paper) {
    return fetch(paper.url, { credentials: "same-origin" }).then(function (response) {
      if (loginPage(response)) {
        paper.loginNeeded = true;
        return put(paper);
      }
      return page(response).then(function (doc) {
        var token = doc.querySelector("input[name=csrfmiddlewaretoken]");
        if (!token) throw new Error("no form on " + paper.url);
        if (directOn(doc, paper.url)) return sendDirect(paper, token.value);
        return post(paper.url, paper.fields, token.value, { preview: "1" }).then(function (answer) {
          // Anything but the form drawn again (a server error, a refused CSRF token) is not
          // the club's answer about the paper: it stays kept, to be tried again.
          if (!answer.ok) throw new Error("checking answered " + answer.status);
          return page(answer);
        }).then(function (checked) {
          if (!checked.querySelector("input[name=submission_key]")) throw new Error("no form");
          var previewed = checked.querySelector("input[name=previewed]");
          if (!previewed || !previewed.value) {
            paper.refused = true;
            paper.loginNeeded = false;
            return put(paper);
          }
          var fresh = checked.querySelector("input[name=csrfmiddlewaretoken]").value;
          return post(paper.url, paper.fields, fresh, { previewed: previewed.value, save: "1" })
            .then(function (saved) {
              if (!saved.ok) throw new Error("saving answered " + saved.status);
              return remove(paper.key);
            });
        });
      });
    });
  }

  // The page fetched for the token has the kept form, marked direct, posting to the kept address
  // (the service worker keeps a POST under its address without knowing its form).
  function directOn(doc, url) {
    return Array.prototype.some.call(doc.querySelectorAll("form[data-offline=direct]"), function (form) {
      return new URL(form.getAttribute("action"), location.href).pathname === url;
    });
  }

  // One POST: sent on (a redirect) it is recorded, or was already under its key; the form drawn
  // again is the club refusing it (another phone entered a deal meanwhile, a wrong deal), and so
  // is a 409 (its key is another deal's: sending it again would only be refused again).
  function sendDirect(paper, token) {
    return post(paper.url, paper.fields, token, {}).then(function (answer) {
      if (!answer.ok && answer.status !== 409) throw new Error("sending answered " + answer.status);
      if (loginPage(answer)) {
        paper.loginNeeded = true;
        return put(paper);
      }
      if (answer.redirected) return remove(paper.key);
      paper.refused = true;
      paper.loginNeeded = false;
      return put(paper);
    });
  }

  function sendAll() {
    if (sending || !navigator.onLine) return Promise.resolve();
    sending = true;
    return all().then(function (kept) {
      // In the order they were kept: a paper's deals one after the other. Once one fails to
      // go, the later ones of its address wait too (a deal never overtakes the one before).
      var waiting = kept.filter(function (p) { return !p.refused; })
        .sort(function (a, b) { return a.keptAt - b.keptAt; });
      var stuck = {};
      return waiting.reduce(function (done, paper) {
        return done.then(function () {
          if (stuck[paper.url]) return;
          return send(paper).catch(function () {
            // Still no server (or a server error): kept, tried again at the next chance.
            stuck[paper.url] = true;
          });
        });
      }, Promise.resolve());
    }).then(refresh, refresh).then(done, done);
  }

  // The page may show what was sent (the paper draws its kept deals as sent: paper_live.js).
  function done() {
    sending = false;
    document.dispatchEvent(new Event("club:kept-sent"));
  }

  // A refused paper opened from the banner: its form, filled in and checked by the server.
  function reopen() {
    var match = /^#kept-([0-9a-f-]+)$/.exec(location.hash);
    var form = document.querySelector("form input[name=submission_key]");
    if (!match || !form) return;
    form = form.form;
    papers.get(match[1]).then(function (paper) {
      if (!paper) return;
      paper.fields.forEach(function (pair) {
        var field = form.elements[pair[0]];
        if (!field || field.type === "submit" || (field instanceof RadioNodeList && field[0].type === "submit")) {
          // A button's choice (the paper pad's "Refa"): sent as a field of its own.
          var said = document.createElement("input");
          said.type = "hidden"; said.name = pair[0]; said.value = pair[1];
          form.appendChild(said);
          return;
        }
        if (field.type === "checkbox") field.checked = true;
        else if (field instanceof RadioNodeList) field.value = pair[1];
        else field.value = pair[1];
      });
      var check = document.createElement("input");
      check.type = "hidden"; check.name = "preview"; check.value = "1";
      form.appendChild(check);
      return remove(paper.key).then(function () { form.submit(); });
    });
  }

  // A page opened from the worker's copy may carry the key of a paper kept since: the form
  // takes a new one, so the next paper typed into it is a game of its own.
  function freshKey() {
    var field = document.querySelector("form input[name=submission_key]");
    if (!field) return Promise.resolve();
    return papers.get(field.value).then(function (kept) {
      if (kept) field.value = newKey();
    });
  }

  if (!window.indexedDB || !papers) return;
  window.clubOffline = { refresh: refresh, sendAll: sendAll };
  window.addEventListener("online", sendAll);
  window.addEventListener("hashchange", reopen);  // the banner's link on the form's own page
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") sendAll();
  });
  freshKey().then(refresh).then(sendAll).then(reopen);
  if ("serviceWorker" in navigator && banner && banner.dataset.worker) {
    navigator.serviceWorker.register(banner.dataset.worker).catch(function () {});
  }
})();
