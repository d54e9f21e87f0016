/**
 * A bar chart of a vector, drawn as SVG into `container`, optionally editable.
 * Elements are created once; update() only moves them, so it is cheap enough
 * to call on every input event (a drag stays at 60 fps).
 *
 *   const chart = createBarChart(container, { labels: ['Pos 0', 'Pos 1'], max: 1 });
 *   chart.update([0.3, 0.7]);
 *
 * Editable charts (editable: true) make each bar a focusable role="slider":
 * drag it with a pointer (mouse, pen or touch, with pointer capture) or use
 * ArrowUp/ArrowDown (step), PageUp/PageDown (10 steps), Home/End (min/max).
 * onInput(values, index) runs on every change, onChange(values, index) when an
 * edit is complete (pointer released, or each key press).
 */
import { linearScale, niceStep, niceTicks } from './scale.js';
import { setAttributes, svgElement } from './svg.js';

const WIDTH = 480;
const HEIGHT = 240;
const MARGIN = { top: 22, right: 12, bottom: 30, left: 44 };

/**
 * @param {Element} container where the chart's <svg> is placed
 * @param {{ labels: string[], max?: number, min?: number, title?: string,
 *   format?: (v: number) => string, editable?: boolean, step?: number,
 *   onInput?: (values: number[], index: number) => void,
 *   onChange?: (values: number[], index: number) => void }} options
 * @returns {{ update(values: ArrayLike<number>): void, values: number[], svg: SVGSVGElement, size: number }}
 */
