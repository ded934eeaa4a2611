// Zaiko's service worker: what a phone keeps to read the household's lists without a network.
// app.js registers it on HTTPS pages (a secure context, as a worker needs), at /sw.js, for the whole site.
//
// Kept: the folders page, every stock list and the meal plan's weeks the member opens (pages: network first, the copy
// when the network fails or is slow), every shopping list of the household whether opened or not
// (listed by /offline/lists.json), and what those pages use, by the address they use it at
// (styles, scripts, icons, thumbnails: from the copy first). Nothing else: no form's answer (a plan
// page answering one, `/plan?cooked=…`, is not kept: the week it shows is fetched again behind it), no
// sign-in page, no event stream. A copy opened offline says when it was saved (the banner app.js
// fills from `data-offline-copy`). Signing out, or another member signing in, drops every copy.
"use strict";

const PAGES = "zaiko-pages-v1";
const FILES = "zaiko-files-v1";
const INDEX = "/offline/lists.json";
// How long a page may take from the network before its copy is shown instead.
const NETWORK_PATIENCE_MS = 3000;

// Counts the times every copy was dropped: a page or file fetched before the last drop (another
// member's, or one from before signing out) is not stored after it.
let generation = 0;
// The shopping lists are fetched again after every page that comes from the network (what was
// just added to one is on the phone before it leaves home), one round at a time: a page that
// comes while a round runs queues one more, which any later page joins.
let listsRound = Promise.resolve();
// Pages are asked for in an order (`asks`); a page's copy is replaced only by an answer asked for
// later than the one kept (`newest`, by address). Answers come back in any order: a list fetched
// before an item was added must not overwrite a copy fetched after it.
let asks = 0;
const newest = new Map();
let listsRoundQueued = false;

// Pages kept when opened: the folders page, the lists (filters and pages of a list included) and
// the meal plan's weeks (what is for dinner, read in the shop), by the address the header and the
// week links use (`/plan`, `/plan?from=…`).
const isPlanWeek = (url) => url.pathname === "/plan" && [...url.searchParams.keys()].every((key) => key === "from");
const keptPage = (url) => url.pathname === "/" || isPlanWeek(url) || /^\/folders\/\d+$/.test(url.pathname);
// Files kept: the site's public files and the household's photos.
const keptFile = (url) => url.pathname.startsWith("/static/") || url.pathname.startsWith("/photos/");

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // Copies in an older worker's format go.
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name !== PAGES && name !== FILES).map((name) => caches.delete(name)));
    await self.clients.claim();
    await keepListsAgain();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data !== "forget") return;
  event.waitUntil(forget().then(() => { if (event.ports[0]) event.ports[0].postMessage("forgotten"); }));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === "/logout") {
    // Signing out: the page dropped the copies before sending; this catches a page that could not.
    event.waitUntil(forget());
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && keptPage(url)) event.respondWith(pageFromNetworkFirst(event));
  else if (request.mode === "navigate" && url.pathname === "/plan") event.waitUntil(keepPlanWeekAgain(url));
  else if (keptFile(url)) event.respondWith(fileFromCopyFirst(event));
});

// A plan page answering a form (a cook, the week's shopping, "+ Add" of a day): the copy of the
// week it shows is fetched again, so the plan opened offline has what the form changed.
async function keepPlanWeekAgain(url) {
  const week = new URL("/plan", self.location.origin);
  if (url.searchParams.has("from")) week.searchParams.set("from", url.searchParams.get("from"));
  const before = generation;
  const asked = ++asks;
  try {
    const page = await fetch(week);
    if (keepable(page)) await keepPage(week.href, page, before, asked);
  } catch (offline) {
    // Kept as it was.
  }
}

// Drops every copy (Cache Storage is this site's alone).
async function forget() {
  generation += 1;
  const names = await caches.keys();
  await Promise.all(names.map((name) => caches.delete(name)));
}

// Whether an answer is one to keep: this site's own, successful, not a detour (a signed-out
// request is redirected to the sign-in page).
const keepable = (response) => response.ok && response.type === "basic" && !response.redirected;

async function pageFromNetworkFirst(event) {
  const request = event.request;
  const before = generation;
  const asked = ++asks;
  const network = fetch(request);
  event.waitUntil(network.then(async (response) => {
    if (!keepable(response)) return;
    const copy = response.clone();
    await keepListsAgain();
    await keepPage(request.url, copy, before, asked);
  }).catch(() => {}));
  const copy = () => caches.match(request.url, { cacheName: PAGES });
  // Slow: the copy if there is one, else whatever the network brings.
  const slow = new Promise((resolve) => setTimeout(resolve, NETWORK_PATIENCE_MS)).then(async () => {
    const kept = await copy();
    return kept ? offline(kept) : network;
  });
  try {
    return await Promise.race([network, slow]);
  } catch (unreachable) {
    const kept = await copy();
    if (kept) return offline(kept);
    throw unreachable;
  }
}

