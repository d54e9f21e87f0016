/**
 * The convex-hull lab's model: everything the lab shows, from the core (attn.dirichlet for the
 * random weights, attn.convexCombination for the mixtures, attn.convexHull and attn.pointsInHull
 * for the hull and the count outside it, attn.softmax for y(τ) and its path), and the display
 * around it: the printed output, the text alternative, the exports and the NumPy/SciPy code.
 * No DOM; unit-tested in Node (tests/js/labs-convex-hull.test.js).
 */
import { formatNumber } from '../../cells/base/cell-support.js';

export const ROW_SUM_TOLERANCE = 1e-5;
export const PATH_STEPS = 81; // τ = 10^-2 … 10^2 on the path, plus the limits 0 and ∞

export const fmt = (x) => formatNumber(x, 3);
export const sig = (x) => String(Number(x.toPrecision(6)));
export const pair = (p) => `(${fmt(p[0])}, ${fmt(p[1])})`;
export const formatTau = (tau) => (tau === Infinity ? '∞' : fmt(tau));

/** The temperatures of the dashed path: 0, then 10^-2 … 10^2 evenly in log, then ∞. */
export function pathTaus() {
  return [0, ...Array.from({ length: PATH_STEPS }, (_, i) => 10 ** (-2 + (4 * i) / (PATH_STEPS - 1))), Infinity];
}

/** A Tensor (rows × d) as an array of rows. */
export function rowsOf(tensor) {
  const [m, d] = tensor.shape;
  return Array.from({ length: m }, (_, r) => Array.from(tensor.data.subarray(r * d, r * d + d)));
}

/**
 * Everything the figure shows for one state. `cache` (an object the lab keeps) holds the
 * Dirichlet draws and the path's weights between calls, so dragging a value re-applies the same
 * weights to the moved values instead of drawing new ones.
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeHullView(engine, state, cache) {
  const { values: V, count, concentration, seed, logits, temperature } = state;
  const key = `${count}|${concentration}|${seed}`;
  if (cache.weights?.key !== key) {
    const W = engine.dirichlet(
      V.map(() => concentration),
      count,
      seed,
    );
    const effective = engine.effectivePositions(W).data;
    cache.weights = {
      key,
      W,
      report: engine.rowStochasticReport(W),
      meanEffective: effective.reduce((a, b) => a + b, 0) / effective.length,
    };
  }
  const pathKey = logits.join(',');
  if (cache.path?.key !== pathKey) {
    cache.path = {
      key: pathKey,
      rows: pathTaus().map((tau) => Array.from(engine.softmax(logits, { temperature: tau }).data)),
    };
  }
  const { W, report, meanEffective } = cache.weights;
  const mixtures = engine.convexCombination(W, V);
  const hull = Array.from(engine.convexHull(V));
  const corners = hull.map((i) => V[i]);
  const inside = engine.pointsInHull(mixtures, corners);
  const alpha = Array.from(engine.softmax(logits, { temperature }).data);
  const highlight = Array.from(engine.convexCombination(alpha, V).data);
  return {
    values: V.map((p) => p.slice()),
    mixtures: rowsOf(mixtures),
    hull,
    inside,
    outside: inside.reduce((n, v) => n + (v ? 0 : 1), 0),
    report,
    meanEffective,
    alpha,
    highlight,
    highlightInside: engine.pointsInHull([highlight], corners)[0] === 1,
    path: rowsOf(engine.convexCombination(cache.path.rows, V)),
  };
}

/** Why the view could not be computed, in the learner's words. */
export function explainHullError(error) {
  const what = error?.kind === 'ShapeError' ? 'the values do not have the shape the lab needs' : 'something went wrong';
  return `The mixtures could not be drawn for these settings (${what}). The plot keeps the last ones that worked.`;
}

// y(τ) = alpha @ V_2d inside the hull, in the names of the lab's code cell: within 1e-9 of every
// edge's half-plane when the values span an area, else of the segment a–b they lie on.
const INSIDE_PYTHON =
  'bool(((alpha @ V_2d) @ normals.T + offsets <= 1e-9).all()) if np.linalg.matrix_rank(V_2d - V_2d[0]) == 2 ' +
  'else bool(np.linalg.norm(alpha @ V_2d - (a + np.clip((alpha @ V_2d - a) @ (b - a) / max((b - a) @ (b - a), 1e-300), 0, 1) * (b - a))) <= 1e-9)';

