// The page's service worker: keeps every file of the page (tools/web lists
// them and names the cache after their content), so that once loaded the
// handheld plays offline. Cache first; a new build's cache replaces the old.
const CACHE = "scopa-@VERSION@";
const FILES = @FILES@;

self.addEventListener("install", (e) => {
    // from the server, not the browser's HTTP cache: a static server's old
    // copy would fill the new build's cache
    const fresh = FILES.map((f) => new Request(f, { cache: "reload" }));
    e.waitUntil(caches.open(CACHE).then((c) => c.addAll(fresh)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
    e.waitUntil(
        caches.keys()
            .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
            .then(() => self.clients.claim()),
    );
});

self.addEventListener("fetch", (e) => {
    if (e.request.method !== "GET") return;
    e.respondWith(
        caches.match(e.request, { ignoreSearch: true }).then((hit) => hit || fetch(e.request)),
    );
});