// The copy as it is shown offline: marked with when it was saved, for the banner. That is the
// server's `Date`, which every answer carries (libmicrohttpd adds it): the page was made then.
async function offline(copy) {
  const saved = new Date(copy.headers.get("Date")).toISOString();
  const html = (await copy.text()).replace("<html", `<html data-offline-copy="${saved}"`);
  const headers = new Headers(copy.headers);
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  return new Response(html, { status: copy.status, statusText: copy.statusText, headers });
}

async function fileFromCopyFirst(event) {
  const request = event.request;
  const before = generation;
  const kept = await caches.match(request, { cacheName: FILES });
  if (kept) {
    // A file the server may still change (no `immutable`) is asked for again behind the copy.
    if (!/\bimmutable\b/.test(kept.headers.get("Cache-Control") || "")) event.waitUntil(keepFile(request.url, before).catch(() => {}));
    return kept;
  }
  const response = await fetch(request);
  if (keepable(response)) event.waitUntil(store(FILES, request.url, response.clone(), before).catch(() => {}));
  return response;
}

// Stores an answer unless every copy was dropped since it was asked for, or (`asked`, for pages)
// the copy kept was asked for later.
// Addresses are compared without their fragment, as the cache itself matches them: `/plan#day-…`
// (a form's answer, at the day it changed) and `/plan` are one copy, and an older answer of either
// never replaces a newer one.
async function store(cacheName, key, response, before, asked) {
  const address = String(key).split("#")[0];
  const cache = await caches.open(cacheName);
  if (generation !== before) return;
  if (asked !== undefined) {
    if (asked < (newest.get(address) || 0)) return;
    newest.set(address, asked);
  }
  await cache.put(address, response);
}

async function keepFile(url, before) {
  const response = await fetch(url);
  if (keepable(response)) await store(FILES, url, response, before);
}

// A page's copy, and the files it uses that are not kept yet: thumbnails below the first screen
// (loaded lazily) and those of a list never opened are fetched here.
async function keepPage(url, response, before, asked) {
  const html = await response.clone().text();
  await store(PAGES, url, response, before, asked);
  const files = await caches.open(FILES);
  const used = [...html.matchAll(/<(?:img|script)\b[^>]*?\ssrc="([^"]+)"|<link\b[^>]*?\shref="([^"]+)"/g)]
    .map((match) => new URL((match[1] || match[2]).replaceAll("&amp;", "&"), self.location.origin))
    .filter((url) => url.origin === self.location.origin && keptFile(url));
  await Promise.all([...new Set(used.map(String))].map(async (url) => {
    if (!(await files.match(url))) await keepFile(url, before).catch(() => {});
  }));
}

function keepListsAgain() {
  if (!listsRoundQueued) {
    listsRoundQueued = true;
    listsRound = listsRound.then(() => {
      listsRoundQueued = false;
      return keepLists().catch(() => { /* an index that cannot be read: the copies stay as they are */ });
    });
  }
  return listsRound;
}

// Every shopping list of the household, from the index the server keeps for the member signed
// in. The index also says who that is: copies of another member's are dropped first, and all
// of them when no one is signed in any more (the sign-in page answers instead). Offline, the
// copies stay as they are.
async function keepLists() {
  let response;
  try {
    response = await fetch(INDEX, { cache: "no-store" });
  } catch (offline) {
    return;
  }
  if (response.redirected) return forget();
  if (!response.ok) return;
  const index = await response.clone().json();
  const earlier = await caches.match(INDEX, { cacheName: PAGES });
  const previous = earlier ? await earlier.json() : null;
  // Copies kept before any index was read are nobody's for sure: dropped as well.
  if (!previous || previous.member !== index.member) await forget();
  const before = generation;
  await store(PAGES, INDEX, response, before);
  const pages = await caches.open(PAGES);
  // A list deleted since is no longer kept.
  if (previous && previous.member === index.member) {
    await Promise.all(previous.lists.filter((list) => !index.lists.includes(list)).map((list) => pages.delete(list)));
  }
  await Promise.all(index.lists.map(async (list) => {
    try {
      const asked = ++asks;
      const page = await fetch(list);
      if (keepable(page)) await keepPage(new URL(list, self.location.origin).href, page, before, asked);
    } catch (unreachable) {
      // Kept as it was; the next page from the network tries again.
    }
  }));
}
