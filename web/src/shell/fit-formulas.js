/**
 * Display formulas that fit the text column: KaTeX sizes a formula in em, so one wider than its
 * box (a phone) is drawn at a smaller font size, just enough to fit, down to MIN_SCALE of its own
 * size; when the column widens again it grows back. Formulas that would need more than that are
 * broken into lines in the lesson instead (a learner should not swipe a formula sideways).
 *
 *   const stop = fitFormulas(lessonBody);   // fits now and whenever the column's width changes
 */
export const MIN_SCALE = 0.7;

/** Fits every .katex-display under `root` now; returns how many were scaled. */
export function fitNow(root) {
  const boxes = [...root.querySelectorAll('.katex-display')];
  for (const box of boxes) box.style.fontSize = '';
  // measure every box first, then write: one layout for the lot
  const scales = boxes.map((box) => {
    const need = box.scrollWidth;
    const room = box.clientWidth;
    return need > room + 0.5 && room > 0 ? Math.max(MIN_SCALE, Math.floor((room / need) * 980) / 1000) : 1;
  });
  boxes.forEach((box, i) => {
    if (scales[i] < 1) box.style.fontSize = `${(scales[i] * 100).toFixed(1)}%`;
  });
  return scales.filter((s) => s < 1).length;
}

/** Fits the formulas of `root` now and again after each change of its width. Returns a stop function. */
export function fitFormulas(root) {
  fitNow(root);
  if (typeof ResizeObserver === 'undefined') return () => {};
  let width = root.clientWidth;
  let frame = 0;
  const observer = new ResizeObserver(() => {
    if (root.clientWidth === width) return; // its own height changes as formulas fit: nothing to do
    width = root.clientWidth;
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => fitNow(root)); // outside the observer's delivery
  });
  observer.observe(root);
  return () => {
    cancelAnimationFrame(frame);
    observer.disconnect();
  };
}
