/**
 * <attn-attend-trainer task="reverse" layers="1" heads="2" width="32" rate="0.01" seed="1" steps="0">
 *
 * Watch attention learn: a small decoder-only transformer (engine/trainer.js) trained in the page's
 * pool of Web Workers (runtime.js getPool: a step large enough is shared among every core, bit for
 * bit the same weights), or in the page's Web Worker where no pool starts (runtime.js
 * getWorkerEngine; where no worker may start, its main-thread stand-in runs the same steps in short
 * chunks). Beside the figure: the task, layers, heads, width, learning rate
 * and seed, each configuration's size, training memory and estimated time; Train, Pause, Step and
 * Reset. The figure: loss and accuracy curves, and every head's attention on a fixed probe
 * sequence, redrawn after each block of steps (about ten times a second at most). Below: the
 * learner's own input (typed or clicked) with the model's answer token by token, wrong tokens
 * marked, and each head's attention for it; knocking heads out (ablation) with the accuracy
 * without each head; saving and loading the trained state as JSON; the PyTorch code.
 *
 * State (permalink): task, layers (1–2), heads (1, 2, 4), width (dModel: 16, 32, 64), rate (0.001–0.03),
 * seed (0–999), steps (0–5000). A state with steps > 0 is reached by training a fresh model for that
 * many steps (a progress bar shows it), so a link reopens to the same weights. Knock-outs and the
 * learner's input are view state. Training with Train or Step turns every head back on.
 * Sets on itself: data-status (idle | training | restoring | ready), data-step, data-loss,
 * data-accuracy, data-computed-in, data-workers (how many workers shared the last steps).
 */
import { html } from 'lit';
import { AttnLab, checkCells } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { getPool } from '../../runtime.js';
import { searchFewestHeads } from './fewest-heads-model.js';
import { lineChartStyles } from '../../cells/base/styles.js';
import { download, svgDocument, toJson } from '../../charts/export.js';
import { trainerStyles } from './attend-trainer-styles.js';
import { runControls, settingsControls } from './trainer-controls-parts.js';
import { lossCurves } from './trainer-curves-parts.js';
import { ablationSection, fileSection, headMaps, ownSection, trainerHood } from './trainer-views-parts.js';
import {
  describeTrainer,
  headList,
  HEADS,
  LAYERS,
  LAYOUTS,
  MAX_STEPS,
  PACES,
  parseInput,
  placeholderResult,
  PROBES,
  RATES,
  SEEDS,
  settingsOf,
  TASK_TITLES,
  TASKS,
  trainerOptions,
  WIDTHS,
} from './trainer-model.js';
import { trainerChecks } from './trainer-heads-model.js';
import { flopsPerStep } from './trainer-cost-model.js';
import { torchParams, TRAINER_TORCH } from './trainer-torch-model.js';

/** Examples per accuracy measurement while training (256 when paused). */
const EVAL_SAMPLES = { training: 128, still: 256 };

const configKey = (s) => JSON.stringify(trainerOptions(s));

export class AttnAttendTrainer extends AttnLab {
  static stateFields = {
    task: { type: 'enum', default: 'reverse', values: TASKS },
    layers: { type: 'integer', default: 1, min: LAYERS.min, max: LAYERS.max },
    heads: { type: 'enum', default: '2', values: HEADS },
    width: { type: 'enum', default: '32', values: WIDTHS },
    rate: { type: 'enum', default: '0.01', values: RATES },
    seed: { type: 'integer', default: 1, min: SEEDS.min, max: SEEDS.max },
    steps: { type: 'integer', default: 0, min: 0, max: MAX_STEPS },
  };

  static properties = {
    ...super.properties,
    _training: { state: true },
    _off: { state: true },
    _own: { state: true },
    _ownDraft: { state: true },
    _fileNote: { state: true },
    _pace: { state: true },
    _searching: { state: true },
  };

  static styles = [AttnLab.labStyles, lineChartStyles, trainerStyles];

  defaultLabel = 'Watch attention learn: a small transformer trained in the page';

