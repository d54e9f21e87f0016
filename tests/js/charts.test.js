// The chart parts' layout rules, in Node (web/src/charts/*-layout.js are pure): at every width
// from a phone's to a wide screen's, no two pieces of text overlap, nothing is drawn outside the
// chart, a value label of a negative bar stays clear of the category labels, and scales and ticks
// are d3's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fitLabels, layoutBars } from '../../web/src/charts/bar-layout.js';
import { FONT_PX } from '../../web/src/charts/text-width.js';
import { niceDomain, niceTicks, tickCount } from '../../web/src/charts/scale.js';
import { roughMeasure, shorten } from '../../web/src/charts/text-width.js';

const WIDTHS = [200, 280, 320, 358, 390, 480, 640, 900, 1200];
const format = (v) => (Number.isFinite(v) ? Number(v.toFixed(3)).toString() : String(v));

/** The box of a text drawn at (x, baseline y) with an anchor, as the layout measures it. */
function textBox(text, x, y, anchor = 'middle') {
  const w = roughMeasure(text, FONT_PX);
  const left = anchor === 'middle' ? x - w / 2 : anchor === 'end' ? x - w : x;
  return { left, right: left + w, top: y - FONT_PX * 0.8, bottom: y + FONT_PX * 0.2, text };
}
const overlaps = (a, b) =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

/** Every text box of a bar layout for `values`. */
function boxesOf(l, values) {
  const boxes = [];
  for (const t of l.ticks) boxes.push(textBox(t.text, l.plot.left - 6, t.y + 4, 'end'));
  for (const label of l.labels) if (label.text) boxes.push(textBox(label.text, label.x, l.labelY));
  if (l.showValues) values.forEach((v, i) => boxes.push(textBox(format(v), l.barX(i) + l.barWidth / 2, l.valueY(v))));
  for (const e of l.legend) boxes.push(textBox(e.text, e.x + 16, e.y + 10, 'start'));
  return boxes;
}

function assertNoOverlap(l, values, what) {
  const boxes = boxesOf(l, values);
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i];
    assert.ok(a.left >= -0.5 && a.right <= l.width + 0.5, `${what}: "${a.text}" inside the width ${l.width}`);
    assert.ok(a.top >= -0.5 && a.bottom <= l.height + 0.5, `${what}: "${a.text}" inside the height ${l.height}`);
    for (let j = i + 1; j < boxes.length; j++)
      assert.ok(!overlaps(a, boxes[j]), `${what}: "${a.text}" overlaps "${boxes[j].text}"`);
  }
}

const CASES = [
  {
    name: 'weights',
    labels: ['Pos 0', 'Pos 1', 'Pos 2', 'Pos 3'],
    min: 0,
    max: 1,
    values: [0.0322, 0.8744, 0.0718, 0.0216],
  },
  { name: 'signed scores', labels: ['k0', 'k1', 'k2'], min: -2, max: 2, values: [-1.5, 0.25, 1.75] },
  { name: 'negative weights', labels: ['α0', 'α1', 'α2', 'α3'], min: -0.5, max: 1.5, values: [-0.5, 0.7, 0.3, 0.5] },
  {
    name: '64 logits',
    labels: Array.from({ length: 64 }, (_, i) => `Pos ${i}`),
    min: -5,
    max: 5,
    values: Array.from({ length: 64 }, (_, i) => Math.sin(i) * 4.9),
  },
  {
    name: 'words',
    labels: ['the', 'transformer', 'attends', 'to', 'everything'],
    min: 0,
    max: 1,
    values: [0.1, 0.4, 0.2, 0.1, 0.2],
  },
];

