/**
 * A 2-D scatter of draggable points with their convex hull, and an optional
 * cloud of small "mixture" dots behind them (SVG circles up to CANVAS_LIMIT
 * dots, a canvas beyond). Axes have ticks at round numbers. Elements are
 * created once; update() moves them.
 *
 *   const plot = createScatterHull(el, { onInput: (points, i) => …, onChange: (points, i) => … });
 *   plot.update({ points, hull, mixtures, inside, domain: { x: [0, 6], y: [0, 5] } });
 *
 * Optional in update(): `path` (points drawn as a dashed polyline, e.g. the way a
 * mixture moves as a parameter changes) and `highlight` (one point drawn as a
 * ring, e.g. the mixture under study) with `highlightLabel`.
 *
 * Each point is focusable: arrow keys move it by a tenth of the tick step,
 * Shift+arrow by half a step; a pointer (mouse, pen, touch) drags it, from anywhere in an
 * invisible circle around it 48 px across as drawn, however far the plot is scaled down (its
 * radius follows --units-per-px, the viewBox units per CSS pixel that AttnFigure sets).
 * Points are named v0, v1, … unless `pointLabel` says otherwise (counted from 0, as the code).
 */
import { cssVariable, svgDocument } from './export.js';
import { formatDecimals, linearScale, niceDomain, niceStep, niceTicks } from './scale.js';
import { setAttributes, svgElement } from './svg.js';

export const CANVAS_LIMIT = 500;

const WIDTH = 420;
const HEIGHT = 360;
const MARGIN = { top: 14, right: 16, bottom: 34, left: 40 };
const HIT_RADIUS_PX = 24; // the drag target: 48 px across as drawn (at least 44 px, after rounding)
const PLOT = {
  x: MARGIN.left,
  y: MARGIN.top,
  w: WIDTH - MARGIN.left - MARGIN.right,
  h: HEIGHT - MARGIN.top - MARGIN.bottom,
};

/**
 * The plot's domain for a set of points ([x, y] rows): each axis padded by 12 % (at least 0.5)
 * and widened to round numbers.
 */
export function scatterDomain(points) {
  const axis = (values) => {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const pad = Math.max((hi - lo) * 0.12, 0.5);
    return niceDomain(lo - pad, hi + pad, 6);
  };
  return { x: axis(points.map((p) => p[0])), y: axis(points.map((p) => p[1])) };
}

/**
 * @param {Element} container
 * @param {{ title?: string, pointLabel?: (i: number) => string,
 *   onInput?: (points: number[][], index: number) => void, onChange?: (points: number[][], index: number) => void }} options
 */
