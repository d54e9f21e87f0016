/**
 * <attn-qkv-training id="train" seed="16" steps="0">
 *
 * Gradient descent finds W_Q and W_K (qkv-training-model.js): the engine's retrieval2d trainer
 * (one layer, one head, d_model 2, no MLP), drawn as it trains. The figure: the plane with the
 * keys k = x W_K of the four items at positions 0 and 1 (group A orange, group B green; a circle
 * at position 0, a square at position 1) and the queries q = x W_Q of 'A?' and 'B?' at position 2
 * (arrows), then the loss of the last batch and the accuracy on all 16 inputs against the step.
 * Beside it: Train (400 steps more, FRAME_STEPS per animation frame, so the page stays responsive
 * and every frame is drawn), Pause, the step, loss and what the model retrieves, W_Q and W_K, and
 * the seed (Seed field, Re-roll, Reset).
 *
 * Runs on the main-thread engine: a few optimiser steps of this 2-D model take microseconds, so a
 * frame's work is small; the steps run synchronously in the lab's update (LabTask), so what is
 * drawn is always the model at `steps`. A permalink with steps=N replays N steps from the seed
 * (deterministic: step(a) then step(b) equals step(a + b)).
 *
 * State (permalink): seed (0 … 2³¹ − 1), steps (0 … 3000). Sets data-step, data-training
 * ("true" while it animates), data-correct and data-retrieved (of the 16 inputs), data-mean-right
 * (the mean weight on the right item) and data-solved. Not settled while training runs. Export:
 * the plane as SVG/PNG, the loss curve as CSV, the model's W_Q, W_K, vectors and answers as JSON.
 */
import { css, html } from 'lit';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { lineChartStyles, touchTargets } from '../../cells/base/styles.js';
import { svgDocument } from '../../charts/export.js';
import '../../charts/attn-line-chart.js';
import '../../charts/attn-vector-plane.js';
import { TRAIN_TORCH } from './qkv-code.js';
import { planeStyles } from './plane-styles.js';
import {
  FRAME_STEPS,
  MAX_STEPS,
  TRAIN_STEPS,
  advance,
  describeTraining,
  disposeRun,
  fmt,
  historyRows,
  matrixText,
  newRun,
  planeRadius,
  retrievalSummary,
  solved,
  trainingChecks,
  trainingObject,
  vec,
} from './qkv-training-model.js';

const SUB = '₀₁₂';

const LOSS_SERIES = [
  { name: 'loss', className: 'series-0', points: false },
  { name: 'accuracy', className: 'series-1', dashed: true, points: false },
];

/** A loss as a learner reads it: 0.253, or 3.1e-5 once it is tiny (not a flat 0). */
const lossText = (loss) => (loss >= 0.001 ? fmt(loss, 3) : loss.toExponential(1).replace('-', '−'));

export class AttnQkvTraining extends AttnLab {
  static stateFields = {
    seed: seedField(16),
    steps: { type: 'integer', default: 0, min: 0, max: MAX_STEPS },
  };

  static properties = { ...super.properties, _playing: { state: true } };

  static styles = [
    AttnLab.labStyles,
    touchTargets,
    lineChartStyles,
    planeStyles,
    css`
      h3:first-child {
        margin-top: 0;
      }
      .mono {
        font-size: 0.85rem;
        overflow-wrap: anywhere;
        margin: 0.25rem 0;
      }
      .run button {
        font-weight: 600;
      }
      .solved {
        font-weight: 600;
      }
      .loss {
        margin-top: 0.5rem;
        max-width: 36rem;
      }
    `,
  ];

  defaultLabel = 'Training W_Q and W_K on retrieval2d';

  constructor() {
    super();
    this._run = newRun();
    this._radius = 0;
    this._playing = false;
    this._goal = 0;
    this._frame = 0;
    this._finished = null;
    this.seeds = new SeedControl(this, 'The seed of the weights and the batches');
    this.task = new LabTask(this, {
      args: () => [this.seed, this.steps],
      run: ([seed, steps], { engine }) => advance(engine, this._run, seed, steps),
      explain: (error) => `Training could not go on: ${error.message}`,
    });
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    if (this.isConnected) return;
    this._stop(false);
    disposeRun(this._run);
    this.task.retry(); // a new trainer when it comes back
  }

  /** Train: 400 steps more (or on to the goal a Pause interrupted), a few per animation frame. */
  train() {
    if (this._playing) return;
    if (this._goal <= this.steps) this._goal = Math.min(MAX_STEPS, this.steps + TRAIN_STEPS);
    if (this._goal <= this.steps) return;
    this.beginEdit();
    this._playing = true;
    this.settleAfter(new Promise((resolve) => (this._finished = resolve))); // not settled while it trains
    const perFrame = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches
      ? 5 * FRAME_STEPS
      : FRAME_STEPS;
    const tick = () => {
      if (!this._playing) return;
      this.steps = Math.min(this._goal, this.steps + perFrame);
      if (this.steps >= this._goal) this._stop(true);
      else this._frame = requestAnimationFrame(tick);
    };
    this._frame = requestAnimationFrame(tick);
  }

  /** Pause: stops after the current frame's steps; Train goes on to the same goal. */
  pause() {
    this._stop(true);
  }

  _stop(announce) {
    cancelAnimationFrame(this._frame);
    const was = this._playing;
    this._playing = false;
    this._finished?.();
    this._finished = null;
    if (was && announce) this.stateChanged();
  }

  reset() {
    this._stop(false);
    this._goal = 0;
    super.reset();
  }

