// The cell gallery (gallery/cells.html): wires the example cells together.
// The logits editor and the temperature slider drive a softmax in the wasm
// core, whose weights are printed (attn-output), checked (attn-check) and
// written as NumPy (attn-code); the matrix editor drives a row-sum check; the
// first exercise checks the weights typed into its own vector editor; the number exercise draws
// other temperatures with Try another (its variant hook).
import '../shell/register.js';
import { getEngine } from '../runtime.js';

const $ = (id) => document.getElementById(id);
const fixed = (xs, digits) => `[${Array.from(xs, (x) => x.toFixed(digits)).join(', ')}]`;
const tauText = (tau) => (tau === Infinity ? '∞' : String(Number(tau.toPrecision(4))));

const logits = $('logits');
const tau = $('tau');
const output = $('softmax-output');
const sumCheck = $('check-sum');
const dominantCheck = $('check-dominant');
const code = $('softmax-code');
const matrix = $('matrix');
const matrixOutput = $('matrix-output');
const rowsCheck = $('check-rows');

output.text = 'Loading the attention core…';
matrixOutput.text = 'Loading the attention core…';

let engine = null;

function showSoftmax() {
  const s = logits.values;
  const t = tau.value;
  try {
    const w = engine.softmax(s, { temperature: t }).data;
    const sum = w.reduce((a, b) => a + b, 0);
    output.text = `τ = ${tauText(t)}\nweights = ${fixed(w, 4)}\nsum     = ${sum.toFixed(6)}`;
    sumCheck.value = Math.abs(sum - 1);
    dominantCheck.value = Math.max(...w);
    code.params = { logits: s, tau: t, weights: Array.from(w, (x) => Number(x.toFixed(4))) };
  } catch (error) {
    output.text = `error: ${error.message}`;
    sumCheck.value = undefined;
    dominantCheck.value = undefined;
  }
}

function showRows() {
  const A = matrix.values;
  try {
    const report = engine.rowStochasticReport(A);
    const sums = A.map((row) => row.reduce((a, b) => a + b, 0));
    matrixOutput.text = sums.map((s, i) => `row ${i}: ${s.toFixed(6)}`).join('\n');
    rowsCheck.value = report.maxRowSumError;
  } catch (error) {
    matrixOutput.text = `error: ${error.message}`;
    rowsCheck.value = undefined;
  }
}

code.params = { logits: logits.values, tau: tau.value };
logits.addEventListener('change', () => engine && showSoftmax());
tau.addEventListener('change', () => engine && showSoftmax());
matrix.addEventListener('change', () => engine && showRows());

// Exercise: make the weights a convex combination.
const convex = $('convex-weights');
const weights = $('mix-weights');
convex.getAttempt = () => weights.values;
convex.check = (w) => {
  const negative = w.findIndex((x) => x < 0);
  if (negative >= 0) {
    return {
      correct: false,
      message: `weight ${negative} (counting from 0) is ${w[negative]}; no weight may be negative.`,
    };
  }
  const sum = w.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 1e-9) {
    return { correct: false, message: `the weights sum to ${Number(sum.toPrecision(6))}, not 1.` };
  }
  return { correct: true, message: 'no weight is negative and they sum to 1: a convex combination.' };
};

// Exercise: read a weight. Try another asks the same at another temperature (seed 1, 2, … take the
// temperatures in turn: the same questions on every visit), with the slips the authored one declares.
const LOGITS = [1.2, 4.5, 2, 0.8];
const TEMPERATURES = [0.5, 2, 3, 4, 0.25];
const weightOf = (i, t) => {
  const e = LOGITS.map((s) => Math.exp(s / t));
  return e[i] / e.reduce((a, b) => a + b, 0);
};
const round4 = (x) => Number(x.toFixed(4));
$('top-weight').variant = (seed) => {
  const t = TEMPERATURES[(seed - 1) % TEMPERATURES.length];
  return {
    answer: round4(weightOf(1, t)),
    tolerance: 0.0006,
    prompt: `At τ = ${t}, what weight does softmax give to the logit 4.5 in [1.2, 4.5, 2, 0.8]? Three decimals are enough.`,
    hint: `Divide every logit by τ = ${t} first, then exponentiate and normalise.`,
    explanation: `e^(4.5/${t}) / Σ e^(sᵢ/${t}) ≈ ${round4(weightOf(1, t))}.`,
    mistakes: [
      {
        value: round4(weightOf(1, 1)),
        tolerance: 0.0006,
        feedback: 'that is the weight at τ = 1: divide the logits by τ first.',
      },
      {
        value: round4(4.5 / 8.5),
        tolerance: 0.0006,
        feedback: '4.5 / 8.5 divides the logit by the sum of the logits; softmax exponentiates first.',
      },
    ],
  };
};

try {
  engine = await getEngine();
  showSoftmax();
  showRows();
  document.body.dataset.ready = 'true';
} catch (error) {
  output.text = `The attention core could not be loaded: ${error.message}`;
  matrixOutput.text = output.text;
}