export function createScatterHull(container, options = {}) {
  const { title = 'Scatter plot with convex hull', pointLabel = (i) => `v${i}` } = options;
  const wrap = document.createElement('div');
  wrap.className = 'scatter';
  wrap.style.position = 'relative';
  const canvas = document.createElement('canvas');
  canvas.className = 'mixtures-canvas';
  canvas.width = PLOT.w * 2;
  canvas.height = PLOT.h * 2;
  canvas.hidden = true;
  canvas.setAttribute('aria-hidden', 'true');
  Object.assign(canvas.style, {
    position: 'absolute',
    left: `${(100 * PLOT.x) / WIDTH}%`,
    top: `${(100 * PLOT.y) / HEIGHT}%`,
    width: `${(100 * PLOT.w) / WIDTH}%`,
    height: `${(100 * PLOT.h) / HEIGHT}%`,
    pointerEvents: 'none',
  });
  const svg = svgElement('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: 'group',
    'aria-label': title,
    class: 'scatter-svg',
  });
  svg.style.position = 'relative';
  wrap.append(canvas, svg);
  container.append(wrap);

  const axes = svgElement('g', { class: 'axes', 'aria-hidden': 'true' }, svg);
  const dots = svgElement('g', { class: 'mixtures', 'aria-hidden': 'true', 'data-layer': 'mixtures' }, svg);
  const hullPath = svgElement('polygon', { class: 'hull', points: '' }, svg);
  const trail = svgElement('polyline', { class: 'path', points: '', fill: 'none', 'aria-hidden': 'true' }, svg);
  const mark = svgElement('g', { class: 'highlight', 'aria-hidden': 'true' }, svg);
  const markRing = svgElement('circle', { r: 7 }, mark);
  const markDot = svgElement('circle', { r: 2.5, class: 'highlight-dot' }, mark);
  const markText = svgElement('text', { class: 'highlight-label' }, mark);
  mark.style.display = 'none';
  const hits = svgElement('g', { class: 'point-hits', 'aria-hidden': 'true', 'data-export': 'skip' }, svg);
  const layer = svgElement('g', { class: 'points' }, svg);

  let x = linearScale([0, 1], [PLOT.x, PLOT.x + PLOT.w]);
  let y = linearScale([0, 1], [PLOT.y + PLOT.h, PLOT.y]);
  let domain = { x: [0, 1], y: [0, 1] };
  let steps = { x: 0.1, y: 0.1 };
  let domainKey = '';
  let points = [];
  let handles = [];

  function drawAxes() {
    axes.replaceChildren();
    for (const t of niceTicks(domain.x[0], domain.x[1], 6)) {
      svgElement('line', { x1: x(t), x2: x(t), y1: PLOT.y, y2: PLOT.y + PLOT.h, class: 'grid' }, axes);
      svgElement(
        'text',
        { x: x(t), y: PLOT.y + PLOT.h + 16, 'text-anchor': 'middle', class: 'tick' },
        axes,
      ).textContent = String(t);
    }
    for (const t of niceTicks(domain.y[0], domain.y[1], 6)) {
      svgElement('line', { x1: PLOT.x, x2: PLOT.x + PLOT.w, y1: y(t), y2: y(t), class: 'grid' }, axes);
      svgElement('text', { x: PLOT.x - 6, y: y(t) + 4, 'text-anchor': 'end', class: 'tick' }, axes).textContent =
        String(t);
    }
    svgElement('rect', { x: PLOT.x, y: PLOT.y, width: PLOT.w, height: PLOT.h, fill: 'none', class: 'axis' }, axes);
  }

  const clampTo = ([lo, hi], v) => Math.min(Math.max(v, lo), hi);
  const round = (v, step) => Number((Math.round(v / (step / 10)) * (step / 10)).toFixed(6));

  function setPoint(i, px, py, done) {
    const next = [round(clampTo(domain.x, px), steps.x), round(clampTo(domain.y, py), steps.y)];
    if (next[0] !== points[i][0] || next[1] !== points[i][1]) {
      points[i] = next;
      placeHandle(i);
      options.onInput?.(
        points.map((p) => p.slice()),
        i,
      );
    }
    if (done)
      options.onChange?.(
        points.map((p) => p.slice()),
        i,
      );
  }

  function placeHandle(i) {
    const { dot, hit, text } = handles[i];
    const [px, py] = points[i];
    setAttributes(hit, { cx: x(px), cy: y(py) });
    setAttributes(dot, {
      cx: x(px),
      cy: y(py),
      'aria-label': `Point ${pointLabel(i)} at (${formatDecimals(px, 3)}, ${formatDecimals(py, 3)})`,
      'data-x': px,
      'data-y': py,
    });
    setAttributes(text, { x: x(px) + 10, y: y(py) - 10 });
  }

  function makeHandles(n) {
    layer.replaceChildren();
    hits.replaceChildren();
    handles = Array.from({ length: n }, (_, i) => {
      const hit = svgElement(
        'circle',
        { r: HIT_RADIUS_PX, class: 'point-hit', fill: 'transparent', 'data-index': i },
        hits,
      );
      Object.assign(hit.style, {
        r: `calc(${HIT_RADIUS_PX}px * var(--units-per-px, 1))`,
        cursor: 'grab',
        touchAction: 'none',
      });
      const dot = svgElement(
        'circle',
        {
          r: 8,
          class: 'point',
          tabindex: 0,
          role: 'button',
          'aria-roledescription': 'draggable point',
          'data-index': i,
        },
        layer,
      );
      const text = svgElement('text', { class: 'point-label', 'aria-hidden': 'true' }, layer);
      text.textContent = pointLabel(i);
      let dragging = false;
      let offset = [0, 0]; // from the pointer to the point, so grabbing beside it does not make it jump
      const at = (event) => {
        const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
        return [x.invert(p.x) + offset[0], y.invert(p.y) + offset[1]];
      };
      for (const target of [hit, dot]) {
        target.addEventListener('pointerdown', (event) => {
          if (event.button !== 0) return;
          event.preventDefault();
          dragging = true;
          offset = [0, 0];
          const [px, py] = at(event);
          offset = [points[i][0] - px, points[i][1] - py];
          target.setPointerCapture(event.pointerId);
          dot.focus({ preventScroll: true });
        });
        target.addEventListener('pointermove', (event) => dragging && setPoint(i, ...at(event), false));
        target.addEventListener('pointerup', (event) => {
          if (!dragging) return;
          dragging = false;
          setPoint(i, ...at(event), true);
        });
        target.addEventListener('pointercancel', () => (dragging = false));
      }
      dot.addEventListener('keydown', (event) => {
        const k = event.shiftKey ? 5 : 1;
        const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key] ?? [
          0, 0,
        ];
        if (!dx && !dy) return;
        event.preventDefault();
        setPoint(i, points[i][0] + (dx * k * steps.x) / 10, points[i][1] + (dy * k * steps.y) / 10, true);
      });
      return { dot, hit, text };
    });
  }

  function drawMixtures(mixtures, inside) {
    const m = mixtures?.length ?? 0;
    const useCanvas = m > CANVAS_LIMIT;
    canvas.hidden = !useCanvas;
    wrap.dataset.mixtures = useCanvas ? 'canvas' : 'svg';
    if (useCanvas) {
      dots.replaceChildren();
      const context = canvas.getContext('2d');
      context.clearRect(0, 0, canvas.width, canvas.height);
      const colours = [cssVariable(container, '--danger', '#b3261e'), cssVariable(container, '--muted', '#555d6b')];
      const sx = canvas.width / PLOT.w;
      for (const pass of [1, 0]) {
        context.fillStyle = colours[pass];
        context.beginPath();
        for (let j = 0; j < m; j++) {
          if ((inside ? inside[j] : 1) !== pass) continue;
          const cx = (x(mixtures[j][0]) - PLOT.x) * sx;
          const cy = (y(mixtures[j][1]) - PLOT.y) * sx;
          context.moveTo(cx + 4, cy);
          context.arc(cx, cy, 4, 0, 2 * Math.PI);
        }
        context.fill();
      }
      return;
    }
    while (dots.childElementCount > m) dots.lastChild.remove();
    while (dots.childElementCount < m) svgElement('circle', { r: 2.2, class: 'mixture' }, dots);
    for (let j = 0; j < m; j++) {
      const dot = dots.children[j];
      setAttributes(dot, { cx: x(mixtures[j][0]), cy: y(mixtures[j][1]) });
      dot.classList.toggle('outside', inside ? !inside[j] : false);
    }
  }

  return {
    svg,
    update(next) {
      const key = JSON.stringify(next.domain);
      if (key !== domainKey) {
        domainKey = key;
        domain = next.domain;
        x = linearScale(domain.x, [PLOT.x, PLOT.x + PLOT.w]);
        y = linearScale(domain.y, [PLOT.y + PLOT.h, PLOT.y]);
        steps = { x: niceStep(domain.x[1] - domain.x[0], 6), y: niceStep(domain.y[1] - domain.y[0], 6) };
        drawAxes();
      }
      points = next.points.map((p) => [Number(p[0]), Number(p[1])]);
      if (handles.length !== points.length) makeHandles(points.length);
      points.forEach((_, i) => placeHandle(i));
      const hull = next.hull ?? [];
      hullPath.setAttribute('points', Array.from(hull, (i) => `${x(points[i][0])},${y(points[i][1])}`).join(' '));
      drawMixtures(next.mixtures, next.inside);
      const path = next.path ?? [];
      trail.setAttribute('points', path.map((p) => `${x(p[0])},${y(p[1])}`).join(' '));
      const h = next.highlight;
      mark.style.display = h ? '' : 'none';
      if (h) {
        for (const c of [markRing, markDot]) setAttributes(c, { cx: x(h[0]), cy: y(h[1]) });
        setAttributes(markText, { x: x(h[0]) + 10, y: y(h[1]) + 16, 'data-x': h[0], 'data-y': h[1] });
        markText.textContent = next.highlightLabel ?? '';
      }
    },
    /** A self-contained SVG document (mixtures drawn as SVG circles even when a canvas shows them). */
    exportSvg(mixtures, inside) {
      return svgDocument(svg, {
        edit(copy) {
          if (canvas.hidden || !mixtures) return;
          const g = copy.querySelector('[data-layer="mixtures"]') ?? copy;
          const colours = [cssVariable(container, '--danger', '#b3261e'), cssVariable(container, '--muted', '#555d6b')];
          for (let j = 0; j < mixtures.length; j++) {
            const c = svgElement('circle', {
              cx: x(mixtures[j][0]),
              cy: y(mixtures[j][1]),
              r: 2,
              fill: colours[inside?.[j] ?? 1],
            });
            g.append(c);
          }
        },
      });
    },
  };
}
