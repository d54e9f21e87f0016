/**
 * Starts the app shell around <attn-app> (web/index.html): applies the stored
 * colour theme and makes the skip link move focus to the main content without
 * touching the hash (which holds the route). Over http(s) it also registers
 * the offline service worker (offline.js), except inside an LMS (`?lms=…`,
 * scorm.js), where the LMS serves the package and a worker would only get in its way.
 */
import { applyTheme, storedTheme } from './theme.js';
import { registerOffline } from './offline.js';
import { lmsParam } from './scorm-api.js';

export function startApp() {
  applyTheme(storedTheme());
  for (const link of document.querySelectorAll('a.skip-link')) {
    link.addEventListener('click', (event) => {
      const target = document.getElementById(link.getAttribute('href').slice(1));
      if (!target) return;
      event.preventDefault();
      target.focus();
    });
  }
  const { version, issue } = lmsParam(location.search);
  if (!version && !issue) registerOffline();
}
