/**
 * The multi-head lab's model: the batched example computed in the core, and what the lab derives
 * from it for display, export and checking. No DOM; unit-tested in Node
 * (tests/js/labs-multi-head.test.js).
 *
 * The example ("Attention as a Weighted Mixture" §6): values V (B, h, T, d_v) and logits
 * S (B, h, T, T) drawn from the core's seeded normal generator (one stream, V first, as the
 * notebook draws them), A = softmax(S) over the last axis, and Y = AV: for every sequence b and
 * head k, the core's convexCombination(A[b, k], V[b, k]), each row of A a convex combination
 * of the rows of V[b, k] (as torch.matmul batches them). Output shapes are the core's.
 */
import { PALETTES, paletteRgb, rgbHex } from '../../charts/palettes.js';

/** The four sizes: state field, symbol, what it counts. */
export const SIZES = [
  { field: 'batch', symbol: 'B', words: 'sequences' },
  { field: 'heads', symbol: 'h', words: 'heads' },
  { field: 'length', symbol: 'T', words: 'positions' },
  { field: 'dv', symbol: 'd_v', words: 'numbers per value' },
];

export const shapeText = (dims) => `(${dims.join(', ')})`;

/**
 * Everything the lab shows, from the core.
 * @param {import('../../engine/index.js').Attention} engine
 * @param {{ batch: number, heads: number, length: number, dv: number, seed: number }} sizes
 */
export function computeMultiHead(engine, { batch: B, heads: h, length: T, dv, seed }) {
  const nV = B * h * T * dv;
  const draws = engine.randn([nV + B * h * T * T], seed).data; // one stream: V first, then S
  const V = { data: draws.subarray(0, nV), shape: [B, h, T, dv] };
  const S = { data: draws.subarray(nV), shape: [B, h, T, T] };
  const A = engine.softmax(S); // (B, h, T, T), over the last axis
  const Y = { data: new Float32Array(B * h * T * dv), shape: [B, h, T, dv] };
  const maps = [];
  for (let b = 0; b < B; b++) {
    for (let k = 0; k < h; k++) {
      const n = b * h + k;
      const values = { data: A.data.subarray(n * T * T, (n + 1) * T * T), shape: [T, T] };
      const Vbk = { data: V.data.subarray(n * T * dv, (n + 1) * T * dv), shape: [T, dv] };
      Y.data.set(engine.convexCombination(values, Vbk).data, n * T * dv); // Y[b, k] = A[b, k] V[b, k]
      maps.push({ b, k, values });
    }
  }
  return { B, h, T, dv, seed, V, S, A, Y, report: engine.rowStochasticReport(A), maps };
}

/** Whether Y has the shape (B, h, T, d_v) the sizes ask for. */
export function shapeOk(r) {
  if (!r) return undefined;
  const expected = [r.B, r.h, r.T, r.dv];
  return r.Y.shape.length === 4 && r.Y.shape.every((d, i) => d === expected[i]);
}

/** The notebook's two assertions as the lab's checks (data for AttnLab checkCells; `python`: in the code's names). */
export function multiHeadChecks(r) {
  return [
    {
      name: 'row-sums',
      label: `max |row sum − 1| over all ${r.B * r.h * r.T} rows (B·h·T) of A`,
      threshold: 1e-6,
      value: r.report.maxRowSumError,
      python: '(A.sum(dim=-1) - 1).abs().max()',
    },
    {
      name: 'shape',
      label: `Y.shape = ${shapeText(r.Y.shape)}, expected (B, h, T, d_v) = ${shapeText([r.B, r.h, r.T, r.dv])}`,
      pass: shapeOk(r),
      python: 'tuple(Y.shape) == (B, h, T, d_v)',
    },
  ];
}

/** The notebook's printout. */
export function printout(r) {
  return [
    `Batched Attention Matrix A shape: ${shapeText(r.A.shape)}`,
    `Batched Value Matrix V shape: ${shapeText(r.V.shape)}`,
    `Batched Output Matrix Y shape: ${shapeText(r.Y.shape)}`,
  ].join('\n');
}

