/**
 * <attn-attend-trainer task="reverse" layers="1" heads="2" width="32" rate="0.01" seed="1" steps="0">
 *
 * Watch attention learn: a small decoder-only transformer (engine/trainer.js) trained in the page's
 * pool of Web Workers, its Web Worker, or the worker's main-thread stand-in (TrainerSession). Beside
 * the figure: the settings with their cost (trainer-controls-parts.js). The figure: Train, Pause,
 * Step, Reset model (one TrainingRun), the loss and accuracy curves and every head's attention on a
 * probe, redrawn after each block of steps. Below: the learner's own input (OwnInput), knocking
 * heads out (HeadKnockouts), saving and loading the model, the PyTorch code.
 *
 * State (permalink, TRAINER_FIELDS): task, layers, heads, width, rate, seed, steps. A state with
 * steps > 0 is reached by retraining a fresh model to that step (with progress), so a link reopens
 * to the same weights. Knock-outs and the learner's input are view state; Train turns every head
 * back on. Sets on itself: data-status (idle | training | restoring | ready), data-step, data-loss,
 * data-accuracy, data-computed-in, data-workers (how many workers shared the last steps).
 */
import { AttnLab } from '../../cells/base/lab.js';
import { LabTask } from '../../cells/base/lab-task.js';
import { TrainingRun } from '../../cells/base/training-run.js';
import { lineChartStyles } from '../../cells/base/styles.js';
import { svgDocument } from '../../charts/export.js';
import { cancelledError } from '../../engine/errors.js';
import { knockoutStyles } from '../common/knockout-styles.js';
import { trainerStyles } from './attend-trainer-styles.js';
import { describeTrainer, MAX_STEPS, PACES, TRAINER_FIELDS } from './trainer-model.js';
import { trainerLab } from './trainer-lab-parts.js';
import { HeadKnockouts } from './trainer-knockouts.js';
import { OwnInput } from './trainer-own-input.js';
import { configKey, EVAL_SAMPLES, TrainerSession } from './trainer-session.js';

export class AttnAttendTrainer extends AttnLab {
  static stateFields = TRAINER_FIELDS;

  static properties = {
    ...super.properties,
    fileNote: { state: true },
    _pace: { state: true },
  };

  static styles = [AttnLab.labStyles, lineChartStyles, knockoutStyles, trainerStyles];

  defaultLabel = 'Watch attention learn: a small transformer trained in the page';

  constructor() {
    super();
    this.session = new TrainerSession({
      changed: () => {
        this.dataset.workers = String(this.session.workers);
        this.requestUpdate();
      },
    });
    this.own = new OwnInput(this); // the learner's own input
    this.knockouts = new HeadKnockouts(this);
    this.fileNote = ''; // what the last Save or Load did
    this._pace = 'watch'; // view state: how fast Train goes (PACES)
    // Train, Pause, Step and retraining from a link: blocks of steps, each measured and drawn
    this.run = new TrainingRun(this, {
      advance: async (count, { signal, onProgress }) => {
        const restoring = this.run.restoring;
        if (!restoring) await this.session.setHeads(this.settings, []); // training turns every head on
        return this.session.advance(this.settings, count, { signal, onProgress, record: restoring });
      },
      measure: (step) => this._measureBlock(step),
      pace: () => PACES[this._pace], // a failure reads "Training stopped: …", as the job's below
      position: () => this.session.at,
      stopped: () => {
        if (this.run.restoring) return; // a link's step: _sync goes on from there
        this.steps = this.session.at; // the permalink names the model as it stopped
        this.stateChanged();
      },
    });
    // the model of the permalink's state: a fresh one, retrained to `steps`, measured with the knock-outs
    this.job = new LabTask(this, {
      engine: 'worker',
      args: () => [
        configKey(this.settings),
        this.steps,
        this.training,
        this.knockouts.off.join(','),
        this.own.input?.join(',') ?? '',
      ],
      run: (args, context) => this.session.locked(() => this._sync(args, context)),
      explain: (error) => `Training stopped: ${error.message}`,
    });
  }

  connectedCallback() {
    super.connectedCallback();
    this.dataset.status ??= 'idle';
    if (this.hasUpdated) this.job.retry(); // back after a disconnect, which disposed the trainer
  }

  disconnectedCallback() {
    super.disconnectedCallback(); // the run stops (TrainingRun.hostDisconnected)
    this.session.dispose();
  }

  /** Train or Step is running (not a retraining from a link). */
  get training() {
    return this.run.training && !this.run.restoring;
  }

  /** Retraining from a link, or trying subsets of heads: the settings and head buttons wait. */
  get busy() {
    return this.run.restoring || this.knockouts.searching;
  }

