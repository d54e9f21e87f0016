/**
 * whenNearViewport(element, callback, far): calls `callback` once, the first time
 * `element` is on screen or within MARGIN_PX of it (above or below). Returns a
 * function that stops watching (for disconnectedCallback). `far` (optional) is
 * called once if the first report on the element finds it away from the
 * viewport (or hidden), so it will not draw until scrolled to.
 *
 * Two shared watchers, because each is late in a different case:
 * - a ResizeObserver: the browser runs its callbacks in the frame that first
 *   lays the element out, after layout and before paint, so a cell that is on
 *   screen when its page opens draws in that very frame (an
 *   IntersectionObserver reports one frame and one task later);
 * - an IntersectionObserver: for elements that come near the viewport later,
 *   when the page scrolls.
 * The ResizeObserver's callback reads every element's position before calling
 * any callback, so the cells it starts cost one layout, not one each.
 */
export const MARGIN_PX = 200;

const watched = new Map(); // element -> { callback, far }

function reached(element) {
  const watch = watched.get(element);
  if (!watch) return;
  forget(element);
  watch.callback();
}

function away(element) {
  const watch = watched.get(element);
  if (!watch?.far) return;
  const { far } = watch;
  watch.far = null; // once: the first report only
  far();
}

function forget(element) {
  watched.delete(element);
  intersections?.unobserve(element);
  sizes?.unobserve(element);
}

const intersections =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (entry.isIntersecting) reached(entry.target);
            else away(entry.target);
          }
        },
        { rootMargin: `${MARGIN_PX}px 0px` },
      )
    : null;

const sizes =
  typeof ResizeObserver === 'function'
    ? new ResizeObserver((entries) => {
        const near = entries.map((entry) => entry.target).filter((element) => nearViewport(element));
        for (const entry of entries) sizes.unobserve(entry.target); // its first layout is all it watches for
        for (const element of near) reached(element);
      })
    : null;

function nearViewport(element) {
  if (!watched.has(element) || !element.isConnected) return false;
  const box = element.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return false;
  const height = globalThis.innerHeight ?? 0;
  return box.bottom >= -MARGIN_PX && box.top <= height + MARGIN_PX;
}

/** @param {Element} element @param {() => void} callback @param {() => void} [far] @returns {() => void} stops watching */
export function whenNearViewport(element, callback, far) {
  if (!intersections) {
    callback(); // no way to tell: treat it as visible
    return () => {};
  }
  watched.set(element, { callback, far });
  intersections.observe(element);
  sizes?.observe(element);
  return () => forget(element);
}
