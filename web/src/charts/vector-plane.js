/**
 * A square plane of 2-D vectors, drawn as SVG into `container`: points (circles, squares or
 * diamonds, each with a short label), arrows from the origin, optional dashed links between two
 * points, and at most one draggable handle (a pointer drags it; focused, the arrow keys call
 * onKey). The axes are fixed at creation (domain [−r, r] on both axes); update() moves the marks.
 *
 *   const plane = createVectorPlane(el, { title: 'Queries and keys', radius: 5, onDrag, onKey });
 *   plane.update({
 *     points: [{ at: [1, 2], label: 'k0', shape: 'square', className: 'key', id: 'k0' }],
 *     arrows: [{ to: [0.5, 1], label: 'q2', className: 'query' }],
 *     links: [{ from: [0.5, 1], to: [1, 2], className: 'pick' }],
 *     handle: { at: [0.5, 1], label: 'Query of token 2', valueText: '…', value: 0, min: -180, max: 180 },
 *   });
 *
 * Labels are SVG text sized in the plane's font (AttnFigure keeps it ≥ 11.5 px as rendered).
 * Every point carries data-x, data-y and data-label, for tests and exports.
 */
import { linearScale, niceTicks } from './scale.js';
import { setAttributes, svgElement } from './svg.js';

const SIZE = 360;
const MARGIN = 28;
const HIT_RADIUS_PX = 24; // a 48 px drag target as drawn

/**
 * @param {Element} container
 * @param {{ title: string, radius: number, onDrag?: (at: [number, number], done: boolean) => void,
 *   onKey?: (key: string, event: KeyboardEvent) => boolean }} options
 */