export function createBarChart(container, options) {
  const { labels, title = 'Bar chart', format = (v) => v.toFixed(3), editable = false } = options;
  const max = options.max ?? 1;
  const min = options.min ?? 0;
  const step = options.step ?? niceStep(max - min, 100);
  const svg = svgElement('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: editable ? 'group' : 'img',
    class: `bar-chart${editable ? ' editable' : ''}`,
    'aria-label': title,
  });
  svgElement('title', {}, svg).textContent = title;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const bottom = HEIGHT - MARGIN.bottom;
  const y = linearScale([min, max], [bottom, MARGIN.top]);
  const clamp = (v) => Math.min(Math.max(v, min), max);
  const snap = (v) => clamp(Math.round(v / step) * step);
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));

  const ticks = max === 1 && min === 0 ? [0, 0.5, 1] : niceTicks(min, max, 4);
  for (const tick of ticks) {
    const ty = y(tick);
    svgElement('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: ty, y2: ty, class: 'grid' }, svg);
    svgElement('text', { x: MARGIN.left - 6, y: ty + 4, class: 'tick', 'text-anchor': 'end' }, svg).textContent =
      String(tick);
  }
  const zero = y(clamp(0));
  if (min < 0)
    svgElement('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: zero, y2: zero, class: 'axis' }, svg);

  const values = labels.map(() => 0);
  const band = plotWidth / labels.length;
  const bars = labels.map((label, i) => {
    const x = MARGIN.left + band * i + band * 0.15;
    const width = band * 0.7;
    const hit = editable
      ? svgElement(
          'rect',
          {
            x: MARGIN.left + band * i,
            width: band,
            y: MARGIN.top,
            height: bottom - MARGIN.top,
            class: 'hit',
            fill: 'transparent',
            'data-export': 'skip',
          },
          svg,
        )
      : null;
    const rect = svgElement('rect', { x, width, y: zero, height: 0, class: 'bar', 'data-index': i }, svg);
    if (editable) {
      // a drag target without any CSS: the pointer may grab the whole band, and touch does not scroll
      for (const target of [rect, hit]) Object.assign(target.style, { cursor: 'ns-resize', touchAction: 'none' });
      setAttributes(rect, {
        tabindex: 0,
        role: 'slider',
        'aria-label': `Bar ${label}`,
        'aria-valuemin': min,
        'aria-valuemax': max,
        'aria-orientation': 'vertical',
      });
    }
    const value = svgElement('text', { x: x + width / 2, y: zero - 6, class: 'value', 'text-anchor': 'middle' }, svg);
    value.setAttribute('aria-hidden', 'true');
    svgElement('text', { x: x + width / 2, y: HEIGHT - 10, class: 'label', 'text-anchor': 'middle' }, svg).textContent =
      label;
    return { rect, value, hit };
  });
  container.append(svg);

  function draw(i) {
    const { rect, value } = bars[i];
    const v = values[i];
    const top = y(clamp(v));
    rect.setAttribute('y', String(Math.min(top, zero)));
    rect.setAttribute('height', String(Math.abs(zero - top)));
    rect.setAttribute('data-value', String(v));
    value.setAttribute('y', String(v >= 0 ? Math.min(top, zero) - 6 : Math.max(top, zero) + 14));
    value.textContent = format(v);
    if (editable) {
      rect.setAttribute('aria-valuenow', String(v));
      rect.setAttribute('aria-valuetext', `${labels[i]}: ${format(v)}`);
    }
  }

  function set(i, v, done) {
    const next = Number(snap(v).toFixed(digits));
    if (next !== values[i]) {
      values[i] = next;
      draw(i);
      options.onInput?.(values.slice(), i);
    }
    if (done) options.onChange?.(values.slice(), i);
  }

  if (editable) {
    const layOut = () => svg.getBoundingClientRect();
    const valueAt = (event) => {
      const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
      return y.invert(point.y);
    };
    bars.forEach(({ rect, hit }, i) => {
      let dragging = false;
      // The last position drawn: the frame's pointermove usually repeats the pointerrawupdate
      // before it, and reading the same position again (getScreenCTM) would lay the page out at once.
      let last = null;
      const down = (event) => {
        if (event.button !== 0) return;
        event.preventDefault();
        dragging = true;
        last = null;
        event.currentTarget.setPointerCapture(event.pointerId);
        rect.focus({ preventScroll: true });
        set(i, valueAt(event), false);
      };
      const move = (event) => {
        if (!dragging || (last && event.clientX === last.x && event.clientY === last.y)) return;
        last = { x: event.clientX, y: event.clientY };
        set(i, valueAt(event), false);
      };
      // pointerrawupdate (Chromium, secure contexts such as file:// and localhost) comes as soon as
      // the pointer moves, where pointermove waits for the next frame: the first one in a frame
      // redraws at once, up to a frame sooner; the frame's pointermove brings the latest position.
      // The redraw (and whatever onInput changed on the page) is then laid out in a task of its
      // own, while the page waits for that frame. Otherwise the frame's first step, hit testing
      // its pointermove, would lay the page out, and the frame would show the change later.
      let rawThisFrame = false;
      const rawMove = (event) => {
        if (!dragging || rawThisFrame) return;
        rawThisFrame = true;
        requestAnimationFrame(() => (rawThisFrame = false));
        move(event);
        setTimeout(layOut);
      };
      const up = (event) => {
        if (!dragging) return;
        dragging = false;
        set(i, valueAt(event), true);
      };
      for (const target of [rect, hit]) {
        target.addEventListener('pointerdown', down);
        target.addEventListener('pointermove', move);
        target.addEventListener('pointerrawupdate', rawMove);
        target.addEventListener('pointerup', up);
        target.addEventListener('pointercancel', () => (dragging = false));
      }
      rect.addEventListener('keydown', (event) => {
        const moves = {
          ArrowUp: values[i] + step,
          ArrowRight: values[i] + step,
          ArrowDown: values[i] - step,
          ArrowLeft: values[i] - step,
          PageUp: values[i] + 10 * step,
          PageDown: values[i] - 10 * step,
          Home: min,
          End: max,
        };
        if (!(event.key in moves)) return;
        event.preventDefault();
        set(i, moves[event.key], true);
      });
    });
  }

  return {
    svg,
    size: labels.length,
    get values() {
      return values.slice();
    },
    update(next) {
      for (let i = 0; i < bars.length; i++) {
        values[i] = Number(next[i]);
        draw(i);
      }
    },
    /** Moves keyboard focus to bar i. */
    focus(i) {
      bars[i]?.rect.focus();
    },
  };
}

/**
 * Grouped bars: one group per label, one bar per series (e.g. softmax weights
 * of each position at three temperatures), with a legend. Series are told
 * apart by fill (class `series-<k>`, coloured by CSS) and by a pattern of
 * opacity, so they stay distinct in greyscale.
 *
 *   const chart = createGroupedBarChart(container, { labels: ['Pos 0', 'Pos 1'], series: ['τ = 1', 'τ = 5'] });
 *   chart.update([[0.3, 0.7], [0.45, 0.55]]);   // one row per series
 *
 * @param {Element} container
 * @param {{ labels: string[], series: string[], max?: number, min?: number, title?: string,
 *   format?: (v: number) => string }} options
 * @returns {{ update(rows: ArrayLike<number>[]): void, svg: SVGSVGElement }}
 */
export function createGroupedBarChart(container, options) {
  const { labels, series, title = 'Grouped bar chart', format = (v) => v.toFixed(2) } = options;
  const max = options.max ?? 1;
  const min = options.min ?? 0;
  const legendHeight = 22;
  const height = HEIGHT + legendHeight;
  const svg = svgElement('svg', {
    viewBox: `0 0 ${WIDTH} ${height}`,
    role: 'img',
    class: 'bar-chart grouped',
    'aria-label': title,
  });
  svgElement('title', {}, svg).textContent = title;
  const top = MARGIN.top + legendHeight;
  const bottom = height - MARGIN.bottom;
  const y = linearScale([min, max], [bottom, top]);
  const clamp = (v) => Math.min(Math.max(v, min), max);

  // legend: a swatch and a name per series, left to right
  let lx = MARGIN.left;
  series.forEach((name, k) => {
    svgElement('rect', { x: lx, y: 6, width: 12, height: 12, class: `bar series-${k}` }, svg);
    const text = svgElement('text', { x: lx + 16, y: 16, class: 'legend' }, svg);
    text.textContent = name;
    lx += 24 + name.length * 7;
  });

  const ticks = max === 1 && min === 0 ? [0, 0.5, 1] : niceTicks(min, max, 4);
  for (const tick of ticks) {
    const ty = y(tick);
    svgElement('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: ty, y2: ty, class: 'grid' }, svg);
    svgElement('text', { x: MARGIN.left - 6, y: ty + 4, class: 'tick', 'text-anchor': 'end' }, svg).textContent =
      String(tick);
  }
  const zero = y(clamp(0));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const band = plotWidth / labels.length;
  const inner = (band * 0.84) / series.length;
  const bars = series.map((name, k) =>
    labels.map((label, i) => {
      const x = MARGIN.left + band * i + band * 0.08 + inner * k;
      const rect = svgElement(
        'rect',
        { x, width: inner * 0.92, y: zero, height: 0, class: `bar series-${k}`, 'data-series': k, 'data-index': i },
        svg,
      );
      const value = svgElement(
        'text',
        { x: x + inner * 0.46, y: zero - 4, class: 'value', 'text-anchor': 'middle', 'aria-hidden': 'true' },
        svg,
      );
      return { rect, value };
    }),
  );
  labels.forEach((label, i) => {
    svgElement(
      'text',
      { x: MARGIN.left + band * (i + 0.5), y: height - 10, class: 'label', 'text-anchor': 'middle' },
      svg,
    ).textContent = label;
  });
  container.append(svg);

  return {
    svg,
    update(rows) {
      bars.forEach((row, k) =>
        row.forEach(({ rect, value }, i) => {
          const v = Number(rows[k]?.[i] ?? 0);
          const ty = y(clamp(v));
          rect.setAttribute('y', String(Math.min(ty, zero)));
          rect.setAttribute('height', String(Math.abs(zero - ty)));
          rect.setAttribute('data-value', String(v));
          value.setAttribute('y', String(Math.min(ty, zero) - 4));
          value.textContent = format(v);
        }),
      );
    },
  };
}