/**
 * The lab's checks (attn-check as data): no mixture outside the hull, the Dirichlet rows sum to 1
 * and are ≥ 0, and y(τ) lies inside the hull. None before the first view. `python`: each in the
 * names of the lab's code cell.
 */
export function hullChecks(view, tau) {
  if (!view) return [];
  return [
    { name: 'check-outside', label: 'mixtures outside the hull', threshold: 0, value: view.outside, python: 'outside' },
    {
      name: 'check-rows',
      label: 'Dirichlet weights: max |row sum − 1|',
      threshold: ROW_SUM_TOLERANCE,
      value: view.report.maxRowSumError,
      python: 'abs(alpha_samples.sum(axis=1) - 1).max()',
    },
    {
      name: 'check-nonnegative',
      label: 'Dirichlet weights: smallest entry',
      comparison: 'ge',
      threshold: 0,
      value: view.report.minEntry,
      python: 'alpha_samples.min()',
    },
    {
      name: 'check-highlight',
      label: `y(τ) inside the hull at τ = ${formatTau(tau)}`,
      pass: view.highlightInside,
      python: INSIDE_PYTHON,
    },
  ];
}

/** The hull's corners in order, by name: "v0 → v3 → v2 → v1". */
export const hullText = (hull) => hull.map((i) => `v${i}`).join(' → ');

/** The notebook's printed output. */
export function hullPrintout(state, view) {
  const { count, concentration, seed, temperature } = state;
  return [
    `V_2d shape: (${view.values.length}, 2)`,
    `alpha_samples shape: (${count}, ${view.values.length})   # Dirichlet(${fmt(concentration)}), seed ${seed}`,
    `mixtures_2d shape: (${count}, 2)`,
    `mean effective number of positions exp(H): ${view.meanEffective.toFixed(2)} of ${view.values.length}`,
    `hull vertices (counter-clockwise): ${hullText(view.hull)}`,
    `mixtures outside the hull: ${view.outside} of ${count}`,
    `softmax(s / τ) at τ = ${fmt(temperature)}: [${view.alpha.map((a) => a.toFixed(4)).join(', ')}]`,
    `y(τ) = ${pair(view.highlight)}, inside the hull: ${view.highlightInside}`,
  ].join('\n');
}

/** The text alternative. */
export function describeHull(state, view) {
  if (!view) return 'Loading the attention core.';
  const pts = state.values.map((p, j) => `v${j} ${pair(p)}`).join(', ');
  return (
    `Values ${pts}; hull corners ${hullText(view.hull)}. ${state.count} random mixtures ` +
    `(Dirichlet, concentration ${fmt(state.concentration)}), ${view.outside} outside the hull. ` +
    `Highlighted mixture y(τ) = softmax(s/τ) V at τ = ${formatTau(state.temperature)}: ${pair(view.highlight)}.`
  );
}

/** CSV rows: the values (with their place on the hull), then every mixture (inside or not). */
export function hullExportRows(values, view) {
  const rows = [['kind', 'index', 'label', 'x', 'y', 'hull_order', 'inside_hull']];
  values.forEach((p, i) => {
    const order = view?.hull.indexOf(i) ?? -1;
    rows.push(['point', i, `v${i}`, p[0], p[1], order >= 0 ? order : '', '']);
  });
  (view?.mixtures ?? []).forEach((p, j) => rows.push(['mixture', j, '', p[0], p[1], '', view.inside[j]]));
  if (view) rows.push(['highlight', 0, 'y(τ)', ...view.highlight, '', view.highlightInside ? 1 : 0]);
  return rows;
}

/** The JSON export. */
export function hullExportObject(state, view) {
  return {
    ...state,
    hull: view?.hull ?? null,
    outside: view?.outside ?? null,
    highlight: view?.highlight ?? null,
    highlightWeights: view?.alpha ?? null,
    mixtures: view?.mixtures ?? null,
  };
}

