/* Help for every form, a progressive enhancement (without scripts the forms work as they are):
 *
 * - The error summary after a failed submit (templates/ratings/error_summary.html), as the
 *   GOV.UK design system's: the page opens with the summary focused, so a screen reader reads it
 *   and a phone shows it, however far down the first wrong field is. Its links then take the
 *   member to the field with its label in view, and put the cursor in it. Without scripts the
 *   summary's autofocus and plain links do most of this.
 * - A table wider than its box scrolls inside it: the box then becomes a named region that
 *   takes the focus, so a keyboard can scroll it too (WCAG 2.1.1; axe's scrollable-region-
 *   focusable). Boxes that fit stay out of the Tab order.
 * - A ± button beside a number that may be negative ([data-signed]: the Middle column, a score)
 *   on a touch screen. The box then asks for the quick digit pad (data-inputmode), which on
 *   common phone keyboards (iOS's above all) has no minus key; the button flips the sign
 *   instead. Without scripts the box asks for no pad, and the phone's full keyboard has "-".
 *   The button is out of the Tab order (a keyboard types "-") and never takes the focus
 *   itself: a tap puts the caret at the end of its own box (opening the keyboard there), so
 *   the digits typed next go into the number whose sign was flipped.
 * - The preview of a game ([data-preview], after "Check scores") takes the focus and the top of
 *   the screen when the page opens, as the error summary does: on a phone it is screens below
 *   the top of the form, and the member came for it.
 * - A button that copies a text shown once ([data-copy]: a new API token) to the clipboard; it
 *   is hidden without scripts, where the text is selected by hand.
 * - A form whose step cannot be undone ([data-confirm]: closing a round or a club night) asks
 *   first, with the form's own words of what follows; [data-confirm-name] names the field whose
 *   choice the question names ("{name}": the player who leaves early). Without scripts it is
 *   sent as it is.
 * - A list of names to suggest that the page does not carry ([data-names] on a datalist: the
 *   games list's players, thousands in a big league) is fetched from its address when its box
 *   is first used. Without scripts the box suggests nothing and finds a player by part of the
 *   name all the same.
 */
(function () {
  "use strict";

  function labelFor(field) {
    if (field.labels && field.labels.length) return field.labels[0];
    var fieldset = field.closest("fieldset");
    return fieldset ? fieldset.querySelector("legend") : null;
  }

  function followLink(event) {
    var link = event.target.closest("a[href^='#']");
    if (!link) return;
    var field = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!field) return;
    event.preventDefault();
    // The label above the box in view as well as the box, which the browser alone would put
    // at the very top of the screen, hiding what the field is.
    var label = labelFor(field);
    (label || field).scrollIntoView({ block: "start" });
    field.focus({ preventScroll: true });
    if (window.history && history.replaceState) history.replaceState(null, "", link.hash);
  }

  var MINUS = /^\s*[-\u2212\u2013\u2012\ufe63\uff0d]\s*/;

  function flipSign(input) {
    var value = input.value;
    input.value = MINUS.test(value) ? value.replace(MINUS, "") : "-" + value.trim();
    // What typing would send: the live totals (paper.js) follow.
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function addSignButton(input) {
    input.setAttribute("inputmode", input.getAttribute("data-inputmode") || "numeric");
    var wrap = document.createElement("span");
    wrap.className = "signed";
    input.parentNode.insertBefore(wrap, input);
    wrap.appendChild(input);
    var button = document.createElement("button");
    button.type = "button";
    button.className = "sign-toggle";
    button.tabIndex = -1;
    button.textContent = "\u00b1";
    button.setAttribute("aria-label", input.getAttribute("data-sign-label") || "Plus or minus");
    if (input.id) button.setAttribute("aria-controls", input.id);
    button.addEventListener("mousedown", function (event) { event.preventDefault(); });
    button.addEventListener("click", function () {
      flipSign(input);
      // The caret goes into this box, at its end: the next digits typed are this number's,
      // not the box that had the focus before (a wrong-box entry passes every check).
      input.focus({ preventScroll: true });
      var end = input.value.length;
      if (input.setSelectionRange) input.setSelectionRange(end, end);
    });
    wrap.appendChild(button);
  }

  function nameOf(box) {
    // The heading the table is under: the nearest one before it, else the page's.
    for (var node = box; node && node !== document.body; node = node.parentElement) {
      for (var before = node.previousElementSibling; before; before = before.previousElementSibling) {
        if (/^H[1-3]$/.test(before.tagName)) return before.textContent.trim();
      }
    }
    var title = document.querySelector("h1");
    return title ? title.textContent.trim() : document.title;
  }

  function markScrollingTables() {
    // .table-wrap around the pages' own tables, django-tables2's .table-container in it.
    var boxes = document.querySelectorAll(".table-wrap, .table-container");
    Array.prototype.forEach.call(boxes, function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", nameOf(box));
        box.setAttribute("data-scroll-region", "");
      } else if (!scrolls && box.hasAttribute("data-scroll-region")) {
        ["tabindex", "role", "aria-label", "data-scroll-region"].forEach(function (name) {
          box.removeAttribute(name);
        });
      }
    });
  }

  function confirmFirst(event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (!question) return;
    var chosen = form.getAttribute("data-confirm-name");
    var field = chosen && form.elements[chosen];
    if (field && field.selectedIndex >= 0) {
      question = question.replace("{name}", field.options[field.selectedIndex].text);
    }
    if (!window.confirm(question)) event.preventDefault();
  }

  function addCopyButton(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(source.textContent.trim()).then(function () {
        button.textContent = button.getAttribute("data-copied");
      });
    });
  }

  function fillNames(event) {
    var list = event.target.list;
    var address = list && list.getAttribute("data-names");
    if (!address || list.hasAttribute("data-filled")) return;
    list.setAttribute("data-filled", "");
    fetch(address, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (names) {
        var options = document.createDocumentFragment();
        names.forEach(function (name) {
          var option = document.createElement("option");
          option.value = name;
          options.appendChild(option);
        });
        list.appendChild(options);
      })
      .catch(function () {
        list.removeAttribute("data-filled"); // the next use asks again
      });
  }

  function start() {
    document.addEventListener("submit", confirmFirst);
    document.addEventListener("focusin", fillNames);
    Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), addCopyButton);
    markScrollingTables();
    var pending = false;
    window.addEventListener("resize", function () {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; markScrollingTables(); });
    });
    if (window.matchMedia && window.matchMedia("(pointer: coarse)").matches) {
      Array.prototype.forEach.call(document.querySelectorAll("input[data-signed]"), addSignButton);
    }
    var summary = document.querySelector("[data-error-summary]");
    if (!summary) {
      var preview = document.querySelector("[data-preview]");
      if (preview) {
        if (document.activeElement !== preview) preview.focus({ preventScroll: true });
        preview.scrollIntoView({ block: "start" });
      }
      return;
    }
    summary.addEventListener("click", followLink);
    if (document.activeElement !== summary) summary.focus();
    summary.scrollIntoView({ block: "start" });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
