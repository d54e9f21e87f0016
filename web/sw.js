// attnbook's service worker: the site works offline after the first visit.
// Plain JS, no library. scripts/vite-sw-plugin.mjs copies this file to the
// site root as sw.js at build time, with VERSION (a hash of the file list and
// every file's contents) and FILES (every file the build wrote, as URLs
// relative to this script, so the site works under any sub-path) filled in.
// It is registered by web/src/shell/offline.js, over http(s) only.
//
//   install   precache FILES into the cache `attnbook-<VERSION>`
//   activate  delete every older attnbook-* cache, take control of open pages
//   fetch     same-origin GETs: the cache first, then the network, then (for a
//             page navigation) the cached index.html
//
// No eval, no importScripts: runs under the site's strict CSP.

// Filled in by scripts/vite-sw-plugin.mjs (these lines must stay as they are).
const VERSION = 'development';
const FILES = [];

const PREFIX = 'attnbook-';
const CACHE = `${PREFIX}${VERSION}`;
const INDEX = new URL('index.html', self.location).href;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      // cache: 'reload' skips the HTTP cache so the precache holds what the server has now.
      cache.addAll(FILES.map((file) => new Request(new URL(file, self.location), { cache: 'reload' }))),
    ),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
      // The first visit's page becomes controlled without a reload.
      await self.clients.claim();
    })(),
  );
});

async function respond(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreSearch: request.mode === 'navigate' });
  if (cached) return cached;
  try {
    return await fetch(request);
  } catch (error) {
    if (request.mode === 'navigate') {
      const index = await cache.match(INDEX);
      if (index) return index;
    }
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(respond(request));
});
