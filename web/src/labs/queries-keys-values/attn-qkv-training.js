/**
 * <attn-qkv-training id="train" seed="16" steps="0">
 *
 * Gradient descent finds W_Q and W_K (qkv-training-model.js): the engine's retrieval2d trainer
 * (one layer, one head, d_model 2, no MLP), drawn as it trains. The figure: the plane with the
 * keys k = x W_K of the four items at positions 0 and 1 (group A orange, group B green; a circle
 * at position 0, a square at position 1) and the queries q = x W_Q of 'A?' and 'B?' at position 2
 * (arrows). Beside it, so that both are in view while it trains (under it on a phone): Train (400
 * steps more, FRAME_STEPS per animation frame: a TrainingRun whose blocks move `steps`), Pause,
 * the step, loss and what the model retrieves, the loss of the last batch and the accuracy on all
 * 16 inputs against the step, W_Q and W_K, and the seed (Seed field, Re-roll, Reset).
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
import { html } from 'lit';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { mathText, tex } from '../../cells/base/math.js';
import { SeedControl, seedField } from '../../cells/base/seeds.js';
import { TrainingRun } from '../../cells/base/training-run.js';
import { lineChartStyles, touchTargets } from '../../cells/base/styles.js';
import { svgDocument } from '../../charts/export.js';
import { TRAIN_TORCH } from './qkv-code.js';
import { planeStyles } from './plane-styles.js';
import { lossChart, planeKey, trainingHood, trainingPlane } from './qkv-training-parts.js';
import { trainingStyles } from './qkv-training-styles.js';
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

/** A loss as a learner reads it: 0.253, or 3.1e-5 once it is tiny (not a flat 0). */
const lossText = (loss) => (loss >= 0.001 ? fmt(loss, 3) : loss.toExponential(1).replace('-', '−'));

export class AttnQkvTraining extends AttnLab {
  static stateFields = {
    seed: seedField(16),
    steps: { type: 'integer', default: 0, min: 0, max: MAX_STEPS },
  };

  static styles = [AttnLab.labStyles, touchTargets, lineChartStyles, planeStyles, trainingStyles];

  defaultLabel = 'Training $W_Q$ and $W_K$ on retrieval2d';

  constructor() {
    super();
    this._run = newRun();
    this._radius = 0;
    this._goal = 0; // where Train goes (Pause keeps it, so Train goes on to it)
    // each block moves `steps`, which the task below trains to in the same update, before the frame
    this.run = new TrainingRun(this, {
      advance: (count) => (this.steps = Math.min(this._goal, this.steps + count)),
      pace: () => ({
        block: globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 5 * FRAME_STEPS : FRAME_STEPS,
      }),
      stopped: () => this.stateChanged(),
      position: () => this.steps,
    });
    this.seeds = new SeedControl(this, 'The seed of the weights and the batches');
    this.task = new LabTask(this, {
      args: () => [this.seed, this.steps],
      run: ([seed, steps], { engine }) => advance(engine, this._run, seed, steps),
      explain: (error) => `Training could not go on: ${error.message}`,
    });
  }

  disconnectedCallback() {
    this.run.reset(); // stops without a state change
    super.disconnectedCallback();
    if (this.isConnected) return;
    disposeRun(this._run);
    this.task.retry(); // a new trainer when it comes back
  }

  /** Train: 400 steps more (or on to the goal a Pause interrupted), a few per animation frame. */
  train() {
    if (this.run.training) return;
    if (this._goal <= this.steps) this._goal = Math.min(MAX_STEPS, this.steps + TRAIN_STEPS);
    if (this._goal <= this.steps) return;
    this.beginEdit();
    this.settleAfter(this.run.train(this._goal)); // not settled while it trains
  }

  /** Pause: stops after the current frame's steps; Train goes on to the same goal. */
  pause() {
    this.run.pause();
  }

  reset() {
    this.run.reset();
    this._goal = 0;
    super.reset();
  }

  updated() {
    const s = this.task.value;
    if (!s) return;
    Object.assign(this.dataset, {
      step: String(s.step),
      training: String(this.run.training),
      correct: String(s.correct),
      retrieved: String(s.retrieved),
      meanRight: String(s.meanRight),
      solved: String(solved(s)),
    });
  }

  /** The plane: the four items' keys and the two queries, each joined to the key it scores highest. */
  _planeChart(s) {
    // the scale grows with the vectors; while it trains it never shrinks (the plane would jump)
    const radius = this.run.training ? Math.max(planeRadius(s), this._radius) : planeRadius(s);
    this._radius = radius;
    return trainingPlane(s, radius);
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
    const figure = s ? html`${this._planeChart(s)} ${planeKey}` : html`<p class="note">Loading the training core…</p>`;
    const done = s && s.step >= MAX_STEPS;
    const controls = html`<div class="controls run" role="group" aria-label="Training">
        <button type="button" class="train" ?disabled=${this.run.training || done} @click=${() => this.train()}>
          Train
        </button>
        <button type="button" class="pause" ?disabled=${!this.run.training} @click=${() => this.pause()}>Pause</button>
      </div>
      ${
        s
          ? html`<p class="mono step" aria-live=${this.run.training ? 'off' : 'polite'}>
                step ${s.step}${s.loss === null ? '' : `, loss ${lossText(s.loss)}`}
              </p>
              <p class="retrieval ${solved(s) ? 'solved' : ''}" aria-live=${this.run.training ? 'off' : 'polite'}>
                ${retrievalSummary(s)}
              </p>
              ${lossChart(s, this._goal)}
              <h3>The learned projections</h3>
              <p class="mono wq">${tex`W_Q`} = ${matrixText(s.wq)}</p>
              <p class="mono wk">${tex`W_K`} = ${matrixText(s.wk)}</p>
              <p class="mono">${mathText(`$q$(A?) = ${vec(s.queries.A)}, $q$(B?) = ${vec(s.queries.B)}`)}</p>`
          : ''
      }
      ${this.seeds.render()}`;
    return this.renderLab({
      figure,
      controls,
      checks: s ? checkCells(trainingChecks(s)) : '',
      code: html`<attn-code
        label="PyTorch: the same model and task"
        .template=${TRAIN_TORCH}
        .params=${{ seed: this.seed, steps: this.steps || TRAIN_STEPS }}
      ></attn-code>`,
      hood: trainingHood,
    });
  }
}

customElements.define('attn-qkv-training', AttnQkvTraining);