  constructor() {
    super();
    this._trainer = null; // the handle (the pool's, the worker's or the main-thread stand-in's)
    this._pool = null; // the page's pool when it holds the trainer
    this._workers = 0; // how many of its workers shared the last steps
    this._key = null; // its config key
    this._at = 0; // its step, as last reported
    this._history = []; // [{ step, loss, accuracy }]
    this._result = null; // the latest refresh: { probe, own, accuracy, loss, knockouts }
    this._training = false;
    this._controller = null;
    this._off = []; // knocked-out heads, "layer.head"
    this._own = null; // the learner's input (token ids) or null
    this._ownDraft = null; // { text, error } while the field holds something that is not an input
    this._fileNote = '';
    this._pace = 'watch'; // view state: how fast Train goes (PACES)
    this._gflops = null; // measured speed
    this._lastLoss = NaN;
    this._searching = false; // fewestHeads() is trying subsets of heads
    this._queue = Promise.resolve(); // work that sets the heads runs one piece at a time (_locked)
    this._subsets = null; // { id, accuracy: Map } the accuracy of each subset tried, per model and step
    this.job = new LabTask(this, {
      engine: 'worker',
      args: () => [
        configKey(this.settings),
        this.steps,
        this._training,
        this._off.join(','),
        this._own ? this._own.join(',') : '',
      ],
      run: (args, context) => this._locked(() => this._sync(args, context)),
      explain: (error) => `Training stopped: ${error.message}`,
    });
  }

  connectedCallback() {
    super.connectedCallback();
    this.dataset.status ??= 'idle';
    if (this.hasUpdated) this.job.retry(); // back after a disconnect, which disposed the trainer
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._controller?.abort();
    this._training = false;
    this._trainer?.dispose().catch(() => {});
    this._trainer = null;
    this._key = null;
  }

  /** Retraining from a link, or trying subsets of heads: the settings and head buttons wait. */
  get _busy() {
    return Boolean(this.job.progress) || this._searching;
  }

  get settings() {
    const { task, layers, heads, width, rate, seed } = this;
    return { task, layers, heads, dModel: width, learningRate: rate, seed };
  }

  /**
   * Brings the trainer to the state's configuration and step (a new model, trained to `steps`
   * with progress when it is behind), applies the knock-outs, then measures: accuracy, the
   * probe's answer and attention, the learner's own input.
   */
  async _sync([key, steps, training], { engine, progress }) {
    const settings = this.settings;
    if (this._key !== key || (!training && this._at > steps)) {
      await this._trainer?.dispose().catch(() => {});
      this._trainer = null;
      this._trainer = await (await this._host(engine)).createTrainer(trainerOptions(settings));
      this._key = key;
      this._at = 0;
      this._history = [];
      this._lastLoss = NaN;
      this._off = this._off.filter((k) => headList(settings.layers, settings.heads).some((h) => h.key === k));
    }
    const t = this._trainer;
    if (!training && this._at < steps) {
      this.dataset.status = 'restoring';
      const from = this._at;
      await this._setHeads(t, []); // the link's weights were trained with every head on
      progress({ done: 0, count: steps - from, step: from });
      const started = performance.now();
      const losses = []; // the loss curve of the retraining (its accuracy is measured at the end)
      const r = await t.step(steps - from, {
        onProgress: (p) => {
          this._at = p.step;
          this._sharedBy(p);
          if (p.step < steps) losses.push({ step: p.step, loss: p.loss, accuracy: NaN });
          progress(p);
        },
      });
      this._measured(steps - from, performance.now() - started);
      this._at = r.step;
      this._lastLoss = r.loss;
      this._history = from === 0 ? losses : [];
    }
    if (training) return this._result; // the training loop measures after each block
    await this._setHeads(t, this._off);
    const result = await this._measure(t, { samples: EVAL_SAMPLES.still, knockouts: true });
    this.dataset.status = this._at > 0 ? 'ready' : 'idle';
    return result;
  }

  /**
   * Where trainers are made: the page's pool of workers (its steps shared among the cores, bit for
   * bit the same weights), or the engine when no pool can start (or no worker: the stand-in).
   */
  async _host(engine) {
    const { pool } = engine.inWorker ? await getPool() : { pool: null };
    this._pool = pool;
    this._workers = pool ? 1 : 0;
    return pool ?? engine;
  }

  /** Notes how many workers shared the steps a progress report `p` covers. */
  _sharedBy(p) {
    if (!this._pool || p.workers === undefined || p.workers === this._workers) return;
    this._workers = p.workers;
    this.dataset.workers = String(p.workers);
    this.requestUpdate();
  }

