/**
 * The scaled-dot-product labs' model: the lesson's example computed in the core, and what the
 * labs derive from it for display and checking (the step-through's own model is in
 * sdpa-steps-model.js). No DOM; unit-tested in Node (tests/js/labs-scaled-dot-product.test.js).
 *
 * The example: Q, K, V of shape (B, T, D) = (2, 5, 8) from the core's seeded generator (see
 * labs/common/qkv-lab.js). The core computes the output two ways, and the lab compares both with
 * its double-precision (float64) reference, each difference labelled with the way it belongs to:
 * - "in one pass": the fused kernel, which runs the four passes on one tile of keys at a time
 *   with a running max and sum (an online softmax) and never stores the T × T weights (as
 *   PyTorch's F.scaled_dot_product_attention);
 * - "step by step": the four passes (scores, scale, softmax, weighted sum) over whole rows,
 *   with the weights kept (what the figures show).
 */
import { formatNumber } from '../../cells/base/cell-support.js';
import { B, D, T, batchOf, drawQKV, maxAbsDiff, nested, rowOf, sci } from '../common/qkv-lab.js';

export { B, D, T };

/** Axis labels, counted from 0 as the code counts. */
export const POSITIONS = Array.from({ length: T }, (_, i) => String(i));
export const DIMS = Array.from({ length: D }, (_, d) => String(d));

/** The largest difference from the double-precision result that each way may have. */
export const REFERENCE_TOLERANCE = 1e-6;

/**
 * Everything both labs show for `seed`, from the core.
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeSdpa(engine, seed) {
  const { q, k, v } = drawQKV(engine, seed);
  const onePass = engine.attention(q, k, v); // fused: never stores the T × T weights
  const full = engine.attention(q, k, v, { returnWeights: true, returnLogits: true });
  const raw = engine.scores(q, k, { scale: 1 }); // pass 1 alone: QKᵀ, unscaled
  const ref = engine.attentionReference(q, k, v);
  return {
    seed,
    q,
    k,
    v,
    raw,
    scaled: full.logits,
    weights: full.weights,
    out: onePass.output,
    stepOut: full.output,
    onePassGap: maxAbsDiff(onePass.output.data, ref.output.data),
    stepGap: maxAbsDiff(full.output.data, ref.output.data),
    report: engine.rowStochasticReport(full.weights),
    simd: engine.simd,
    build: engine.build,
  };
}

/**
 * The two ways the output is computed, each with its own largest difference from the
 * double-precision result: the summary line, the printout and the checks all show these two
 * numbers under these names (never one folded into the other).
 */
export function referenceGaps(r) {
  return [
    {
      id: 'one-pass',
      name: 'in one pass (the weights are never stored)',
      value: r?.onePassGap,
    },
    {
      id: 'step-by-step',
      name: 'step by step (the weights are kept, as in the figures)',
      value: r?.stepGap,
    },
  ];
}

/** A number as the checks write it (1.06e-7), so the summary and the checks read the same. */
export const gapText = (x) => formatNumber(x);

/** Whether the output has the example's shape (B, T, D). */
export const shapeOk = (r) => (r ? r.out.shape.join(',') === `${B},${T},${D}` : undefined);

// The output of each way against the float64 reference, in the names of the lab's code cells:
// PyTorch's F.scaled_dot_product_attention (one pass), and the NumPy cell's weights @ V.
const GAP_PYTHON = {
  'one-pass': '(out_torch.double() - out64).abs().max()',
  'step-by-step': 'np.abs(out.astype(np.float64) - out64.numpy()).max()',
};

/**
 * The lab's checks as data (AttnLab checkCells): the output's shape, the rows of weights, and one
 * check per way of computing the output, named as the summary names it. `python`: each in the
 * names of the lab's code cells (the NumPy cell's out and weights, the last defined), for the notebook.
 */
export function sdpaChecks(r) {
  return [
    {
      name: 'shape',
      label: `output shape = (${r.out.shape.join(', ')}), expected (B, T, D) = (${B}, ${T}, ${D})`,
      pass: shapeOk(r),
      python: 'tuple(out.shape) == (B, T, D)',
    },
    {
      name: 'row-sums',
      label: 'max over all $B \\cdot T$ rows of $|\\sum_j w_{ij} - 1|$',
      threshold: 1e-6,
      value: r.report.maxRowSumError,
      python: 'abs(weights.sum(-1) - 1).max()',
    },
    ...referenceGaps(r).map((gap) => ({
      name: `reference ${gap.id}`,
      label: `max |output − double-precision output|, ${gap.name}`,
      threshold: REFERENCE_TOLERANCE,
      value: gap.value,
      python: GAP_PYTHON[gap.id],
    })),
  ];
}

