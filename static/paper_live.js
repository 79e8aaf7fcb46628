/* The digital paper at the table: the deal's value as you tap, the followers' rows of the chosen
 * declarer, and the live paper on every phone watching. Progressive enhancement only: the page
 * posts plain forms and the server computes and checks everything again. No innerHTML.
 */
(function () {
  "use strict";

  var BIDS = { pik: 2, karo: 3, herc: 4, tref: 5, betl: 6, sans: 7 };
  var REFRESH_MS = 5000;

  /* 2 x the bid, +2 for igra, x2 on a refa, x2 per kontra level (the server's deal_value). */
  function dealValue(contract, igra, onRefa, kontra) {
    if (!BIDS[contract]) return null;
    var value = 2 * BIDS[contract] + (igra ? 2 : 0);
    if (onRefa) value *= 2;
    return value * Math.pow(2, kontra || 0);
  }

  if (typeof module !== "undefined") {
    module.exports = { dealValue: dealValue };
    return;
  }

  function checked(form, name) {
    var input = form.querySelector("input[name='" + name + "']:checked");
    return input ? input.value : null;
  }

  function setUpDealForm(form) {
    var output = document.createElement("output");
    output.className = "deal-value";
    var button = form.querySelector("button[type=submit]");
    button.parentNode.insertBefore(output, button);

    function update(event) {
      var refa = checked(form, "kind") === "refa";
      var declarer = checked(form, "declarer");
      // Read each time: the live refresh updates it when another phone's deal arrives.
      var openRefe = (form.getAttribute("data-open-refe") || "").split(",");
      if (event && event.target.name === "declarer" && declarer) {
        form.querySelector("input[name=on_refa]").checked = openRefe.indexOf(declarer) >= 0;
      }
      form.querySelectorAll("fieldset.follower").forEach(function (fieldset) {
        fieldset.hidden = refa || fieldset.getAttribute("data-seat") === declarer;
      });
      form.querySelectorAll("[data-played]").forEach(function (part) {
        part.hidden = refa;
      });
      var value = dealValue(
        checked(form, "contract"),
        form.querySelector("input[name=igra]").checked,
        form.querySelector("input[name=on_refa]").checked,
        parseInt(form.querySelector("select[name=kontra]").value, 10)
      );
      output.textContent = refa || value === null ? "" : form.getAttribute("data-value-label") + " " + value;
    }
    form.addEventListener("change", update);
    form.addEventListener("change", function () { form.setAttribute("data-tapped", "1"); });
    update();
  }

  /* Every few seconds, the page again: a new deal replaces the paper and the deals shown. A phone
   * with a deal half entered keeps its form; it is told on submitting if another phone was first.
   * The paper's own address, not the page's: a refused deal is shown at the deal form's address,
   * which takes only POST. The deal form's number and ``after`` follow (followDeals). */
  function refresh() {
    var sheet = document.querySelector("[data-live-paper]");
    if (!sheet || document.hidden) return;
    var url = sheet.getAttribute("data-live-url") || window.location.href;
    fetchIfChanged(url)
      .then(function (text) {
        if (text === null) return;
        var fresh = new DOMParser().parseFromString(text, "text/html");
        var freshSheet = fresh.querySelector("[data-live-paper]");
        var current = document.querySelector("[data-live-paper]");
        if (!freshSheet || !current) return;
        if (freshSheet.getAttribute("data-deals") === current.getAttribute("data-deals") &&
            freshSheet.textContent === current.textContent) return;
        ["[data-live-paper]", "[data-live-deals]", "[data-live-finish]"].forEach(function (selector) {
          var old = document.querySelector(selector), next = fresh.querySelector(selector);
          if (old && next) old.replaceWith(document.importNode(next, true));
        });
        followDeals(fresh);
      })
      .catch(function () { /* offline for a moment: try again at the next tick */ });
  }

  /* The page at ``url`` if it changed since the last answer, else null: the server answers 304
   * without drawing (ratings.page_cache.conditional_page) to the ETag it sent last. no-store
   * keeps the browser's cache out of it, so the ETag is sent here. */
  var lastETag = null;
  function fetchIfChanged(url) {
    var headers = lastETag ? { "If-None-Match": lastETag } : {};
    return fetch(url, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (response) {
        if (response.status === 304 || !response.ok) return null;
        lastETag = response.headers.get("ETag");
        return response.text();
      });
  }

  /* The deal form follows the paper while nothing is tapped in it: its number, the deals it was
   * seen after, the refe still open. A form being tapped keeps them: the member may be entering
   * the deal that just arrived, and is told on submitting (the form comes back, taps kept, for
   * the deal after the paper's last). */
  function followDeals(fresh) {
    var form = document.querySelector("form[data-deal-form]");
    var next = fresh.querySelector("form[data-deal-form]");
    if (!form || !next || form.getAttribute("data-tapped")) return;
    form.querySelector("input[name=after]").value = next.querySelector("input[name=after]").value;
    form.setAttribute("data-open-refe", next.getAttribute("data-open-refe") || "");
    var title = document.getElementById("deal-title"), nextTitle = fresh.getElementById("deal-title");
    if (title && nextTitle) title.textContent = nextTitle.textContent;
  }

  /* A refused deal is drawn at the deal form's address, which takes only POST: the address bar
   * shows the paper's own, so a reload or a shared link opens the paper. */
  var sheet = document.querySelector("[data-live-paper]");
  var paperUrl = sheet && sheet.getAttribute("data-live-url");
  if (paperUrl && window.history.replaceState && window.location.pathname !== paperUrl) {
    window.history.replaceState(null, "", paperUrl);
  }

  document.querySelectorAll("form[data-deal-form]").forEach(setUpDealForm);
  window.setInterval(refresh, REFRESH_MS);
})();