  /** The line under the settings: where the model trains. */
  _where() {
    if (!this._pool) return this.job.where;
    const threads = this._pool.threads;
    if (this._workers > 1)
      return `Trained on ${this._workers} cores: each step's batch is shared by ${this._workers} Web Workers, with the weights one core would give.`;
    return threads > 1
      ? `Trained in a Web Worker of a pool of ${threads}: steps this small run on one core, as sharing them would cost more than it saves; a larger model's steps are shared.`
      : 'Trained in a Web Worker.';
  }

  /** Runs `work` after the work queued before it (both set heads on the one trainer). */
  _locked(work) {
    const run = this._queue.then(work, work);
    this._queue = run.catch(() => {});
    return run;
  }

  async _setHeads(t, off) {
    for (const { layer, head, key } of headList(this.layers, this.heads)) {
      await t.setHeadEnabled(layer, head, !off.includes(key));
    }
  }

  /** This machine's speed, from a run of `steps` steps that took `ms`, for the cost line. */
  _measured(steps, ms) {
    const key = configKey(this.settings);
    if (this._timing?.key !== key) this._timing = { key, work: 0, ms: 0 };
    this._timing.work += flopsPerStep(this.settings) * steps;
    this._timing.ms += ms;
    if (this._timing.ms >= 20) this._gflops = this._timing.work / (this._timing.ms * 1e6);
  }

  /** Accuracy, the probe and the learner's input (and, when still, accuracy without each head). */
  async _measure(t, { samples, knockouts }) {
    const task = this.settings.task;
    const { loss, accuracy } = await t.evaluate({ samples, seed: 12345 });
    const probeInput = PROBES[task];
    const probe = { input: probeInput, ...(await t.predict(probeInput)) };
    const own =
      this._own && this._own.length === LAYOUTS[task].inputLength
        ? { input: this._own, ...(await t.predict(this._own)) }
        : null;
    let without = null;
    if (knockouts && this._at > 0) {
      without = [];
      for (const h of headList(this.layers, this.heads)) {
        if (this._off.includes(h.key)) continue;
        await t.setHeadEnabled(h.layer, h.head, false);
        without.push({ ...h, accuracy: (await t.evaluate({ samples: 128, seed: 777 })).accuracy });
        await t.setHeadEnabled(h.layer, h.head, true);
      }
    }
    const last = this._history.at(-1);
    if ((!last || last.step !== this._at) && this._off.length === 0) {
      this._history = [
        ...this._history,
        { step: this._at, loss: Number.isFinite(this._lastLoss) ? this._lastLoss : loss, accuracy },
      ];
    }
    this._result = { task, probe, own, accuracy, loss, without, step: this._at, off: [...this._off] };
    this.dataset.step = String(this._at);
    this.dataset.accuracy = String(accuracy);
    this.dataset.loss = String(Number.isFinite(this._lastLoss) ? this._lastLoss : loss);
    return this._result;
  }

