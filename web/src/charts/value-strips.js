/**
 * Where a mixture lands among the values, one coordinate at a time: a number line per
 * coordinate (row) with the values as labelled dots, the stretch between the smallest and the
 * largest of them shaded (a mixture with weights ≥ 0 summing to 1 cannot leave it), one
 * highlighted mark (a ring, e.g. the mixture y) and optionally a stray mark (a cross, e.g. a
 * weighted sum whose weights break a rule). All rows share one scale, with ticks at the bottom.
 * Rows are created when their number changes; update() moves them.
 *
 *   const strips = createValueStrips(el, { title: 'Where y lands' });
 *   strips.update({
 *     rows: [{ label: 'dim 0', groups: [{ x: 0, label: 'v1, v2' }, { x: 1, label: 'v0, v3' }],
 *              span: [0, 1], mark: 0.7, stray: null }],
 *     domain: [0, 3], markLabel: 'y', stale: false,
 *   });
 *
 * Text sizes come from the figure's CSS (ems), never fixed here.
 */
import { linearScale, niceTicks } from './scale.js';
import { setAttributes, svgElement } from './svg.js';

const WIDTH = 480;
const ROW = 58;
const TOP = 6;
const AXIS = 30;
const MARGIN = { left: 64, right: 20 };
const LABEL_GAP = 44; // groups closer than this (in viewBox units) put their labels on two levels

/**
 * @param {Element} container
 * @param {{ title?: string }} [options]
 */
export function createValueStrips(container, { title = 'Where the mixture lands, coordinate by coordinate' } = {}) {
  const svg = svgElement('svg', { viewBox: `0 0 ${WIDTH} ${TOP + ROW + AXIS}`, role: 'img', class: 'value-strips' });
  svg.setAttribute('aria-label', title);
  svgElement('title', {}, svg).textContent = title;
  const axis = svgElement('g', { class: 'axes', 'aria-hidden': 'true' }, svg);
  const body = svgElement('g', { class: 'rows', 'aria-hidden': 'true' }, svg);
  container.append(svg);
  let rows = [];

  function makeRows(n) {
    body.replaceChildren();
    rows = Array.from({ length: n }, (_, r) => {
      const g = svgElement('g', { class: 'strip', 'data-row': r, transform: `translate(0 ${TOP + r * ROW})` }, body);
      const name = svgElement(
        'text',
        { x: MARGIN.left - 12, y: ROW / 2 + 4, 'text-anchor': 'end', class: 'row-label' },
        g,
      );
      svgElement('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: ROW / 2, y2: ROW / 2, class: 'grid' }, g);
      const span = svgElement('rect', { y: ROW / 2 - 5, height: 10, rx: 5, class: 'span' }, g);
      const dots = svgElement('g', { class: 'values' }, g);
      const stray = svgElement('path', { class: 'stray' }, g);
      const mark = svgElement('g', { class: 'mark' }, g);
      svgElement('circle', { r: 7, cy: ROW / 2, class: 'mark-ring' }, mark);
      svgElement('circle', { r: 2.5, cy: ROW / 2, class: 'mark-dot' }, mark);
      const markText = svgElement('text', { y: ROW - 2, 'text-anchor': 'middle', class: 'mark-label' }, mark);
      return { name, span, dots, stray, mark, markText };
    });
  }

  return {
    svg,
    /**
     * @param {{ rows: { label: string, groups: { x: number, label: string }[], span: [number, number],
     *   mark: number | null, stray: number | null }[], domain: [number, number], markLabel?: string,
     *   stale?: boolean }} next
     */
    update({ rows: data, domain, markLabel = 'y', stale = false }) {
      const height = TOP + data.length * ROW + AXIS;
      svg.setAttribute('viewBox', `0 0 ${WIDTH} ${height}`);
      if (rows.length !== data.length) makeRows(data.length);
      const x = linearScale(domain, [MARGIN.left, WIDTH - MARGIN.right]);
      axis.replaceChildren();
      for (const t of niceTicks(domain[0], domain[1], 6)) {
        svgElement('line', { x1: x(t), x2: x(t), y1: TOP, y2: height - AXIS + 4, class: 'grid' }, axis);
        svgElement('text', { x: x(t), y: height - 8, 'text-anchor': 'middle', class: 'tick' }, axis).textContent =
          String(t);
      }
      svg.classList.toggle('stale', stale);
      data.forEach((row, r) => {
        const el = rows[r];
        el.name.textContent = row.label;
        setAttributes(el.span, { x: x(row.span[0]) - 5, width: x(row.span[1]) - x(row.span[0]) + 10 });
        el.dots.replaceChildren();
        let lastX = -Infinity;
        let level = 0;
        for (const group of row.groups) {
          const gx = x(group.x);
          level = gx - lastX < LABEL_GAP ? 1 - level : 0;
          lastX = gx;
          svgElement('circle', { cx: gx, cy: ROW / 2, r: 5, class: 'value-dot', 'data-value': group.x }, el.dots);
          const text = svgElement(
            'text',
            { x: gx, y: ROW / 2 - 10 - level * 14, 'text-anchor': 'middle', class: 'value-label' },
            el.dots,
          );
          text.textContent = group.label;
        }
        const hasMark = row.mark !== null && Number.isFinite(row.mark);
        el.mark.style.display = hasMark ? '' : 'none';
        if (hasMark) {
          el.mark.setAttribute('transform', `translate(${x(row.mark)} 0)`);
          el.mark.setAttribute('data-value', String(row.mark));
          el.markText.textContent = stale ? `${markLabel} (last valid)` : markLabel;
        }
        const hasStray = row.stray !== null && row.stray !== undefined && Number.isFinite(row.stray);
        el.stray.style.display = hasStray ? '' : 'none';
        if (hasStray) {
          const sx = x(row.stray);
          const c = ROW / 2;
          el.stray.setAttribute('d', `M${sx - 6},${c - 6}L${sx + 6},${c + 6}M${sx - 6},${c + 6}L${sx + 6},${c - 6}`);
          el.stray.setAttribute('data-value', String(row.stray));
        }
      });
    },
  };
}