/** The code cell's parameters. */
export function codeParams(r) {
  return {
    B: r.B,
    h: r.h,
    T: r.T,
    dv: r.dv,
    pairs: r.B * r.h,
    ashape: r.A.shape,
    vshape: r.V.shape,
    yshape: r.Y.shape,
  };
}

/** The map (b, k) of A, or the nearest one that exists when the sizes shrank. */
export function pickMap(r, pick) {
  const b = Math.min(pick.b, r.B - 1);
  const k = Math.min(pick.k, r.h - 1);
  return r.maps[b * r.h + k];
}

/** The selection after an arrow key on the grid of maps (rows b, columns k), or null. */
export function moveInGrid({ b, k }, key, B, h) {
  const moves = {
    ArrowUp: [b - 1, k],
    ArrowDown: [b + 1, k],
    ArrowLeft: [b, k - 1],
    ArrowRight: [b, k + 1],
    Home: [b, 0],
    End: [b, h - 1],
  };
  const next = moves[key];
  return next ? { b: Math.max(0, Math.min(B - 1, next[0])), k: Math.max(0, Math.min(h - 1, next[1])) } : null;
}

/** One colour scale for every map, weights 0 (dark) to 1 (light). */
export const weightColour = (a) => rgbHex(paletteRgb('viridis', a));

/** The legend's CSS gradient, 0 at the left to 1 at the right. */
export const LEGEND_GRADIENT = `linear-gradient(to right, ${PALETTES.viridis.map(rgbHex).join(', ')})`;

/** The colours of one map's cells, row-major. */
export const mapColours = (map) => Array.from(map.values.data, weightColour);

const TILE = 48; // SVG units per map in the exported picture
const GAP = 10;

/** The grid of maps as a self-contained SVG document (the lab's SVG and PNG export). */
export function gridSvg(r) {
  const left = 56;
  const top = 28;
  const width = left + r.h * (TILE + GAP);
  const height = top + r.B * (TILE + GAP);
  const cell = TILE / r.T;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<title>Attention weights A, shape ${shapeText(r.A.shape)}: one map per sequence b (rows) and head k (columns)</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  for (let k = 0; k < r.h; k++) {
    parts.push(`<text x="${left + k * (TILE + GAP) + TILE / 2}" y="18" text-anchor="middle">head ${k}</text>`);
  }
  for (const map of r.maps) {
    const x0 = left + map.k * (TILE + GAP);
    const y0 = top + map.b * (TILE + GAP);
    if (map.k === 0) parts.push(`<text x="4" y="${y0 + TILE / 2 + 4}">b = ${map.b}</text>`);
    mapColours(map).forEach((fill, n) => {
      const [i, j] = [Math.floor(n / r.T), n % r.T];
      parts.push(`<rect x="${x0 + j * cell}" y="${y0 + i * cell}" width="${cell}" height="${cell}" fill="${fill}"/>`);
    });
  }
  parts.push('</svg>');
  return parts.join('\n');
}

/** CSV rows: every weight of A, by sequence, head, row and column. */
export function weightRows(r) {
  const rows = [['sequence b', 'head k', 'row i', 'column j', 'weight']];
  for (const { b, k, values } of r.maps) {
    values.data.forEach((a, n) => rows.push([b, k, Math.floor(n / r.T), n % r.T, a]));
  }
  return rows;
}

/** JSON: the sizes, the seed, A, and the shapes of V, S, A, Y. */
export function exportObject(r) {
  return {
    sizes: { B: r.B, h: r.h, T: r.T, dv: r.dv },
    seed: r.seed,
    shapes: { V: r.V.shape, S: r.S.shape, A: r.A.shape, Y: r.Y.shape },
    A: r.maps.map(({ b, k, values }) => ({
      b,
      k,
      rows: Array.from({ length: r.T }, (_, i) => Array.from(values.data.subarray(i * r.T, (i + 1) * r.T))),
    })),
  };
}

/** The text alternative. */
export function describeMultiHead(r) {
  if (!r) return 'Batched attention weights: not computed yet.';
  return (
    `Attention weights A of shape ${shapeText(r.A.shape)}: ${r.B * r.h} maps of ${r.T} × ${r.T} weights, ` +
    `one per sequence (rows of the grid) and head (columns), every row summing to 1; ` +
    `Y = AV has shape ${shapeText(r.Y.shape)}.`
  );
}
