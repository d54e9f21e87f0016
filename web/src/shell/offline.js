/**
 * Offline after the first visit: registers the service worker sw.js (built from
 * web/sw.js by scripts/vite-sw-plugin.mjs, at the site root beside index.html)
 * with scope './', which precaches the whole site.
 *
 * Only over http: and https: with service workers available, and not under the
 * Vite dev server (which has no precache list). The single file opened from
 * file:// never registers anything: it needs no network in the first place.
 * Registration waits for the page's load event so it does not compete with the
 * first lesson for bandwidth. A failure is a console warning, never an error in
 * the page: the site then simply works online only.
 */
export function registerOffline(win = window) {
  const { location, navigator } = win;
  if (!/^https?:$/.test(location.protocol) || !('serviceWorker' in navigator)) return false;
  if (import.meta.env?.DEV) return false;
  const register = () =>
    navigator.serviceWorker.register('./sw.js', { scope: './' }).catch((error) => {
      console.warn(`attnbook: offline use is not available (the service worker did not register: ${error?.message})`);
    });
  if (win.document.readyState === 'complete') register();
  else win.addEventListener('load', register, { once: true });
  return true;
}