  get settings() {
    const { task, layers, heads, width, rate, seed } = this;
    return { task, layers, heads, dModel: width, learningRate: rate, seed };
  }

  /**
   * Brings the session to the state's configuration and step (a new model, retrained to `steps`
   * with progress when it is behind), applies the knock-outs, then measures: accuracy, the
   * probe's answer and attention, the learner's own input, the accuracy without each head.
   */
  async _sync([key, steps, training], { engine }) {
    const s = this.settings;
    const session = this.session;
    if (session.key !== key || (!training && session.at > steps)) {
      this.run.reset();
      await session.open(engine, s);
      this.knockouts.prune();
    }
    if (training) return null; // the run measures after each block
    if (session.at < steps) {
      this.dataset.status = 'restoring';
      await session.setHeads(s, []); // the link's weights were trained with every head on
      await this.run.restore(steps, { measure: false }); // measured below, with the knock-outs
      if (session.at < steps) throw cancelledError('training stopped before the step'); // stopped: the run's error line says why, if it failed
    }
    const { off } = this.knockouts;
    await session.setHeads(s, off);
    const own = this.own.input;
    this._show(await session.measure(s, { off, own, samples: EVAL_SAMPLES.still, knockouts: true }));
    this.dataset.status = session.at > 0 ? 'ready' : 'idle';
  }

  /** After each block of Train or Step: measured, kept in the permalink, drawn. */
  async _measureBlock(step) {
    const own = this.own.input;
    this._show(await this.session.measure(this.settings, { off: [], own, samples: EVAL_SAMPLES.training }));
    this.steps = step;
    this.stateChanged();
  }

  /** The readings a page or test waits on. */
  _show(result) {
    this.dataset.step = String(result.step);
    this.dataset.accuracy = String(result.accuracy);
    this.dataset.loss = String(this.session.loss);
  }

  /** Train: blocks of steps until Pause, `until` or MAX_STEPS; each block is drawn before the next. */
  _train(until = MAX_STEPS) {
    if (!this.session.trainer || this.run.training || this.knockouts.searching) return;
    this.beginEdit();
    this.knockouts.reset();
    this.dataset.status = 'training';
    this.run.train(until);
  }

  /** For the fewest-heads exercise (attn-fewest-heads.js): HeadKnockouts.status(). */
  headStatus() {
    return this.knockouts.status();
  }

  /** Knocks out exactly the heads `keys` ("layer.head"), as the lab's own buttons do. */
  setKnockedOut(keys) {
    this.knockouts.knockOut(keys);
  }

  /** The fewest heads that still solve the task: HeadKnockouts.fewestHeads(). */
  fewestHeads(options) {
    return this.knockouts.fewestHeads(options);
  }

  /**
   * A fresh model at step 0: Reset model (no `change`, even when the settings are unchanged), or a
   * learner's change of settings (`change`, e.g. { seed: 4 }).
   */
  _newModel(change = {}) {
    const names = Object.keys(change);
    if (names.length && names.every((name) => Object.is(this[name], change[name]))) return; // nothing changed
    this.run.reset();
    this.session.dispose();
    this.beginEdit();
    if (change.task && change.task !== this.task) this.own.forget();
    Object.assign(this, change, { steps: 0 });
    this.stateChanged();
    this.job.retry();
  }

  /** The figure's Reset: every head back on, no input of the learner's. */
  resetView() {
    this.knockouts.reset();
    this.own.forget();
  }

  /** The trained state (for tests and the page): the worker's exportState(). */
  trainerState() {
    return this.session.trainer?.exportState();
  }

  updated() {
    // for the fewest-heads exercise: the step, the knock-outs or the accuracy may have changed
    this.dispatchEvent(new CustomEvent('attn-trainer-change', { bubbles: true, composed: true }));
  }

  describe() {
    const { result: r, at: step, lastLoss: loss } = this.session;
    return describeTrainer({ settings: this.settings, step, loss, accuracy: r?.accuracy, probe: r?.probe });
  }

  exportSvgText() {
    const chart = this.renderRoot.querySelector('.curve-accuracy');
    if (!chart?.svg) throw new Error('nothing drawn yet');
    return svgDocument(chart.svg);
  }

  exportRows() {
    return [['step', 'loss', 'accuracy'], ...this.session.history.map((h) => [h.step, h.loss, h.accuracy])];
  }

  exportObject() {
    const { at, history, result } = this.session;
    return { settings: this.settings, step: at, history, probe: result?.probe ?? null };
  }

  renderFigure() {
    return this.renderLab(trainerLab(this));
  }
}

customElements.define('attn-attend-trainer', AttnAttendTrainer);