  updated() {
    const s = this.task.value;
    if (!s) return;
    Object.assign(this.dataset, {
      step: String(s.step),
      training: String(this._playing),
      correct: String(s.correct),
      retrieved: String(s.retrieved),
      meanRight: String(s.meanRight),
      solved: String(solved(s)),
    });
  }

  /** The plane: the four items' keys and the two queries, each joined to the key it scores highest. */
  _planeChart(s) {
    // the scale grows with the vectors; while it trains it never shrinks (the plane would jump)
    const radius = this._playing ? Math.max(planeRadius(s), this._radius) : planeRadius(s);
    this._radius = radius;
    const best = (q) =>
      s.keys.reduce((top, k) => (q[0] * k.at[0] + q[1] * k.at[1] > q[0] * top.at[0] + q[1] * top.at[1] ? k : top));
    return html`<attn-vector-plane
      class="plane"
      label="Keys of the four items and the queries of 'A?' and 'B?'"
      radius=${radius}
      .points=${s.keys.map((k) => ({
        at: k.at,
        label: `${k.token}${SUB[k.position]}`,
        className: k.group === 'A' ? 'group-a' : 'group-b',
        shape: k.position === 0 ? 'circle' : 'square',
        size: 5,
        labelOffset: k.position === 0 ? [-24, -6] : [8, 14], // the two positions' keys lie close together
      }))}
      .arrows=${[
        { to: s.queries.A, label: 'q(A?)', className: 'query' },
        { to: s.queries.B, label: 'q(B?)', className: 'query query-b' },
      ]}
      .links=${[
        { from: s.queries.A, to: best(s.queries.A).at, className: 'pick' },
        { from: s.queries.B, to: best(s.queries.B).at, className: 'pick' },
      ]}
    ></attn-vector-plane>`;
  }

  /** The loss and accuracy curves, their axes growing by whole blocks of Train as it goes on. */
  _loss(s) {
    const xMax = Math.max(TRAIN_STEPS, Math.ceil(Math.max(this._goal, s.step) / TRAIN_STEPS) * TRAIN_STEPS);
    const yMax = Math.max(2, Math.ceil(Math.max(0, ...s.history.map((h) => h[1])) * 2) / 2);
    return html`<attn-line-chart
      class="loss"
      label="Loss of the last batch and accuracy on the 16 inputs, by step"
      x-label="step"
      y-label="loss, accuracy"
      .xDomain=${[0, xMax]}
      .yDomain=${[0, yMax]}
      .series=${LOSS_SERIES}
      .data=${[s.history.map(([x, loss]) => [x, loss]), s.history.map(([x, , acc]) => [x, acc])]}
      .marker=${s.step}
    ></attn-line-chart>`;
  }

  describe() {
    return describeTraining(this.task.value);
  }

  exportSvgText() {
    return svgDocument(this.renderRoot.querySelector('attn-vector-plane').svg);
  }

  exportRows() {
    return historyRows(this.task.value);
  }

  exportObject() {
    return trainingObject(this.task.value);
  }

  renderFigure() {
    const s = this.task.value;
    const figure = s
      ? html`${this._planeChart(s)}
          <p class="plane-legend" aria-hidden="true">
            <span><span class="swatch group-a"></span>keys of group A (tokens 0, 1)</span>
            <span><span class="swatch group-b"></span>keys of group B (tokens 2, 3)</span>
            <span><span class="swatch query"></span>queries of 'A?', 'B?'</span>
          </p>
          <p class="hint">
            A key is labelled token<sub>position</sub>: 1₀ is token 1 at position 0 (a circle), 1₁ at position 1 (a
            square). A dashed line joins each query to the key it scores highest.
          </p> `
      : html`<p class="note">Loading the training core…</p>`;
    const done = s && s.step >= MAX_STEPS;
    const controls = html`<div class="controls run" role="group" aria-label="Training">
        <button type="button" class="train" ?disabled=${this._playing || done} @click=${() => this.train()}>
          Train
        </button>
        <button type="button" class="pause" ?disabled=${!this._playing} @click=${() => this.pause()}>Pause</button>
      </div>
      ${
        s
          ? html`<p class="mono step" aria-live=${this._playing ? 'off' : 'polite'}>
                step ${s.step}${s.loss === null ? '' : `, loss ${lossText(s.loss)}`}
              </p>
              <p class="retrieval ${solved(s) ? 'solved' : ''}" aria-live=${this._playing ? 'off' : 'polite'}>
                ${retrievalSummary(s)}
              </p>
              <h3>The learned projections</h3>
              <p class="mono wq">W_Q = ${matrixText(s.wq)}</p>
              <p class="mono wk">W_K = ${matrixText(s.wk)}</p>
              <p class="mono">q(A?) = ${vec(s.queries.A)}, q(B?) = ${vec(s.queries.B)}</p>`
          : ''
      }
      ${this.seeds.render()}`;
    return this.renderLab({
      figure,
      controls,
      after: s ? this._loss(s) : '', // under both columns: on a phone Train stays next to the plane
      checks: s ? checkCells(trainingChecks(s)) : '',
      code: html`<attn-code
        label="PyTorch: the same model and task"
        .template=${TRAIN_TORCH}
        .params=${{ seed: this.seed, steps: this.steps }}
      ></attn-code>`,
      hood: html`<p>
        The model trains in the WebAssembly core on the page's main thread: ${FRAME_STEPS} AdamW steps (batches of 32
        inputs) per animation frame, then the drawing. The seed fixes the first weights and every batch, so a step count
        names one model: a link with <code>train.steps=400</code> replays the same 400 steps and shows the same picture.
        The accuracy is measured on all 16 possible inputs, not on a sample.
      </p>`,
    });
  }
}

customElements.define('attn-qkv-training', AttnQkvTraining);