describe('bar layout', () => {
  for (const c of CASES) {
    test(`${c.name}: no text overlaps or leaves the chart at any width`, () => {
      for (const width of WIDTHS) {
        const l = layoutBars({ width, labels: c.labels, min: c.min, max: c.max, format, measure: roughMeasure });
        assertNoOverlap(l, c.values, `${c.name} at ${width} px`);
      }
    });
  }

  test('grouped bars with a wrapping legend: no overlap at any width', () => {
    const series = ['τ = 0.25', 'τ = 1', 'τ = 5'];
    const rows = [
      [0.01, 0.99, 0.0, 0.0],
      [0.03, 0.87, 0.07, 0.02],
      [0.19, 0.37, 0.22, 0.17],
    ];
    for (const width of WIDTHS) {
      const l = layoutBars({
        width,
        labels: ['Pos 0', 'Pos 1', 'Pos 2', 'Pos 3'],
        min: 0,
        max: 1,
        series,
        format,
        measure: roughMeasure,
      });
      assert.equal(l.legend.length, 3);
      const boxes = boxesOf(l, []);
      if (l.showValues)
        rows.forEach((row, k) =>
          row.forEach((v, i) => boxes.push(textBox(format(v), l.barX(i, k) + l.barWidth / 2, l.valueY(v)))),
        );
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++)
          assert.ok(!overlaps(boxes[i], boxes[j]), `at ${width} px: "${boxes[i].text}" overlaps "${boxes[j].text}"`);
    }
  });

  test('the value of a negative bar sits below the plot, above the category labels', () => {
    const l = layoutBars({ width: 358, labels: ['k0', 'k1', 'k2'], min: -2, max: 2, format, measure: roughMeasure });
    assert.ok(l.showValues);
    const value = textBox('-1.5', l.barX(0) + l.barWidth / 2, l.valueY(-1.5));
    const label = textBox('k0', l.labels[0].x, l.labelY);
    assert.ok(value.top > l.plot.bottom - 1, 'below the plot');
    assert.ok(value.bottom <= label.top, `above the label (${value.bottom} ≤ ${label.top})`);
  });

  test('labels that cannot fit are shortened or thinned, never drawn over each other', () => {
    const long = fitLabels(['transformer', 'attention', 'everything'], 40, roughMeasure);
    assert.ok(
      long.every((l) => l.text.endsWith('…') && roughMeasure(l.text) <= 40 - 6),
      JSON.stringify(long),
    );
    assert.deepEqual(
      long.map((l) => l.full),
      ['transformer', 'attention', 'everything'],
    );
    const many = fitLabels(
      Array.from({ length: 64 }, (_, i) => `Pos ${i}`),
      5,
      roughMeasure,
    );
    const shown = many.filter((l) => l.text);
    assert.ok(shown.length > 1 && shown.length < 64, `${shown.length} of 64 shown`);
    for (let i = 1; i < shown.length; i++)
      assert.ok(shown[i].x - shown[i - 1].x >= roughMeasure(shown[i - 1].text) + 6, 'a gap between shown labels');
  });

  test('value labels hide together when one cannot fit its bar, and come back when there is room', () => {
    const labels = Array.from({ length: 16 }, (_, i) => String(i));
    const narrow = layoutBars({ width: 320, labels, min: 0, max: 1, format, measure: roughMeasure });
    const wide = layoutBars({ width: 1200, labels, min: 0, max: 1, format, measure: roughMeasure });
    assert.equal(narrow.showValues, false);
    assert.equal(wide.showValues, true);
  });

  test('the chart is as wide as its box, and taller charts get more ticks', () => {
    const l = layoutBars({ width: 358, labels: ['a'], min: -10, max: 10, format, measure: roughMeasure });
    assert.equal(l.width, 358);
    assert.ok(l.ticks.length >= 3 && l.ticks.length <= 7, `${l.ticks.length} ticks`);
    assert.equal(tickCount(100, 40), 2);
    assert.equal(tickCount(400, 40), 10);
  });
});

describe('scales (d3)', () => {
  test('nice ticks and domains', () => {
    assert.deepEqual(niceTicks(0, 4.7, 5), [0, 1, 2, 3, 4]);
    assert.deepEqual(niceTicks(-0.3, 0.9, 4), [-0.2, 0, 0.2, 0.4, 0.6, 0.8]);
    assert.deepEqual(niceDomain(0.2, 4.7), [0, 5]);
    assert.deepEqual(niceDomain(2, 2), [1.4, 2.6]);
    assert.deepEqual(niceDomain(NaN, 1), [0, 1]);
  });

  test('shorten keeps at least two characters and the ellipsis, or gives up', () => {
    assert.equal(shorten('everything', 1000, roughMeasure), 'everything');
    assert.equal(shorten('everything', 30, roughMeasure), 'eve…');
    assert.equal(shorten('everything', 10, roughMeasure), '');
  });
});

