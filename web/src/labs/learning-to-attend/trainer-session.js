/**
 * TrainerSession: the model that <attn-attend-trainer> trains, without the DOM. It holds the
 * engine's trainer handle (in the page's pool of workers, its worker, or the main-thread stand-in),
 * the step it has reached, the loss curve, the latest measurement, this machine's measured speed
 * and how many workers shared the last steps. The lab's TrainingRun drives advance() and measure();
 * its LabTask brings the session to the permalink's configuration with open().
 *
 * Every piece of work that sets heads on and off (a measurement with knock-outs, the fewest-heads
 * search, a retraining with every head on) runs through locked(), one piece at a time. The engine
 * queues single calls, but these are sequences of calls on one trainer, and two of them
 * interleaved would measure with the other's heads switched off.
 */
import { cancelledError } from '../../engine/errors.js';
import { PooledTrainer } from '../common/pooled-trainer.js';
import { searchFewestHeads } from './fewest-heads-model.js';
import { flopsPerStep } from './trainer-cost-model.js';
import { headList, LAYOUTS, PROBES, trainerOptions } from './trainer-model.js';

/** Examples per accuracy measurement while training (256 when still). */
export const EVAL_SAMPLES = { training: 128, still: 256 };

/** The key of a configuration: a different key is a different model. */
export const configKey = (settings) => JSON.stringify(trainerOptions(settings));

const heads = (settings) => headList(settings.layers, settings.heads);

export class TrainerSession extends PooledTrainer {
  /** @param {{ changed: () => void }} host  told when something it shows changed outside a run */
  constructor({ changed }) {
    super({ changed });
    this.at = 0; // its step, as last reported
    this.history = []; // [{ step, loss, accuracy }]: the curves (with every head on)
    this.lastLoss = NaN; // the last batch's loss
    this.result = null; // the latest measurement: { task, probe, own, accuracy, loss, without, step, off }
    this.gflops = null; // this machine's measured speed, for the cost line
    this.off = []; // the heads knocked out on the trainer now ("layer.head"), or null when unknown
    this._timing = null;
    this._subsets = null; // { id, accuracy: Map }: each subset of heads measured, per model and step
  }

  /** A fresh model of `settings` at step 0 (the old one is freed). */
  async open(engine, settings) {
    const host = await this._host(engine);
    await this.dispose();
    this.trainer = await host.createTrainer(trainerOptions(settings));
    this._begin(settings, 0, NaN);
  }

  /**
   * The model saved in `state` (an attnbook-trainer JSON), of the checked `settings`, after the
   * work queued before it; its knocked-out heads are `off`.
   */
  load(engine, state, settings) {
    return this.locked(async () => {
      const loaded = await (await this._host(engine)).loadTrainer(state);
      await this.dispose();
      this.trainer = loaded;
      this._begin(settings, state.step, state.lastLoss ?? NaN);
      this.off = heads(settings)
        .filter((_, i) => state.headEnabled?.[i] === false)
        .map((h) => h.key);
    });
  }

  _begin(settings, step, lastLoss) {
    this.off = [];
    this.key = configKey(settings);
    this.at = step;
    this.history = [];
    this.lastLoss = lastLoss;
    this.result = null;
  }

  /**
   * `count` optimiser steps of `settings`' model, cancelled by `signal`; resolves to the step
   * reached. `record` keeps each step's loss on the curve (a retraining from a link, whose accuracy
   * is measured only at its end).
   */
  async advance(settings, count, { signal, onProgress, record = false } = {}) {
    const t = this.trainer;
    const from = this.at;
    const losses = [];
    const started = performance.now();
    const r = await t.step(count, {
      signal,
      onProgress: (p) => {
        if (this.trainer !== t) return;
        this.at = p.step;
        if (Number.isFinite(p.loss)) this.lastLoss = p.loss;
        this._sharedBy(p);
        if (record) losses.push({ step: p.step, loss: p.loss, accuracy: NaN });
        onProgress?.(p);
      },
    });
    if (this.trainer !== t) throw cancelledError('the model was replaced');
    this._timed(settings, r.step - from, performance.now() - started);
    this.at = r.step;
    this.lastLoss = r.loss;
    if (record) this.history = from === 0 ? losses.filter((h) => h.step < r.step) : [];
    return r.step;
  }

  /** The line under the settings: where the model trains (`where`: the lab task's line). */
  whereText(where) {
    if (!this._pool) return where;
    const threads = this._pool.threads;
    if (this.workers > 1)
      return `Trained on ${this.workers} cores: each step's batch is shared by ${this.workers} Web Workers, with the weights one core would give.`;
    return threads > 1
      ? `Trained in a Web Worker of a pool of ${threads}: steps this small run on one core, as sharing them would cost more than it saves; a larger model's steps are shared.`
      : 'Trained in a Web Worker.';
  }

