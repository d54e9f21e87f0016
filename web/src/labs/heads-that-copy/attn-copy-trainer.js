/**
 * <attn-copy-trainer id="copier" seed="1" steps="2500">
 *
 * Heads that copy: a two-layer attention-only transformer reading characters (the engine's `text`
 * task), in the page's pool of Web Workers (CopySession). It opens on the committed model (seed 1,
 * the course's prose, 2,500 steps: labs/heads-that-copy/trained-text.json and the curves of its
 * training, trained-text-history.json, made by `npm run train:text` exactly as Train from scratch
 * trains), loaded at once. Train from scratch makes a fresh model of the seed and text and trains
 * it in blocks of 50 steps, each followed by the copying probe, to step 2,500 (or Pause; Continue
 * goes on to 4,000): the loss curve with the steps at which each second-layer head's
 * prefix-matching score crossed 0.4 and the step from which the data repeats prose too, the copy
 * accuracy, and every head's two scores over training (copy-trainer-parts.js). Beside it: the seed
 * and the training text.
 *
 * State (permalink, COPY_FIELDS): seed, steps, text (the learner's own, up to 16 KB; '' is the
 * course's prose). A state other than the committed model's is reached by training a fresh model
 * to `steps` (with progress). The satellites on the page (`for` this lab's id: attn-copy-reader,
 * attn-copy-knockouts, attn-copy-circuits) read the model through read(), knockouts() and
 * circuits(), and redraw on its `attn-trainer-change` event; the heads knocked out (`off`) are
 * view state, shared by them. Sets on itself: data-status (restoring | training | ready),
 * data-step, data-copied (the step it began to copy at, or ''), data-second (second-copy accuracy),
 * data-computed-in, data-workers.
 */
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { TrainingRun } from '../../cells/base/training-run.js';
import { lineChartStyles } from '../../cells/base/styles.js';
import { svgDocument } from '../../charts/export.js';
import { cancelledError } from '../../engine/errors.js';
import { withDefaultText } from '../../engine/text-default.js';
import { copyStyles } from './copy-styles.js';
import { copierLab } from './copy-trainer-parts.js';
import { BLOCK, COPY_FIELDS, crossings, describeCopier, historyFromRows, MAX_STEPS, RUN_TO } from './copy-model.js';
import { CopySession, modelKey } from './copy-session.js';
import rows from './trained-text-history.json';
import packed from './trained-text.json?weights';

/**
 * The committed model (npm run train:text): its packed state, the curves of its training and the
 * default corpus it was trained on (asked for when needed: the single file inflates it then).
 */
const COMMITTED = { packed, history: historyFromRows(rows), text: () => withDefaultText({ task: 'text' }).text };

export class AttnCopyTrainer extends AttnLab {
  static stateFields = COPY_FIELDS;

  static properties = { ...super.properties, off: { state: true }, draft: { state: true } };

  static styles = [AttnLab.labStyles, lineChartStyles, copyStyles];

  defaultLabel = 'Heads that copy: a two-layer attention-only model reading characters';

  constructor() {
    super();
    this.session = new CopySession({
      changed: () => {
        this.dataset.workers = String(this.session.workers);
        this.requestUpdate();
      },
    });
    this.off = []; // view state: heads knocked out ("layer.head"), shared with the satellites
    this.draft = null; // the training text being edited: { text, error } or null
    this._scratch = false; // Train from scratch asked for: train once the fresh model is open
    this.run = new TrainingRun(this, {
      advance: (count, { signal, onProgress }) => this.session.advance(count, { signal, onProgress }),
      measure: (step) => this._measureBlock(step),
      pace: () => ({ block: BLOCK, minMs: 0 }),
      position: () => this.session.at,
      stopped: () => {
        if (this.run.restoring) return;
        this.steps = this.session.at;
        this.stateChanged();
      },
    });
    this.job = new LabTask(this, {
      engine: 'worker',
      args: () => [modelKey(this.settings), this.steps, this.training],
      run: (args, context) => this.session.locked(() => this._sync(args, context)),
      explain: (error) => `Training stopped: ${error.message}`,
    });
  }

  connectedCallback() {
    super.connectedCallback();
    this.dataset.status ??= 'restoring';
    if (this.hasUpdated) this.job.retry();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.session.dispose();
  }

  get settings() {
    return { seed: this.seed, steps: this.steps, text: this.text };
  }

  /** Train from scratch or Continue is running (not a retraining from a link). */
  get training() {
    return this.run.training && !this.run.restoring;
  }

  /** Where the run stands: { copied, heads } (copy-model.js crossings). */
  get crossings() {
    return crossings(this.session.history);
  }