  /** Train: blocks of steps until Pause, `limit` or MAX_STEPS; each block is drawn before the next. */
  async _train(limit = MAX_STEPS) {
    if (this._training || this._searching || !this._trainer || this.job.progress) return;
    this.beginEdit();
    const controller = new AbortController();
    this._controller = controller;
    this._off = [];
    this._training = true;
    this.dataset.status = 'training';
    const t = this._trainer;
    try {
      await this._setHeads(t, []);
      while (!controller.signal.aborted && this._trainer === t && this._at < limit) {
        const pace = PACES[this._pace];
        const n = Math.min(pace.block, limit - this._at);
        const started = performance.now();
        const r = await t.step(n, { signal: controller.signal, onProgress: (p) => this._sharedBy(p) });
        if (this._trainer !== t) break;
        this._measured(n, performance.now() - started);
        this._at = r.step;
        this._lastLoss = r.loss;
        await this._measure(t, { samples: EVAL_SAMPLES.training, knockouts: false });
        if (this._trainer !== t) break;
        this.steps = this._at;
        this.stateChanged();
        this.job.value = this._result;
        this.requestUpdate();
        await new Promise((resolve) => requestAnimationFrame(resolve)); // draw this block first
        const wait = pace.minMs - (performance.now() - started);
        if (wait > 0 && !controller.signal.aborted) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } catch (error) {
      // a pause (Cancelled) or a model replaced under the loop is not an error
      if (error.kind !== 'Cancelled' && this._trainer === t) this.job.error = `Training stopped: ${error.message}`;
    } finally {
      if (this._controller === controller) this._controller = null;
      if (this._trainer === t) this.steps = this._at;
      this._training = false;
      this.stateChanged();
    }
  }

  /**
   * For the fewest-heads exercise (attn-fewest-heads.js): the heads, which are knocked out, the
   * accuracy shown for them (null until measured for exactly these), the step and whether the
   * lab is busy (training, retraining from a link, or searching).
   */
  headStatus() {
    const heads = headList(this.layers, this.heads);
    const r = this.job.value;
    const current = r && !r.waiting && r.step === this._at && r.off.join(',') === this._off.join(',');
    return {
      heads,
      off: [...this._off],
      step: this._at,
      accuracy: current ? r.accuracy : null,
      training: this._training,
      busy: this._training || this._busy || !this._trainer,
    };
  }

  /** Knocks out exactly the heads `keys` ("layer.head"), as the lab's own buttons do. */
  setKnockedOut(keys) {
    const known = headList(this.layers, this.heads).map((h) => h.key);
    if (this._training || this._searching) return;
    this._off = known.filter((k) => keys.includes(k));
  }

  /**
   * The fewest heads that still solve the task, on the model as trained now: tries every subset of
   * heads in order of size (searchFewestHeads), each measured like the lab's accuracy readout (256
   * examples of the fixed seed). Accuracies are remembered per model and step, so a second check
   * is quick. Resolves to { heads, full, kept, keptAccuracy, search }: `kept` the indices the lab
   * has on now. Refuses while training. onProgress({ tried, total }).
   */
  fewestHeads({ onProgress } = {}) {
    if (this._training) return Promise.reject(new Error('the model is training; press Pause first'));
    if (this.job.progress) return Promise.reject(new Error('the model is still retraining from the link'));
    return this._locked(async () => {
      const t = this._trainer;
      if (!t) throw new Error('the model is not loaded yet');
      const heads = headList(this.layers, this.heads);
      const id = `${this._key}@${this._at}`;
      if (this._subsets?.id !== id) this._subsets = { id, accuracy: new Map() };
      const memo = this._subsets.accuracy;
      const on = heads.map(() => null); // what the trainer has now, as far as this search set it
      const accuracyOf = async (kept) => {
        const name = kept.join(',');
        if (memo.has(name)) return memo.get(name);
        for (const [i, h] of heads.entries()) {
          const enabled = kept.includes(i);
          if (on[i] !== enabled) await t.setHeadEnabled(h.layer, h.head, enabled);
          on[i] = enabled;
        }
        const { accuracy } = await t.evaluate({ samples: EVAL_SAMPLES.still, seed: 12345 });
        memo.set(name, accuracy);
        return accuracy;
      };
      this._searching = true;
      try {
        const kept = heads.flatMap((h, i) => (this._off.includes(h.key) ? [] : [i]));
        const full = await accuracyOf(heads.map((_, i) => i));
        const keptAccuracy = await accuracyOf(kept);
        const search = await searchFewestHeads(heads.length, accuracyOf, { onProgress });
        return { heads, full, kept, keptAccuracy, search };
      } finally {
        await this._setHeads(t, this._off);
        this._searching = false;
      }
    });
  }

  _pause() {
    this._controller?.abort();
  }

  _stepOnce() {
    this._train(this._at + 1);
  }

  _reset() {
    this._controller?.abort();
    this._key = null; // a fresh model at step 0
    this.beginEdit();
    this.steps = 0;
    this._history = [];
    this.stateChanged();
    this.job.retry(); // even when the settings are unchanged
  }

  /** The figure's Reset: every head back on, no input of the learner's. */
  resetView() {
    this._off = [];
    this._own = null;
    this._ownDraft = null;
  }

  /** A learner's change of a setting: a new model, at step 0. */
  _set(name, value) {
    if (Object.is(this[name], value)) return;
    this._controller?.abort();
    this.beginEdit();
    this[name] = value;
    this.steps = 0;
    if (name === 'task') {
      this._own = null;
      this._ownDraft = null;
    }
    this.stateChanged();
  }

  _toggleHead(key) {
    this._off = this._off.includes(key) ? this._off.filter((k) => k !== key) : [...this._off, key];
  }

  _onOwnInput(event) {
    const text = event.target.value;
    const parsed = parseInput(this.task, text);
    if (parsed.error) {
      this._ownDraft = { text, error: parsed.error };
      return;
    }
    this._ownDraft = null;
    this._own = parsed.input;
  }

  /** A click on a token key: appends it to the input being typed (or starts a new one). */
  _typeKey(token) {
    const complete = !this._ownDraft && this._own;
    const text = complete ? token : (this._ownDraft?.text ?? '') + token;
    this._onOwnInput({ target: { value: text } });
  }

  _clearOwn() {
    this._own = null;
    this._ownDraft = { text: '', error: '' };
  }

  async _randomOwn() {
    if (!this._trainer) return;
    const seed = 1 + Math.floor(Math.random() * 1e6);
    const { input } = await this._trainer.sample(seed);
    this._ownDraft = null;
    this._own = input;
  }

  async _save() {
    if (!this._trainer) return;
    const state = await this._trainer.exportState();
    download(toJson(state), `attnbook-trainer-${this.task}-step${state.step}.json`, 'application/json');
    this._fileNote = `Saved the model at step ${state.step}.`;
  }

  async _load(event) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    try {
      const state = JSON.parse(await file.text());
      if (state?.format !== 'attnbook-trainer')
        throw new Error('it is not a model saved by this lab (attnbook-trainer JSON)');
      const { settings, error } = settingsOf(state?.config ?? {});
      if (error) throw new Error(error);
      this._controller?.abort();
      const t = await (await this._host(this.job.engine)).loadTrainer(state);
      await this._trainer?.dispose().catch(() => {});
      this.beginEdit();
      const { dModel, learningRate, ...rest } = settings;
      Object.assign(this, rest, { width: dModel, rate: learningRate });
      this._trainer = t;
      this._key = configKey(settings);
      this._at = state.step;
      this.steps = state.step;
      this._history = [];
      this._lastLoss = state.lastLoss ?? NaN;
      this._off = headList(settings.layers, settings.heads)
        .filter((_, i) => state.headEnabled[i] === false)
        .map((h) => h.key);
      this._fileNote = `Loaded a model of ${TASK_TITLES[settings.task].toLowerCase()} at step ${state.step}.`;
      this.stateChanged();
    } catch (error) {
      this._fileNote = `Could not load ${file.name}: ${error.message}`;
    }
  }