export function createVectorPlane(container, { title, radius, onDrag, onKey }) {
  const svg = svgElement('svg', { viewBox: `0 0 ${SIZE} ${SIZE}`, role: 'group', class: 'vector-plane' });
  svg.setAttribute('aria-label', title);
  container.append(svg);
  const x = linearScale([-radius, radius], [MARGIN, SIZE - MARGIN]);
  const y = linearScale([-radius, radius], [SIZE - MARGIN, MARGIN]);

  const axes = svgElement('g', { class: 'axes', 'aria-hidden': 'true' }, svg);
  for (const t of niceTicks(-radius, radius, 6)) {
    svgElement('line', { x1: x(t), x2: x(t), y1: MARGIN, y2: SIZE - MARGIN, class: 'grid' }, axes);
    svgElement('line', { x1: MARGIN, x2: SIZE - MARGIN, y1: y(t), y2: y(t), class: 'grid' }, axes);
    if (t !== 0) {
      svgElement('text', { x: x(t), y: SIZE - MARGIN + 16, 'text-anchor': 'middle', class: 'tick' }, axes).textContent =
        String(t);
      svgElement('text', { x: MARGIN - 5, y: y(t) + 4, 'text-anchor': 'end', class: 'tick' }, axes).textContent =
        String(t);
    }
  }
  svgElement('line', { x1: x(0), x2: x(0), y1: MARGIN, y2: SIZE - MARGIN, class: 'axis' }, axes);
  svgElement('line', { x1: MARGIN, x2: SIZE - MARGIN, y1: y(0), y2: y(0), class: 'axis' }, axes);
  const defs = svgElement('defs', {}, svg);
  const marker = svgElement(
    'marker',
    {
      id: 'arrow-head',
      viewBox: '0 0 10 10',
      refX: 9,
      refY: 5,
      markerWidth: 7,
      markerHeight: 7,
      orient: 'auto-start-reverse',
    },
    defs,
  );
  svgElement('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }, marker);

  const linkLayer = svgElement('g', { class: 'links', 'aria-hidden': 'true' }, svg);
  const arrowLayer = svgElement('g', { class: 'arrows', 'aria-hidden': 'true' }, svg);
  const pointLayer = svgElement('g', { class: 'points', 'aria-hidden': 'true' }, svg);
  const handleLayer = svgElement('g', { class: 'handle-layer' }, svg);

  const clamp = (v) => Math.max(-radius, Math.min(radius, v));
  const px = ([a, b]) => [x(clamp(a)), y(clamp(b))];

  let handle = null;
  let dragging = false;
  const hit = svgElement('circle', { r: HIT_RADIUS_PX, class: 'handle-hit', fill: 'transparent' }, handleLayer);
  Object.assign(hit.style, {
    r: `calc(${HIT_RADIUS_PX}px * var(--units-per-px, 1))`,
    cursor: 'grab',
    touchAction: 'none',
  });
  const knob = svgElement('circle', { r: 9, class: 'handle', tabindex: 0, role: 'slider' }, handleLayer);
  handleLayer.style.display = 'none';
  const at = (event) => {
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
    return [x.invert(p.x), y.invert(p.y)];
  };
  for (const target of [hit, knob]) {
    target.addEventListener('pointerdown', (event) => {
      if (event.button !== 0 || !handle) return;
      event.preventDefault();
      dragging = true;
      target.setPointerCapture(event.pointerId);
      knob.focus({ preventScroll: true });
    });
    target.addEventListener('pointermove', (event) => dragging && onDrag?.(at(event), false));
    target.addEventListener('pointerup', (event) => {
      if (!dragging) return;
      dragging = false;
      onDrag?.(at(event), true);
    });
    target.addEventListener('pointercancel', () => (dragging = false));
  }
  knob.addEventListener('keydown', (event) => {
    if (onKey?.(event.key, event)) event.preventDefault();
  });

  /** Keeps `layer` at `n` children made by `make`. */
  const fit = (layer, n, make) => {
    while (layer.childElementCount > n) layer.lastChild.remove();
    while (layer.childElementCount < n) make(layer);
  };

  function drawPoint(g, p) {
    const [cx, cy] = px(p.at);
    g.replaceChildren();
    g.setAttribute('class', `point ${p.className ?? ''}`);
    setAttributes(g, { 'data-x': p.at[0], 'data-y': p.at[1], 'data-label': p.label ?? '' });
    if (p.id) g.setAttribute('data-id', p.id);
    const r = p.size ?? 5.5;
    if (p.shape === 'square') svgElement('rect', { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r }, g);
    else if (p.shape === 'diamond')
      svgElement(
        'polygon',
        { points: `${cx},${cy - r * 1.3} ${cx + r * 1.3},${cy} ${cx},${cy + r * 1.3} ${cx - r * 1.3},${cy}` },
        g,
      );
    else svgElement('circle', { cx, cy, r }, g);
    if (p.ring) svgElement('circle', { cx, cy, r: r + 5, class: 'ring' }, g);
    if (p.label) {
      const [dx, dy] = p.labelOffset ?? [8, -8];
      svgElement('text', { x: cx + dx, y: cy + dy, class: 'point-label' }, g).textContent = p.label;
    }
  }

  return {
    svg,
    /** Plane coordinates -> SVG units (for tests that drag). */
    toSvg: px,
    update({ points = [], arrows = [], links = [], handle: next = null }) {
      fit(linkLayer, links.length, (layer) => svgElement('line', {}, layer));
      links.forEach((l, i) => {
        const [x1, y1] = px(l.from);
        const [x2, y2] = px(l.to);
        setAttributes(linkLayer.children[i], { x1, y1, x2, y2, class: `link ${l.className ?? ''}` });
      });
      fit(arrowLayer, arrows.length, (layer) => svgElement('g', {}, layer));
      arrows.forEach((a, i) => {
        const g = arrowLayer.children[i];
        g.replaceChildren();
        g.setAttribute('class', `arrow ${a.className ?? ''}`);
        setAttributes(g, { 'data-x': a.to[0], 'data-y': a.to[1], 'data-label': a.label ?? '' });
        const [x0, y0] = px(a.from ?? [0, 0]);
        const [x1, y1] = px(a.to);
        svgElement('line', { x1: x0, y1: y0, x2: x1, y2: y1, 'marker-end': 'url(#arrow-head)' }, g);
        if (a.label) {
          const [dx, dy] = a.labelOffset ?? [6, -8];
          svgElement('text', { x: x1 + dx, y: y1 + dy, class: 'arrow-label' }, g).textContent = a.label;
        }
      });
      fit(pointLayer, points.length, (layer) => svgElement('g', {}, layer));
      points.forEach((p, i) => drawPoint(pointLayer.children[i], p));
      handle = next;
      handleLayer.style.display = handle ? '' : 'none';
      if (handle) {
        const [cx, cy] = px(handle.at);
        setAttributes(hit, { cx, cy });
        setAttributes(knob, {
          cx,
          cy,
          'aria-label': handle.label,
          'aria-valuetext': handle.valueText,
          'aria-valuenow': handle.value,
          'aria-valuemin': handle.min,
          'aria-valuemax': handle.max,
          'data-x': handle.at[0],
          'data-y': handle.at[1],
        });
      }
    },
  };
}
