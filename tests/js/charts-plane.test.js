// The plane charts' layout rules, in Node (web/src/charts/scatter-layout.js and strips-layout.js
// are pure), on the data the lessons use: at every width from a phone's to a wide screen's, no two
// pieces of text overlap, no label sits on a point, the ring or a dot, nothing is drawn outside the
// chart, a label with no free spot is left out rather than drawn over another, the plot stays
// square-ish, and every drag target is at least 44 px across.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FONT_PX } from '../../web/src/charts/text-width.js';
import {
  BOLD,
  boxesTouch,
  HIT_RADIUS_PX,
  layoutScatter,
  POINT_R,
  RING_R,
  scatterDomain,
  textBox,
} from '../../web/src/charts/scatter-layout.js';
import { DOT_R, layoutStrips, MAX_LEVELS, RING_R as STRIP_RING_R } from '../../web/src/charts/strips-layout.js';
import { roughMeasure } from '../../web/src/charts/text-width.js';
import { stripRows } from '../../web/src/labs/convex-combinations/convex-mix-model.js';

const WIDTHS = [200, 240, 280, 320, 358, 390, 480, 540, 640, 900, 1200];
const regular = (text) => roughMeasure(text, FONT_PX);
const bold = (text) => roughMeasure(text, FONT_PX) * BOLD;
const circle = (cx, cy, r, what) => ({ cx, cy, r, what });
const named = (box, what) => ({ ...box, what });

/** No text box overlaps another text box or a mark, and every text box is inside the chart. */
function assertClear(texts, marks, l, what) {
  for (let i = 0; i < texts.length; i++) {
    const a = texts[i];
    assert.ok(a.left >= -0.5 && a.right <= l.width + 0.5, `${what}: "${a.what}" inside the width ${l.width}`);
    assert.ok(a.top >= -0.5 && a.bottom <= l.height + 0.5, `${what}: "${a.what}" inside the height ${l.height}`);
    for (let j = i + 1; j < texts.length; j++)
      assert.ok(!boxesTouch(a, texts[j], -0.5), `${what}: "${a.what}" overlaps "${texts[j].what}"`);
    for (const m of marks) assert.ok(!boxesTouch(a, m, -0.5), `${what}: "${a.what}" lies on ${m.what}`);
  }
}

// ---- the scatter plot with its hull (the convex-hull lab and <attn-scatter-hull>) ----

const VALUES = [
  [1, 1],
  [1.5, 4],
  [5, 4.5],
  [4, 0.5],
];
const LABELS = ['v0', 'v1', 'v2', 'v3'];
// y(τ) of the lesson's scores s = (1.2, 4.5, 2, 0.8): at τ = 1, at τ → 0 (on v1), at τ → ∞ (the mean)
const ALPHA_AT_1 = [0.0322492, 0.8743615, 0.071772, 0.0216173];
const Y_AT_1 = [0, 1].map((c) => ALPHA_AT_1.reduce((sum, a, j) => sum + a * VALUES[j][c], 0));
const Y_COLD = [1.5, 4];
const Y_HOT = [2.875, 2.5];

/** Every text box and every mark of a scatter layout. */
function scatterBoxes(l, points, highlight) {
  const texts = [
    ...l.xTicks.map((t) => named(textBox(regular(t.text), t.x, t.y), `tick ${t.text}`)),
    ...l.yTicks.map((t) => named(textBox(regular(t.text), t.x, t.y + 4, 'end'), `tick ${t.text}`)),
  ];
  for (const label of [...l.labels, l.highlightLabel]) {
    if (label) texts.push(named(textBox(bold(label.text), label.x, label.y, label.anchor), label.text));
  }
  const marks = points.map((p, i) => circle(l.x(p[0]), l.y(p[1]), POINT_R + 1, `point ${i}`));
  if (highlight) marks.push(circle(l.x(highlight[0]), l.y(highlight[1]), RING_R + 1.25, 'the ring'));
  return { texts, marks };
}

const SCATTER_CASES = [
  { name: 'the lesson’s values, scores part locked', points: VALUES, highlight: null, all: true },
  { name: 'the lesson’s values with y(τ = 1)', points: VALUES, highlight: Y_AT_1, all: true },
  { name: 'y(τ → ∞), the mean of the values', points: VALUES, highlight: Y_HOT, all: true },
  // τ → 0: y sits on v1, its label and v1's must both find a spot
  { name: 'y(τ → 0), on v1', points: VALUES, highlight: Y_COLD, all: true },
  {
    name: 'v1 dragged into the middle (the lesson’s mouse test)',
    points: [
      [1, 1],
      [3, 2.5],
      [5, 4.5],
      [4, 0.5],
    ],
    highlight: Y_AT_1,
    all: true,
  },
  {
    name: 'v0 clamped at the corner of the axes, v2 at the opposite one',
    points: [
      [0, 0],
      [1.5, 4],
      [6, 5],
      [4, 0.5],
    ],
    highlight: Y_AT_1,
    domain: { x: [0, 6], y: [0, 5] },
    all: true,
  },
  {
    name: 'v2 dragged onto v1',
    points: [
      [1, 1],
      [1.5, 4],
      [1.6, 4.1],
      [4, 0.5],
    ],
    highlight: Y_AT_1,
    domain: { x: [0, 6], y: [0, 5] },
    all: false,
  },
  {
    name: '24 crowded points with long names',
    points: Array.from({ length: 24 }, (_, i) => [Math.cos(i * 2.4) * (1 + i / 10), Math.sin(i * 2.4) * (1 + i / 10)]),
    labels: Array.from({ length: 24 }, (_, i) => `token ${i}`),
    highlight: [0.2, 0.1],
    all: false,
  },
];

