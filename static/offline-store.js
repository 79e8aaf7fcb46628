/* The papers kept on this phone (IndexedDB), shared by the page (static/offline.js) and the
 * service worker (/sw.js): one place that knows the database, so both keep a paper the same way.
 * A paper: {key: its submission_key, url: its form's path, fields: [[name, value], ...],
 * keptAt, and once tried: loginNeeded or refused}. */
(function (scope) {
  "use strict";

  var DB = "club-offline", STORE = "papers";

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "key" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(request.result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }

  /** A form's fields as kept: every name and value but the CSRF token, which a later send
   * replaces with a fresh one. */
  function fields(formData) {
    var kept = [];
    formData.forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") kept.push([name, value]);
    });
    return kept;
  }

  scope.clubPapers = {
    all: function () { return run("readonly", function (s) { return s.getAll(); }); },
    get: function (key) { return run("readonly", function (s) { return s.get(key); }); },
    put: function (paper) { return run("readwrite", function (s) { return s.put(paper); }); },
    remove: function (key) { return run("readwrite", function (s) { return s.delete(key); }); },
    fields: fields,
  };
})(self);
