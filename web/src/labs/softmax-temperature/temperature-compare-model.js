/**
 * The source notebook's comparison "softmax competition under temperature scaling": the same
 * logits at a few temperatures. Shared by attn-temperature-compare (grouped bars) and the
 * softmax lab (a table beside its one weight chart). No DOM; unit-tested in Node
 * (tests/js/labs-softmax-temperature.test.js).
 */
import { pythonLiteral } from '../../cells/base/cell-support.js';

/**
 * softmax(logits / τ) for each τ of `temperatures`, from the core, and the check's measured gap:
 * the largest |row sum − 1| over them (the core's rowStochasticReport).
 * @param {import('../../engine/index.js').Attention} engine
 */
export function computeComparison(engine, logits, temperatures) {
  const rows = temperatures.map((t) => engine.softmax(logits, { temperature: t }).data);
  const report = engine.rowStochasticReport({
    data: Float32Array.from(rows.flatMap((r) => Array.from(r))),
    shape: [rows.length, logits.length],
  });
  return { temperatures: [...temperatures], rows, rowSumGap: report.maxRowSumError };
}

/** A weight in the comparison table: 4 decimals, or two significant digits when it is that small. */
export const formatWeight = (w) => (w === 0 || w >= 5e-5 ? w.toFixed(4) : w.toExponential(1).replace('e-', 'e−'));

/** The check (data for AttnLab checkCells): every row of weights sums to 1; `python`: in COMPARE_CODE's names. */
export const comparisonCheck = (comparison, temperatures) => ({
  label: `max |row sum − 1| over the ${temperatures.length === 3 ? 'three' : temperatures.length} temperatures`,
  threshold: 1e-6,
  comparison: 'le',
  value: comparison?.rowSumGap,
  python: 'max(abs(float(custom_softmax(logits, temperature=t).sum()) - 1) for t in temperatures)',
});

/** The weights as a notebook prints them, one line per τ (4 decimals). */
export function comparisonPrintout(comparison) {
  return comparison.rows
    .map(
      (row, k) =>
        `τ = ${comparison.temperatures[k].toFixed(2)}: α = ${pythonLiteral(Array.from(row, (w) => Number(w.toFixed(4))))}`,
    )
    .join('\n');
}

/** One sentence for the text alternative. */
export function describeComparison(logits, comparison) {
  if (!comparison) return 'Softmax weights, not computed yet.';
  const parts = comparison.rows.map(
    (row, k) => `at τ = ${comparison.temperatures[k]}: ${Array.from(row, (w) => w.toFixed(3)).join(', ')}`,
  );
  return `Softmax weights of the logits ${logits.join(', ')} ${parts.join('; ')}.`;
}

/** CSV rows: one per position, a weight column per temperature. */
export function comparisonRows(logits, comparison) {
  const temperatures = comparison?.temperatures ?? [];
  const header = ['position', 'logit', ...temperatures.map((t) => `weight at tau=${t}`)];
  return [header, ...logits.map((s, j) => [j, s, ...(comparison?.rows ?? []).map((row) => row[j])])];
}

/** The source's figure in PyTorch and Matplotlib, with {{logits}} and {{temperatures}} filled in. */
export const COMPARE_CODE = `import torch
import numpy as np
import matplotlib.pyplot as plt

logits = torch.tensor({{logits}}, dtype=torch.float32)

def custom_softmax(s, temperature=1.0):
    scaled = s / temperature
    stabilized = scaled - torch.max(scaled)   # subtract the max: nothing overflows
    exps = torch.exp(stabilized)
    return exps / torch.sum(exps)

temperatures = {{temperatures}}
x = np.arange(len(logits))
width = 0.8 / len(temperatures)
for k, tau in enumerate(temperatures):
    alpha = custom_softmax(logits, temperature=tau)
    print(f"tau = {tau}: {alpha.numpy().round(4)}")
    plt.bar(x + (k - (len(temperatures) - 1) / 2) * width, alpha.numpy(), width, label=f"tau = {tau}")
plt.xticks(x, [f"Pos {j}" for j in range(len(logits))])
plt.ylabel("attention weight"); plt.legend(); plt.show()`;