/** The NumPy/SciPy code cell; attn-code fills in {{V}}, {{seed}}, {{c}}, {{count}}, {{s}}, {{tau}}. */
export const HULL_CODE = `import numpy as np
from scipy.spatial import ConvexHull

V_2d = np.array({{V}})   # (4, 2): one value per row
rng = np.random.default_rng({{seed}})

# {{count}} random convex weight vectors from the symmetric Dirichlet(c) distribution
alpha_samples = rng.dirichlet([{{c}}] * 4, size={{count}})   # (count, 4), rows >= 0 summing to 1
mixtures_2d = alpha_samples @ V_2d   # (count, 4) @ (4, 2) -> (count, 2)

if np.linalg.matrix_rank(V_2d - V_2d[0]) == 2:   # the values span an area
    # The hull as half-planes: normal . p + offset <= 0 inside every edge
    hull = ConvexHull(V_2d)
    print("hull vertices:", hull.vertices)   # counter-clockwise
    normals, offsets = hull.equations[:, :2], hull.equations[:, 2]
    outside = ((mixtures_2d @ normals.T + offsets) > 1e-9).any(axis=1).sum()
else:   # all on one line (or one point): the hull is the segment a-b between the farthest two
    far = np.linalg.norm(V_2d[:, None] - V_2d[None], axis=-1)
    a, b = V_2d[list(np.unravel_index(far.argmax(), far.shape))]
    t = np.clip((mixtures_2d - a) @ (b - a) / max((b - a) @ (b - a), 1e-300), 0, 1)
    outside = (np.linalg.norm(mixtures_2d - (a + t[:, None] * (b - a)), axis=1) > 1e-9).sum()
print("mixtures outside the hull:", outside)
assert outside == 0

# One mixture from scores: y = softmax(s / tau) @ V
s, tau = np.array({{s}}), {{tau}}
if tau == 0:   # the limit tau -> 0: all weight on the largest score (ties share)
    alpha = (s == s.max()) / (s == s.max()).sum()
else:
    z = np.exp((s - s.max()) / tau)
    alpha = z / z.sum()
print("alpha:", alpha.round(3), "y:", alpha @ V_2d)`;

/** The figure with Matplotlib, as the source notebook drew it: run after HULL_CODE (no placeholders). */
export const HULL_PLOT_CODE = `# needs: hull
import matplotlib.pyplot as plt

plt.figure(figsize=(7, 5))
if np.linalg.matrix_rank(V_2d - V_2d[0]) == 2:
    ring = np.append(hull.vertices, hull.vertices[0])   # the hull's corners, closed
    plt.fill(V_2d[ring, 0], V_2d[ring, 1], color="#f0e4c8", alpha=0.55, label="convex hull")
    plt.plot(V_2d[ring, 0], V_2d[ring, 1], "--", color="#5b5242")
else:
    plt.plot([a[0], b[0]], [a[1], b[1]], "--", color="#5b5242", label="convex hull (a segment)")
plt.scatter(mixtures_2d[:, 0], mixtures_2d[:, 1], s=12, alpha=0.35, color="#c9b994",
            label=f"{len(mixtures_2d):,} attention mixtures")
plt.scatter(V_2d[:, 0], V_2d[:, 1], s=85, color="#1c1812", zorder=5, label="values $v_j$")
for j, (x, y) in enumerate(V_2d):
    plt.annotate(f"  $v_{j}$ ({x:g}, {y:g})", (x, y))
y_tau = alpha @ V_2d
plt.scatter(y_tau[0], y_tau[1], marker="*", s=220, color="#b5452a", zorder=6, label=rf"$y(\\tau)$ at $\\tau$ = {tau}")
plt.xlabel("dimension 1"); plt.ylabel("dimension 2")
plt.title("Attention outputs lie inside the convex hull")
plt.axis("equal"); plt.grid(True, linestyle=":", alpha=0.4)
plt.legend(loc="upper left", bbox_to_anchor=(1.02, 1))   # beside the plot, clear of the values
plt.tight_layout(); plt.show()`;
