{% load static %}/* The club's service worker, served from /sw.js so it covers every page (ratings/views/offline.py).
 *
 * Pages: network first, the copy of the last visit when there is no network, so an entry form
 * visited before opens in a basement (static/offline.js then keeps what is typed into it).
 * Static files: cache first where their names are hashed from their contents (production): an
 * address never changes its content, and a release's pages name new addresses. The cache is
 * named by the build (the static files' manifest), so a release is a new worker, which fetches
 * the club's own files when it installs and drops the builds before when it takes over, with the
 * pages they kept (those name the files of their own build). Without hashed names (development,
 * the tests) static files are asked of the network first, as pages are. Only GET is ever cached.
 * A game form's POST that cannot reach the server (the phone says it is online, the network
 * says otherwise) is kept on the phone as static/offline.js keeps one, and the member is sent
 * back to the form, whose page then says a paper is waiting. Not so the Back button on a page a
 * POST drew (a game's preview after it was saved): the browser asks for it again from its cache
 * only ("only-if-cached"), which fails; that is no paper to send, and the member is sent to the
 * form's address with the paper's key (?back=<key>), where the club opens the game it saved
 * under that key ("This game was saved already") or else an empty form.
 * A login or a logout forgets the pages kept: they show who was logged in (the header, the
 * member's own table), and a phone passed to the next player must not show the last one's.
 */
"use strict";

importScripts("{% static 'offline-store.js' %}");

var CACHE = "club-{{ version }}";
var PRECACHE = {{ precache|safe }};
var HASHED = {{ hashed }};
var STATIC = "{% get_static_prefix %}";
// Never kept for a visit without network: the admin, and the API's answers.
var NOT_KEPT = ["/admin/", "/api/"];
var SESSION_CHANGES = ["{% url 'login' %}", "{% url 'logout' %}"];

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name !== CACHE; })
        .map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function networkFirst(request) {
  // The redirects after a history re-POST (sendOrKeep) inherit its cache-only mode: asked of
  // the club afresh (a copy kept would show its visit's messages again).
  var asked = request.cache === "only-if-cached" && request.mode === "navigate"
    ? fetch(request.url, { credentials: "same-origin", redirect: "manual" }) : fetch(request);
  return asked.then(function (response) {
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
  if (url.origin !== location.origin) return;
  if (request.method === "POST" && request.mode === "navigate") {
    event.respondWith(sendOrKeep(request));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.indexOf(STATIC) === 0) {
    event.respondWith(HASHED ? cacheFirst(request) : networkFirst(request));
  } else if ((request.mode === "navigate" || request.headers.get("X-Club-Page") === "1") && !NOT_KEPT.some(function (p) { return url.pathname.indexOf(p) === 0; })) {
    event.respondWith(networkFirst(request));
  }
});

function forgetPages() {
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (kept) {
        return new URL(kept.url).pathname.indexOf(STATIC) !== 0;
      }).map(function (kept) { return cache.delete(kept); }));
    });
  });
}

function sendOrKeep(request) {
  var copy = request.clone();
  var path = new URL(request.url).pathname;
  return fetch(request).then(function (response) {
    if (SESSION_CHANGES.indexOf(path) === -1) return response;
    return forgetPages().then(function () { return response; });
  }).catch(function (failure) {
    return copy.formData().then(function (data) {
      var key = data.get("submission_key");
      if (!key) throw failure;
      var url = new URL(copy.url);
      if (copy.cache === "only-if-cached") {
        url.searchParams.set("back", key);
        return Response.redirect(url.pathname + url.search, 303);
      }
      return self.clubPapers.put({
        key: key, url: url.pathname + url.search, fields: self.clubPapers.fields(data), keptAt: Date.now(),
      }).then(function () { return Response.redirect(url.pathname + url.search + "#kept", 303); });
    });
  });
}
