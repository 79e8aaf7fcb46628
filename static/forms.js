/* The error summary after a failed submit (templates/ratings/error_summary.html), as the GOV.UK
 * design system's: the page opens with the summary focused, so a screen reader reads it and a
 * phone shows it, however far down the first wrong field is. Its links then take the member to
 * the field with its label in view, and put the cursor in it. A progressive enhancement: without
 * scripts the summary's autofocus and plain links do most of this.
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

  function start() {
    var summary = document.querySelector("[data-error-summary]");
    if (!summary) return;
    summary.addEventListener("click", followLink);
    if (document.activeElement !== summary) summary.focus();
    summary.scrollIntoView({ block: "start" });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