describe('scatter layout', () => {
  for (const c of SCATTER_CASES) {
    test(`${c.name}: no text overlaps another, a point or the ring, or leaves the chart`, () => {
      const labels = c.labels ?? LABELS;
      const domain = c.domain ?? scatterDomain(c.points);
      for (const width of WIDTHS) {
        const l = layoutScatter({
          width,
          domain,
          points: c.points,
          labels,
          highlight: c.highlight,
          highlightLabel: 'y(τ)',
          measure: roughMeasure,
        });
        const what = `${c.name} at ${width} px`;
        assert.equal(l.width, width, `${what}: as wide as its box`);
        const { texts, marks } = scatterBoxes(l, c.points, c.highlight);
        assertClear(texts, marks, l, what);
        if (c.all) {
          assert.deepEqual(
            l.labels.map((t) => t?.text ?? null),
            labels,
            `${what}: every point labelled`,
          );
          if (c.highlight) assert.equal(l.highlightLabel?.text, 'y(τ)', `${what}: y(τ) labelled`);
        }
        for (const p of c.points) {
          const [px, py] = [l.x(p[0]), l.y(p[1])];
          assert.ok(px >= l.plot.left - 0.01 && px <= l.plot.right + 0.01 && py >= l.plot.top - 0.01, what);
          assert.ok(
            px - POINT_R - 1 >= 0 && px + POINT_R + 1 <= l.width && py - POINT_R - 1 >= 0,
            `${what}: dot inside`,
          );
        }
      }
    });
  }

  test('a square-ish plot at every width, ticks at round numbers, labels beside their points', () => {
    for (const width of WIDTHS) {
      const l = layoutScatter({
        width,
        domain: scatterDomain(VALUES),
        points: VALUES,
        labels: LABELS,
        measure: roughMeasure,
      });
      const [pw, ph] = [l.plot.right - l.plot.left, l.plot.bottom - l.plot.top];
      assert.ok(ph <= 560 && ph >= Math.min(150, pw), `${width} px: plot ${pw} × ${ph}`);
      if (width <= 640) assert.ok(ph / pw > 0.75 && ph / pw < 1.1, `${width} px: plot ${pw} × ${ph} is square-ish`);
      assert.deepEqual(l.yTicks.at(0).value, 0);
      assert.ok(l.xTicks.length >= 3, `${width} px: ${l.xTicks.length} x ticks`);
      for (const [i, t] of l.labels.entries()) {
        const [px, py] = [l.x(VALUES[i][0]), l.y(VALUES[i][1])];
        const box = textBox(bold(t.text), t.x, t.y, t.anchor);
        const gap = Math.hypot(Math.max(box.left - px, 0, px - box.right), Math.max(box.top - py, 0, py - box.bottom));
        assert.ok(gap < 16, `${width} px: ${t.text} is ${gap.toFixed(1)} px from its point`);
      }
    }
    assert.deepEqual(scatterDomain(VALUES), { x: [0, 6], y: [0, 5] });
  });

  test('labels go outward from the points’ centre: the lesson’s v0 to the lower left, v2 to the upper right', () => {
    const l = layoutScatter({
      width: 390,
      domain: scatterDomain(VALUES),
      points: VALUES,
      labels: LABELS,
      measure: roughMeasure,
    });
    assert.deepEqual(
      l.labels.map((t) => t.spot),
      ['SW', 'NW', 'NE', 'SE'],
    );
  });

  test('a label with no free spot is left out, never drawn over another', () => {
    const points = [
      [1, 1],
      [1.02, 1.02],
      [0.98, 1.02],
      [1.02, 0.98],
      [0.98, 0.98],
    ];
    const labels = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const l = layoutScatter({ width: 200, domain: { x: [0, 2], y: [0, 2] }, points, labels, measure: roughMeasure });
    const shown = l.labels.filter(Boolean);
    assert.ok(shown.length >= 1 && shown.length < 5, `${shown.length} of 5 shown`);
    const { texts, marks } = scatterBoxes(l, points, null);
    assertClear(texts, marks, l, 'five points on one spot');
  });

  test('every point’s drag target is 48 px across at every width (the chart is drawn 1:1 in CSS px)', () => {
    assert.ok(2 * HIT_RADIUS_PX >= 44);
  });
});

// ---- the value strips (the convex-combinations lab) ----

