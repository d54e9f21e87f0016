/**
 * <attn-softmax-stability id="overflow" logits="1000,1001,1002">
 *
 * Why softmax subtracts the maximum. The same logits go through
 * - a naive softmax, exp(s) / Σ exp(s), computed here in plain JavaScript
 *   (float64 Math.exp) as a demonstration, clearly labelled: exp(1000)
 *   overflows to Infinity and Infinity / Infinity is NaN;
 * - the wasm core's softmax, exp(s − max s) / Σ exp(s − max s), which stays
 *   finite for any finite logits.
 * Live checks: the naive result holds NaN exactly when some exp(s) overflows
 * float64 (s > ln(max double) ≈ 709.78) or every exp(s) underflows to 0
 * (s < −745.13); the core's weights are finite and sum to 1; and the core
 * gives the same weights for s and s − max s (softmax ignores a shift).
 * NumPy code with the current logits.
 *
 * State (permalink): logits (1 to 16 numbers, each in [−1e6, 1e6]).
 * The logits are typed into an attn-vector-editor: a bad entry shows the
 * reason beside the field and the cell keeps the last valid logits.
 */
import { css, html } from 'lit';
import { AttnCell } from '../../cells/base/attn-cell.js';
import { cellStyles, formatNumber, resetToAuthored } from '../../cells/base/cell-support.js';

const OVERFLOW = Math.log(Number.MAX_VALUE); // 709.78…: exp of anything larger is Infinity in float64
const UNDERFLOW = -745.1332191019412; // exp of anything smaller rounds to 0 in float64

const CODE = `import numpy as np

s = np.array({{logits}}, dtype=np.float64)

# naive: exp(1000) overflows to inf, and inf / inf is nan
with np.errstate(over="ignore", invalid="ignore"):
    naive = np.exp(s) / np.exp(s).sum()

# stable: subtract the max first; the largest exponent is exp(0) = 1
z = s - s.max()
stable = np.exp(z) / np.exp(z).sum()

print("naive: ", naive)
print("stable:", stable, "sum =", stable.sum())`;

/** The textbook formula with no max subtraction, in plain JS float64: the demonstration of what goes wrong. */
function naiveSoftmaxInJs(logits) {
  const exps = logits.map((s) => Math.exp(s));
  const total = exps.reduce((a, b) => a + b, 0);
  return { exps, total, weights: exps.map((e) => e / total) };
}

const list = (xs, digits) =>
  `[${Array.from(xs, (x) => (Number.isFinite(x) ? (digits ? x.toFixed(digits) : formatNumber(x, 6)) : String(x))).join(', ')}]`;

export class AttnSoftmaxStability extends AttnCell {
  static stateFields = {
    logits: { type: 'numbers', default: [1000, 1001, 1002], minLength: 1, maxLength: 16, min: -1e6, max: 1e6 },
  };

  static properties = { ...super.properties, label: { type: String }, _result: { state: true } };

  static styles = [
    AttnCell.baseStyles,
    cellStyles,
    css`
      .card {
        display: block;
      }
      .error {
        color: var(--danger, #b3261e);
      }
      .intro {
        margin: 0.25rem 0 0;
        color: var(--muted, #555d6b);
        font-size: 0.9rem;
      }
    `,
  ];

  constructor() {
    super();
    this.label = 'Numerical stability';
    this._result = null;
    this._engine = null;
  }

  async connectedCallback() {
    super.connectedCallback();
    try {
      this._engine = await this.engine();
      this._compute();
    } catch (error) {
      this.fail(new Error(`the attention core could not be loaded: ${error.message}`));
    }
  }

  willUpdate(changed) {
    if (this._engine && changed.has('logits')) this._compute();
  }