describe('shape diagram layout', async () => {
  const { layoutShapes } = await import('../../web/src/charts/shape-layout.js');
  const { matmulShapes } = await import('../../web/src/charts/shape-diagram.js');
  const CASES = [
    [
      'multi-head',
      matmulShapes([4, 8, 10, 10], [4, 8, 10, 16], ['B', 'h', 'T', 'T'], ['B', 'h', 'T', 'd_v']),
      ['S', 'V', 'Y = SV'],
    ],
    ['sdpa', matmulShapes([2, 5, 7], [2, 7, 3], ['B', 'L', 'S'], ['B', 'S', 'E_v']), ['weights', 'V', 'output']],
    ['broadcast', matmulShapes([1, 4, 5, 5], [2, 1, 5, 8]), ['A', 'B', 'A × B']],
  ];
  for (const [name, shapes, names] of CASES) {
    test(`${name}: lines fit, heads and notes stay in their columns, at every width`, () => {
      for (const width of WIDTHS) {
        const l = layoutShapes({ width, shapes, names, measure: roughMeasure });
        for (const [line, px] of [...l.formula.map((p) => [p, 13]), ...l.sizes.map((p) => [p, 12])])
          assert.ok(4 + line.text.length * px * 0.6 <= l.width, `${name} at ${width}: "${line.text}" fits`);
        const last = l.columns.at(-1);
        assert.ok(last.x + l.box.width <= l.width, `${name} at ${width}: the last column is inside`);
        l.columns.forEach((col, i) => {
          assert.ok(
            roughMeasure(col.head) <= l.box.width + 6,
            `${name} at ${width}: head "${col.head}" fits its column`,
          );
          if (col.summed) assert.ok(roughMeasure(col.summed) <= l.box.width + 6, `"${col.summed}" fits`);
          if (i) assert.ok(col.x >= l.columns[i - 1].x + l.box.width, 'columns do not overlap');
        });
        assert.ok(l.columns[0].x >= Math.max(...names.map((n) => roughMeasure(n))), 'names left of the boxes');
      }
    });
  }
  test('a narrow diagram breaks the formula before → and keeps its whole text', () => {
    const [, shapes] = CASES[0];
    const l = layoutShapes({ width: 320, shapes, names: ['S', 'V', 'Y = SV'], measure: roughMeasure });
    assert.equal(l.formula.length, 2);
    assert.equal(l.formula.map((p) => p.text).join(''), '(B, h, T, T) × (B, h, T, d_v) → (B, h, T, d_v)');
    const wide = layoutShapes({ width: 1200, shapes, names: ['S', 'V', 'Y = SV'], measure: roughMeasure });
    assert.equal(wide.formula.length, 1);
  });
});

describe('line chart layout', async () => {
  const { layoutLines } = await import('../../web/src/charts/line-layout.js');
  const three = (v) => String(Number(v.toFixed(3)));
  const CASES = [
    [
      'dot variance',
      {
        series: [{ name: 'q·k' }, { name: 'q·k / √D' }],
        xDomain: [-64, 64],
        yDomain: [0, 0.45],
        xLabel: 'value',
        yLabel: 'share per unit',
      },
    ],
    [
      'scaling curves',
      {
        series: [{ name: 'unscaled: q·k' }, { name: 'scaled: q·k / √d' }],
        xDomain: [1, 512],
        xLog: true,
        yDomain: [0, 1],
        xLabel: 'd (dimension of q and k)',
        yLabel: 'mean largest weight',
      },
    ],
    [
      'benchmark',
      {
        series: [
          { name: 'wasm SIMD' },
          { name: 'wasm scalar' },
          { name: 'plain JS' },
          { name: 'wasm SIMD, every core' },
        ],
        xDomain: [64, 4096],
        xLog: true,
        yDomain: [0.01, 1000],
        yLog: true,
        xLabel: 'sequence length T',
        yLabel: 'ms per call',
        format: (v) => (v >= 1 ? String(v) : v.toPrecision(1)),
      },
    ],
    [
      'trainer accuracy',
      {
        series: [{ name: 'answer-token accuracy' }],
        xDomain: [0, 6400],
        yDomain: [0, 1],
        xLabel: 'step',
        yLabel: 'accuracy',
        format: (v) => `${Math.round(v * 100)}%`,
      },
    ],
    [
      'qkv loss',
      {
        series: [{ name: 'loss' }, { name: 'accuracy' }],
        xDomain: [0, 400],
        yDomain: [0, 2],
        xLabel: 'step',
        yLabel: 'loss, accuracy',
      },
    ],
  ];
  for (const [name, options] of CASES) {
    test(`${name}: no text overlaps or leaves the chart at any width`, () => {
      for (const width of WIDTHS) {
        const l = layoutLines({ format: three, ...options, width, measure: roughMeasure });
        const boxes = [
          ...l.yTicks.map((t) => textBox(t.text, l.plot.left - 6, t.y + 4, 'end')),
          ...l.xTicks.map((t) => textBox(t.text, t.labelX, l.tickY)),
          textBox(l.xLabel.text, l.xLabel.x, l.xLabel.y),
          ...l.legend.map((e) => textBox(e.text, e.x + 28, e.y + 4, 'start')),
        ];
        // the y axis title is turned: a box of its height across, its width along the axis
        const w = roughMeasure(l.yLabel.text);
        boxes.push({
          left: l.yLabel.x - 9,
          right: l.yLabel.x + 3,
          top: l.yLabel.y - w / 2,
          bottom: l.yLabel.y + w / 2,
          text: l.yLabel.text,
        });
        for (let i = 0; i < boxes.length; i++) {
          const a = boxes[i];
          assert.ok(a.left >= -0.5 && a.right <= l.width + 0.5, `${name} at ${width}: "${a.text}" inside the width`);
          assert.ok(a.top >= -0.5 && a.bottom <= l.height + 0.5, `${name} at ${width}: "${a.text}" inside the height`);
          for (let j = i + 1; j < boxes.length; j++)
            assert.ok(!overlaps(a, boxes[j]), `${name} at ${width}: "${a.text}" overlaps "${boxes[j].text}"`);
        }
        assert.ok(l.xTicks.length >= 2, `${name} at ${width}: at least two x ticks`);
      }
    });
  }
});

