// Waiting for the page to draw, bounded. page.evaluate has no timeout of its own: a page that
// stopped drawing frames would hold a test until the runner gives up on it, so this fails, named,
// after FRAME_TIMEOUT_MS instead.

export const FRAME_TIMEOUT_MS = 20000;

/** Resolves once `page` has drawn `count` more frames (two by default: what a change caused is drawn). */
export function nextFrames(page, count = 2) {
  return page.evaluate(
    async ({ count: n, limit }) => {
      for (let i = 0; i < n; i++) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no animation frame for ${limit / 1000} s`)), limit);
          requestAnimationFrame(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    { count, limit: FRAME_TIMEOUT_MS },
  );
}