/** What the notebook prints, with the engineering names of the two ways. */
export function sdpaPrintout(r) {
  const ok = r.report.maxRowSumError <= 1e-6 ? 'True' : 'False';
  return [
    `output shape: (${r.out.shape.join(', ')})`,
    `each attention-weight row sums to 1: ${ok}`,
    `max abs diff vs float64 reference (fused kernel): ${sci(r.onePassGap)}`,
    `max abs diff vs float64 reference (weights kept): ${sci(r.stepGap)}`,
  ].join('\n');
}

/**
 * The figures of the lab (one panel each), in the order of the formula, and which terms of
 * the formula light them up.
 */
export const PANELS = [
  { id: 'q', kind: 'matrix', tensor: 'q', name: 'Queries $Q$', caption: 'Row $i$ is the query $q_i$ of position $i$.' },
  { id: 'k', kind: 'matrix', tensor: 'k', name: 'Keys $K$', caption: 'Row $j$ is the key $k_j$ of position $j$.' },
  {
    id: 'scores',
    kind: 'map',
    tensor: 'raw',
    name: 'Scores $QK^\\top$',
    caption: 'Row $i$: query $i$; column $j$: key $j$.',
  },
  {
    id: 'scaled',
    kind: 'map',
    tensor: 'scaled',
    name: 'Scaled scores $QK^\\top/\\sqrt{d_k}$',
    caption: 'The same scores divided by $\\sqrt{8}$.',
  },
  {
    id: 'weights',
    kind: 'map',
    tensor: 'weights',
    name: 'Weights $\\operatorname{softmax}(QK^\\top/\\sqrt{d_k})$',
    caption: 'Each row: a softmax of the scaled scores, non-negative, summing to 1.',
  },
  { id: 'v', kind: 'matrix', tensor: 'v', name: 'Values $V$', caption: 'Row $j$ is the value $v_j$ of position $j$.' },
  {
    id: 'out',
    kind: 'matrix',
    tensor: 'out',
    name: 'Output',
    caption: 'Row $i$ is $\\sum_j w_{ij} v_j$, with $w$ the weights.',
  },
];

/** The formula's terms: what each one is and which panels it lights up. */
export const TERMS = {
  out: {
    panels: ['out'],
    text: '$\\operatorname{Attention}(Q, K, V)$: the output, one row of $D = 8$ numbers per query, shape $(B, T, D) = (2, 5, 8)$.',
  },
  softmax: {
    panels: ['weights'],
    text: '$\\operatorname{softmax}(\\ldots)$: applied to each row of the scaled scores, so every row of weights is $\\ge 0$ and sums to 1.',
  },
  scores: {
    panels: ['q', 'k', 'scores'],
    text: '$QK^\\top$: every query dotted with every key; entry $(i, j)$ scores how well query $i$ matches key $j$. Shape $(B, T, T) = (2, 5, 5)$.',
  },
  scale: {
    panels: ['scaled'],
    text: `$\\div \\sqrt{d_k}$: the scores divided by $\\sqrt{8} \\approx ${Math.sqrt(D).toFixed(4)}$, $d_k = 8$ being the length of a query or key.`,
  },
  v: {
    panels: ['v'],
    text: '$V$: the values; the output row $i$ is the weights of row $i$ times $V$, a weighted average of the rows of $V$.',
  },
};

/** Panel ids lit up by `term` ('' for none). */
export const litPanels = (term) => TERMS[term]?.panels ?? [];

/** The text alternative of the lab. */
export function describeSdpa(r, batch) {
  if (!r) return 'Scaled dot-product attention: not computed yet.';
  const [one, step] = referenceGaps(r);
  return (
    `Scaled dot-product attention of Q, K, V of shape (${B}, ${T}, ${D}) drawn with seed ${r.seed}; ` +
    `batch ${batch} shown as the matrices Q, K, V and the output and heatmaps of the scores, scaled scores and weights. ` +
    `Largest difference from the double-precision result: ${gapText(one.value)} ${one.name}, ` +
    `${gapText(step.value)} ${step.name}.`
  );
}

/** CSV rows: every entry of batch `b` of every panel's tensor. */
export function sdpaRows(r, b) {
  const rows = [['tensor', 'batch', 'row', 'column', 'value']];
  for (const panel of PANELS) {
    const view = batchOf(r[panel.tensor], b);
    for (let i = 0; i < view.shape[0]; i++) {
      rowOf(view, i).forEach((x, j) => rows.push([panel.id, b, i, j, x]));
    }
  }
  return rows;
}

/** JSON: the inputs, every intermediate, the output and both differences. */
export function sdpaObject(r) {
  return {
    seed: r.seed,
    shape: [B, T, D],
    Q: nested(r.q),
    K: nested(r.k),
    V: nested(r.v),
    scores: nested(r.raw),
    scaledScores: nested(r.scaled),
    weights: nested(r.weights),
    output: nested(r.out),
    maxAbsDiffOnePass: r.onePassGap,
    maxAbsDiffStepByStep: r.stepGap,
  };
}

/** The code cells' parameters: this page's inputs. */
export const codeParams = (r) => ({ seed: r.seed, Q: nested(r.q), K: nested(r.k), V: nested(r.v) });