  /** The trained state (for tests and the page): the worker's exportState(). */
  trainerState() {
    return this._trainer?.exportState();
  }

  updated() {
    // for the fewest-heads exercise: the step, the knock-outs or the accuracy may have changed
    this.dispatchEvent(new CustomEvent('attn-trainer-change', { bubbles: true, composed: true }));
  }

  describe() {
    const r = this.job.value;
    return describeTrainer({
      settings: this.settings,
      step: this._at,
      loss: this._lastLoss,
      accuracy: r?.accuracy,
      probe: r?.probe,
    });
  }

  exportSvgText() {
    const chart = this.renderRoot.querySelector('.curve-accuracy');
    if (!chart?.svg) throw new Error('nothing drawn yet');
    return svgDocument(chart.svg);
  }

  exportRows() {
    return [['step', 'loss', 'accuracy'], ...this._history.map((h) => [h.step, h.loss, h.accuracy])];
  }

  exportObject() {
    return { settings: this.settings, step: this._at, history: this._history, probe: this.job.value?.probe ?? null };
  }

  renderFigure() {
    const result = this.job.value;
    const s = this.settings;
    const figure = html`${runControls(this)}
      <div class="curves">${lossCurves(this._history)}</div>
      ${this._history.length ? '' : html`<p class="note">Press Train: the curves fill in as the model learns.</p>`}
      ${headMaps(result ?? placeholderResult(s), 'probe', { title: 'Every head’s attention on the probe' })}`;
    const after = html`${ownSection(this, result)} ${ablationSection(this, result)} ${fileSection(this)}`;
    const code = html`<attn-code
      label="PyTorch: the same tiny model and training loop"
      .template=${TRAINER_TORCH}
      .params=${torchParams(s)}
    ></attn-code>`;
    const checks = result ? checkCells(trainerChecks(result.probe.attention)) : '';
    return this.renderLab({
      figure,
      controls: settingsControls(this),
      after,
      checks,
      code,
      hood: trainerHood(s),
      error: this.job.errorLine(),
    });
  }
}

customElements.define('attn-attend-trainer', AttnAttendTrainer);
