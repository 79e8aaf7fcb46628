/* The club's service worker, served from /sw.js so it covers every page (ratings/views/offline.py).
 *
 * Pages: network first, the copy of the last visit when there is no network, so an entry form
 * visited before opens in a basement (static/offline.js then keeps what is typed into it).
 * Static files: cache first (their names do not change between releases here, so a new
 * release's worker, with a new CACHE name, drops the old copies). Only GET is ever cached:
 * a form's POST always goes to the server.
 */
"use strict";

var CACHE = "club-v1";

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name !== CACHE; })
        .map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function networkFirst(request) {
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request).then(function (cached) {
      return cached || Response.error();
    });
  });
}

function cacheFirst(request) {
  return caches.match(request).then(function (cached) {
    return cached || fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(request));
  }
});