const V = [
  [1, 0, 0],
  [0, 2, 0],
  [0, 0, 3],
  [1, 1, 1],
];
const close = [
  [0, 0.1, 0.2],
  [0.05, 0.12, 0.21],
  [0.1, 0.15, 0.24],
  [0.15, 0.2, 0.3],
  [1, 0.1, 0.25],
];
const sixteen = Array.from({ length: 16 }, (_, j) => [j % 5, Math.round(Math.sin(j) * 40) / 10, (j * 7) % 16]);

const STRIP_CASES = [
  // the lesson's default: y = α V = [0.7, 0.5, 0.9]
  { name: 'the lesson’s values and y', ...stripRows(V, [0.7, 0.5, 0.9], null), stale: false, all: true },
  // a negative weight (0.4, −0.1, 0.2, 0.3): the last valid y, stale, and the stray sum
  {
    name: 'a broken rule: last valid y and the stray sum',
    ...stripRows(V, [0.7, 0.5, 0.9], [0.7, 0.1, 0.9]),
    stale: true,
    all: true,
  },
  // all the weight on v2 (the lesson's drag test): y = (0, 0, 3)
  { name: 'y on v2', ...stripRows(V, [0, 0, 3], null), stale: false, all: true },
  // the sum-two exercise: weights adding up to 2 put y at 2v
  { name: 'weights summing to 2', ...stripRows(V, [0.7, 0.5, 0.9], [1.4, 1, 1.8]), stale: true, all: true },
  { name: 'five values close together', ...stripRows(close, [0.2, 0.13, 0.23], null), stale: false, all: false },
  { name: 'sixteen values', ...stripRows(sixteen, [2, 0.3, 7.5], [-1, 5, 20]), stale: true, all: false },
];

/** Every text box and every mark of a strips layout. */
function stripBoxes(l) {
  const texts = l.ticks.map((t) => named(textBox(regular(t.text), t.x, t.y), `tick ${t.text}`));
  const marks = [];
  for (const row of l.rows) {
    texts.push(named(textBox(regular(row.name.text), row.name.x, row.name.y, 'end'), row.name.text));
    for (const g of row.groups) {
      marks.push(circle(g.x, row.lineY, DOT_R, `a dot of row ${row.index}`));
      if (g.label) texts.push(named(textBox(bold(g.label.text), g.label.x, g.label.y), g.label.text));
    }
    if (row.mark) {
      marks.push(circle(row.mark.x, row.lineY, STRIP_RING_R + 1.25, `the ring of row ${row.index}`));
      if (row.mark.label)
        texts.push(named(textBox(bold(row.mark.label.text), row.mark.label.x, row.mark.label.y), row.mark.label.text));
    }
    if (row.stray) marks.push(circle(row.stray.x, row.lineY, 7.5, `the cross of row ${row.index}`));
  }
  return { texts, marks };
}

describe('value strips layout', () => {
  for (const c of STRIP_CASES) {
    test(`${c.name}: no text overlaps another or a mark, or leaves the chart`, () => {
      for (const width of WIDTHS) {
        const l = layoutStrips({ width, rows: c.rows, domain: c.domain, stale: c.stale, measure: roughMeasure });
        const what = `${c.name} at ${width} px`;
        assert.equal(l.width, width);
        const { texts, marks } = stripBoxes(l);
        assertClear(texts, marks, l, what);
        for (const row of l.rows) {
          for (const g of row.groups) if (g.label) assert.ok(g.label.level < MAX_LEVELS, what);
          if (c.all) {
            assert.ok(
              row.groups.every(
                (g) => g.label && g.label.text === c.rows[row.index].groups.find((d) => d.x === g.value).label,
              ),
              `${what}: every value of row ${row.index} labelled in full`,
            );
            assert.equal(row.name.text, c.rows[row.index].label);
            if (row.mark) assert.equal(row.mark.label.text, c.stale ? 'y (last valid)' : 'y');
          }
          for (const x of [...row.groups.map((g) => g.x), row.mark?.x, row.stray?.x].filter((v) => v !== undefined))
            assert.ok(x >= l.plot.left - 0.01 && x <= l.plot.right + 0.01, `${what}: a mark inside the scale`);
        }
        assert.ok(l.ticks.length >= 2, `${what}: ${l.ticks.length} ticks`);
      }
    });
  }

  test('labels close together go up a level; apart, they share the first', () => {
    const { rows, domain } = stripRows(V, [0.7, 0.5, 0.9], null);
    const narrow = layoutStrips({ width: 200, rows, domain, measure: roughMeasure });
    const wide = layoutStrips({ width: 900, rows, domain, measure: roughMeasure });
    const levels = (l) => l.rows.map((r) => r.groups.map((g) => g.label.level));
    assert.deepEqual(levels(wide), [
      [0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    assert.ok(levels(narrow)[0][1] === 1, `at 200 px "v1, v2" and "v0, v3" (one unit apart) take two levels`);
    assert.ok(narrow.rows[0].lineY - narrow.rows[0].top > wide.rows[0].lineY - wide.rows[0].top, 'a taller row');
  });
});