describe('vector plane layout', async () => {
  const { layoutPlane } = await import('../../web/src/charts/plane-layout.js');
  // the queries-keys-values world: five embeddings, their keys, the followed query's arrow
  const tokens = [
    [2, 0],
    [1, 2],
    [-0.5, 1],
    [-2, -0.5],
    [1, -1.5],
  ];
  const world = {
    radius: 5,
    points: [
      ...tokens.map((at, j) => ({ at, label: `x${j}`, size: 4, labelOffset: [-20, 14] })),
      ...tokens.map((at, j) => ({ at: [at[0] * 1.2, at[1] * 1.2], label: `k${j}` })),
    ],
    arrows: [{ to: [-0.6, 1.2], label: 'q2' }, { to: [2.4, 0] }],
  };
  // the trained world: keys of two items close together at two positions, two queries
  const trained = {
    radius: 4,
    points: [
      [1, 1],
      [1.2, 0.9],
      [-1, 1],
      [-1.1, 0.8],
      [1, -1],
      [1.1, -1.2],
      [-1, -1],
      [-0.9, -1.1],
    ].map((at, i) => ({ at, label: `${i >> 1}${'₀₁'[i % 2]}`, size: 5 })),
    arrows: [
      { to: [2, 2], label: 'q(A?)' },
      { to: [1.1, -1.1], label: 'q(B?)' },
    ],
  };
  for (const [name, plane] of [
    ['world', world],
    ['trained', trained],
  ]) {
    test(`${name}: labels touch no other label or tick label and stay inside, at every width`, () => {
      for (const width of WIDTHS) {
        const l = layoutPlane({ ...plane, width, measure: roughMeasure });
        const boxes = [
          ...l.xTicks.map((t) => textBox(t.text, t.x, t.y)),
          ...l.yTicks.map((t) => textBox(t.text, t.x, t.y + 4, 'end')),
          ...plane.arrows.flatMap((a, i) =>
            l.arrowLabels[i] ? [textBox(a.label, l.arrowLabels[i].x, l.arrowLabels[i].y, 'start')] : [],
          ),
          ...plane.points.flatMap((p, i) =>
            l.pointLabels[i] ? [textBox(p.label, l.pointLabels[i].x, l.pointLabels[i].y, 'start')] : [],
          ),
        ];
        for (let i = 0; i < boxes.length; i++) {
          const a = boxes[i];
          assert.ok(
            a.left >= -0.5 && a.right <= l.size + 0.5 && a.top >= -0.5 && a.bottom <= l.size + 0.5,
            `${name} at ${width}: "${a.text}" inside`,
          );
          for (let j = i + 1; j < boxes.length; j++)
            assert.ok(!overlaps(a, boxes[j]), `${name} at ${width}: "${a.text}" overlaps "${boxes[j].text}"`);
        }
        const drawn = l.pointLabels.filter(Boolean).length + l.arrowLabels.filter(Boolean).length;
        const asked = plane.points.length + plane.arrows.filter((a) => a.label).length;
        if (width >= 320) assert.equal(drawn, asked, `${name} at ${width}: every label has a place`);
      }
    });
  }
});