  _compute() {
    const s = this.logits;
    const naive = naiveSoftmaxInJs(s);
    const naiveNaN = naive.weights.some((w) => Number.isNaN(w));
    const max = Math.max(...s);
    const overflows = s.some((x) => x > OVERFLOW);
    const underflows = s.every((x) => x < UNDERFLOW);
    const shifted = s.map((x) => x - max);
    try {
      const stable = Array.from(this._engine.softmax(s).data);
      const stableShifted = Array.from(this._engine.softmax(shifted).data);
      const nonFinite = stable.filter((w) => !Number.isFinite(w)).length;
      const sum = stable.reduce((a, b) => a + b, 0);
      this._result = {
        naive,
        naiveNaN,
        predictedNaN: overflows || underflows,
        overflows,
        shifted,
        stable,
        nonFinite,
        sumGap: Math.abs(sum - 1),
        shiftGap: stable.reduce((m, w, i) => Math.max(m, Math.abs(w - stableShifted[i])), 0),
        error: '',
      };
    } catch (error) {
      this._result = { naive, naiveNaN, predictedNaN: overflows || underflows, overflows, error: error.message };
    }
    this.toggleAttribute('data-naive-nan', naiveNaN);
  }

  reset() {
    resetToAuthored(this);
  }

  _onLogits(event) {
    this.logits = event.detail.values;
    this.stateChanged();
  }

  renderCell() {
    const r = this._result;
    const naiveText = r
      ? [
          `exp(s)            = ${list(r.naive.exps)}`,
          `Σ exp(s)          = ${Number.isFinite(r.naive.total) ? formatNumber(r.naive.total, 6) : r.naive.total}`,
          `exp(s) / Σ exp(s) = ${list(r.naive.weights, 4)}`,
        ].join('\n')
      : 'Loading the attention core…';
    const stableText =
      r && !r.error
        ? [`s − max s = ${list(r.shifted)}`, `α         = ${list(r.stable, 4)}`].join('\n')
        : (r?.error ?? 'Loading the attention core…');
    const naiveLabel = r?.predictedNaN
      ? r.overflows
        ? 'naive softmax is NaN, because exp(s) overflows float64 (s > 709.78)'
        : 'naive softmax is NaN, because every exp(s) underflows to 0 (s < −745.13)'
      : 'naive softmax is finite here: no exp(s) overflows or all underflow';
    return html`
      <section class="card" aria-labelledby="title">
        <div class="head">
          <span class="label" id="title">${this.label}</span>
          <button type="button" @click=${() => this.reset()} aria-label=${`Reset ${this.label}`}>Reset</button>
        </div>
        <p class="intro">Type any logits: both softmaxes below recompute as you type.</p>
        <attn-vector-editor
          label="Logits s"
          min="-1000000"
          max="1000000"
          max-count="16"
          values=${this.getAttribute('logits') ?? this.constructor.stateFields.logits.default.join(',')}
          .values=${this.logits}
          @change=${this._onLogits}
        ></attn-vector-editor>
        <attn-output
          class="naive"
          label="Naive softmax — plain JavaScript (float64), for demonstration only"
          .text=${naiveText}
        ></attn-output>
        <attn-output
          class="stable"
          label="Stable softmax — the wasm core, max subtracted"
          .text=${stableText}
        ></attn-output>
        <attn-check
          id="check-naive"
          label=${naiveLabel}
          .pass=${r ? r.naiveNaN === r.predictedNaN : undefined}
        ></attn-check>
        <attn-check
          id="check-finite"
          label="stable softmax: entries that are not finite"
          threshold="0"
          .value=${r && !r.error ? r.nonFinite : undefined}
        ></attn-check>
        <attn-check
          id="check-sum"
          label="stable softmax: |Σ α − 1|"
          threshold="1e-6"
          .value=${r && !r.error ? r.sumGap : undefined}
        ></attn-check>
        <attn-check
          id="check-shift"
          label="max |softmax(s) − softmax(s − max s)|"
          threshold="1e-6"
          .value=${r && !r.error ? r.shiftGap : undefined}
        ></attn-check>
        <attn-code label="NumPy" .template=${CODE} .params=${{ logits: this.logits }}></attn-code>
      </section>
    `;
  }
}

customElements.define('attn-softmax-stability', AttnSoftmaxStability);