  /** This machine's speed, from `steps` steps that took `ms`, for the cost line. */
  _timed(settings, steps, ms) {
    const key = configKey(settings);
    if (this._timing?.key !== key) this._timing = { key, work: 0, ms: 0 };
    this._timing.work += flopsPerStep(settings) * steps;
    this._timing.ms += ms;
    if (this._timing.ms >= 20) this.gflops = this._timing.work / (this._timing.ms * 1e6);
  }

  /** Switches the heads of `settings` on, except the knocked-out `off` ("layer.head"). */
  async setHeads(settings, off) {
    if (off.join(',') === this.off?.join(',')) return;
    this.off = null; // unknown until every head is set
    for (const { layer, head, key } of heads(settings)) {
      await this.trainer.setHeadEnabled(layer, head, !off.includes(key));
    }
    this.off = [...off];
  }

  /**
   * Accuracy, the probe's answer and attention, and the learner's input `own` (token ids or null),
   * with the heads `off` knocked out; when `knockouts`, also the accuracy without each head still on.
   */
  async measure(settings, { off, own, samples, knockouts }) {
    const t = this.trainer;
    const task = settings.task;
    const { loss, accuracy } = await t.evaluate({ samples, seed: 12345 });
    const probe = { input: PROBES[task], ...(await t.predict(PROBES[task])) };
    const mine = own && own.length === LAYOUTS[task].inputLength ? { input: own, ...(await t.predict(own)) } : null;
    let without = null;
    if (knockouts && this.at > 0) {
      without = [];
      for (const h of heads(settings)) {
        if (off.includes(h.key)) continue;
        await t.setHeadEnabled(h.layer, h.head, false);
        without.push({ ...h, accuracy: (await t.evaluate({ samples: 128, seed: 777 })).accuracy });
        await t.setHeadEnabled(h.layer, h.head, true);
      }
    }
    const last = this.history.at(-1);
    if ((!last || last.step !== this.at) && off.length === 0) {
      const shown = Number.isFinite(this.lastLoss) ? this.lastLoss : loss;
      this.history = [...this.history, { step: this.at, loss: shown, accuracy }];
    }
    this.result = { task, probe, own: mine, accuracy, loss, without, step: this.at, off: [...off] };
    return this.result;
  }

  /** The loss a learner reads: the last batch's, or the measured one before any step. */
  get loss() {
    return Number.isFinite(this.lastLoss) ? this.lastLoss : (this.result?.loss ?? NaN);
  }

  /**
   * The fewest heads that still solve the task, on the model as trained now, with `off` knocked
   * out: tries every subset of heads in order of size (searchFewestHeads), each measured like the
   * accuracy readout (256 examples of the fixed seed). Accuracies are remembered per model and
   * step, so a second check is quick. Resolves to { heads, full, kept, keptAccuracy, search }.
   */
  fewestHeads(settings, off, { onProgress } = {}) {
    return this.locked(async () => {
      const t = this.trainer;
      if (!t) throw new Error('the model is not loaded yet');
      const list = heads(settings);
      const id = `${this.key}@${this.at}`;
      if (this._subsets?.id !== id) this._subsets = { id, accuracy: new Map() };
      const memo = this._subsets.accuracy;
      const on = list.map(() => null); // what the trainer has now, as far as this search set it
      this.off = null; // the search switches heads; the finally puts `off` back
      const accuracyOf = async (kept) => {
        const name = kept.join(',');
        if (memo.has(name)) return memo.get(name);
        for (const [i, h] of list.entries()) {
          const enabled = kept.includes(i);
          if (on[i] !== enabled) await t.setHeadEnabled(h.layer, h.head, enabled);
          on[i] = enabled;
        }
        const { accuracy } = await t.evaluate({ samples: EVAL_SAMPLES.still, seed: 12345 });
        memo.set(name, accuracy);
        return accuracy;
      };
      try {
        const kept = list.flatMap((h, i) => (off.includes(h.key) ? [] : [i]));
        const full = await accuracyOf(list.map((_, i) => i));
        const keptAccuracy = await accuracyOf(kept);
        const search = await searchFewestHeads(list.length, accuracyOf, { onProgress });
        return { heads: list, full, kept, keptAccuracy, search };
      } finally {
        await this.setHeads(settings, off);
      }
    });
  }
}
