/**
 * Embed mode (#/<lesson>?embed=1 in an iframe): tells the parent page how tall
 * the content is, on load and on every change, as
 *   { type: 'attnbook:height', height }   (CSS pixels, rounded up)
 * so the host can size the iframe to fit. Nothing is posted outside an iframe.
 *
 * @returns {() => void} stops the reports
 */
export function startHeightReports(target = document.body) {
  if (window.parent === window || typeof ResizeObserver === 'undefined') return () => {};
  let last = -1;
  const post = () => {
    const height = Math.ceil(target.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'attnbook:height', height }, '*');
  };
  const observer = new ResizeObserver(post);
  observer.observe(target);
  window.addEventListener('load', post);
  post();
  return () => {
    observer.disconnect();
    window.removeEventListener('load', post);
  };
}