  /**
   * Brings the session to the state's model and step: the committed model at once, or a fresh one
   * trained to `steps` with progress; then the probe.
   */
  async _sync([key, steps, training], { engine }) {
    const s = this.session;
    // a model trained here to the committed model's step stays (its curves with it)
    if (s.key !== key || (!training && s.at > steps)) {
      this.run.reset();
      await s.open(engine, this.settings, COMMITTED);
    }
    if (training) return null;
    if (s.at < steps) {
      this.dataset.status = 'restoring';
      await this.run.restore(steps, { measure: false });
      if (s.at < steps) throw cancelledError('training stopped before the step');
    }
    await s.measure();
    this._show();
    this.dataset.status = 'ready';
    if (this._scratch) {
      this._scratch = false;
      queueMicrotask(() => this._train(RUN_TO));
    }
    return null;
  }

  /** After each block: the probe, drawn, the step in the permalink. */
  async _measureBlock(step) {
    await this.session.locked(() => this.session.measure());
    this._show();
    this.steps = step;
    this.stateChanged();
  }

  _show() {
    const { at, probe } = this.session;
    this.dataset.step = String(at);
    this.dataset.second = probe ? String(probe.secondCopyAccuracy) : '';
    this.dataset.copied = String(this.crossings.copied ?? '');
  }

  /** Blocks of steps until Pause or `until` (Train from scratch: RUN_TO; Continue: MAX_STEPS). */
  _train(until = MAX_STEPS) {
    if (!this.session.trainer || this.session.committed || this.run.training) return;
    this.off = [];
    this.dataset.status = 'training';
    this.run.train(until);
  }

  /** Train from scratch: a fresh model of the seed and text at step 0, then Train. */
  _fromScratch() {
    if (this.run.training) return;
    this.beginEdit();
    this.run.reset();
    this.session.dispose();
    this.off = [];
    this._scratch = true;
    this.steps = 0;
    this.stateChanged();
    this.job.retry();
  }

  /** A learner's new seed or training text: a fresh model at step 0 (trained on Train). */
  _newModel(change) {
    if (Object.keys(change).every((name) => Object.is(this[name], change[name]))) return;
    this.run.reset();
    this.session.dispose();
    this.beginEdit();
    Object.assign(this, change, { steps: 0 });
    this.off = [];
    this.stateChanged();
    this.job.retry();
  }

  /** Knocks out exactly the heads `keys` ("layer.head"): the satellites redraw. */
  setKnockedOut(keys) {
    this.off = [...keys].sort();
  }

  /** The next character after each position of `text` and every head's attention, with `off` out. */
  read(text) {
    if (!this.session.trainer) return Promise.reject(new Error('the model is not loaded yet'));
    return this.session.read(text, this.off);
  }

  /** The probe with `off` knocked out, and with each other head out too. */
  knockouts() {
    if (!this.session.trainer) return Promise.reject(new Error('the model is not loaded yet'));
    return this.session.knockouts(this.off);
  }

  /** A head's OV circuit and its QK circuit through layer 0's head `source`. */
  circuits(layer, head, source) {
    if (!this.session.trainer) return Promise.reject(new Error('the model is not loaded yet'));
    return this.session.circuits(layer, head, source);
  }

  resetView() {
    this.off = [];
    this.draft = null;
  }

  updated() {
    this.dispatchEvent(new CustomEvent('attn-trainer-change', { bubbles: true, composed: true }));
  }

  describe() {
    const { at, lastLoss: loss, probe } = this.session;
    return describeCopier({ settings: this.settings, at, loss, probe, copied: this.crossings.copied });
  }

  exportSvgText() {
    const chart = this.renderRoot.querySelector('.curve-loss');
    if (!chart?.svg) throw new Error('nothing drawn yet');
    return svgDocument(chart.svg);
  }

  exportRows() {
    const head = ['step', 'loss (bits/char)', 'second copy', 'first copy'];
    const scores = ['0.0', '0.1', '1.0', '1.1'].flatMap((k) => [`previous-token ${k}`, `prefix-matching ${k}`]);
    return [
      [...head, ...scores],
      ...this.session.history.map(({ step, loss, probe: p }) => [
        step,
        loss,
        p?.secondCopyAccuracy ?? '',
        p?.firstCopyAccuracy ?? '',
        ...(p ? p.previousToken.flatMap((v, i) => [v, p.prefixMatching[i]]) : Array(8).fill('')),
      ]),
    ];
  }

  exportObject() {
    const { at, history, probe } = this.session;
    return { settings: this.settings, step: at, history, probe };
  }

  renderFigure() {
    return this.renderLab(copierLab(this));
  }
}

customElements.define('attn-copy-trainer', AttnCopyTrainer);
