/**
 * CopySession: the model that <attn-copy-trainer> shows and trains, without the DOM. It holds the
 * engine's text trainer (in the page's pool of workers, its worker, or the main-thread stand-in),
 * its step, the curves (the loss at every progress report, the copying probe after each block),
 * this machine's pace, and the heads knocked out. The satellites of the lab (the reader, the
 * knock-outs, the circuits) ask it through the lab; every sequence of calls that switches heads
 * runs through locked(), one at a time, so no measurement sees another's knock-outs.
 *
 * The model opens as the committed one (loaded, no wait) when the settings name it, and otherwise
 * as a fresh model of the seed and text, which the lab trains to the permalink's step.
 */
import { cancelledError } from '../../engine/errors.js';
import { PooledTrainer } from '../common/pooled-trainer.js';
import { HEAD_LIST, isCommitted, stateFromPacked, trainerOptions } from './copy-model.js';

/** The key of a model: the settings that make it (not its step). */
export const modelKey = ({ seed, text }) => JSON.stringify({ seed, text });

export class CopySession extends PooledTrainer {
  /** @param {{ changed: () => void }} host  told when something it shows changed outside a run */
  constructor({ changed }) {
    super({ changed });
    this.committed = false; // the model is the committed one (not trained here)
    this.at = 0;
    this.history = []; // [{ step, loss, probe? }]
    this.lastLoss = NaN;
    this.probe = null; // the copying probe with every head on, at `at`
    this.stepsPerSecond = null;
    this.off = []; // heads knocked out on the trainer ("layer.head")
  }

  /**
   * The model of `settings` ({ seed, steps, text }): the committed model when the settings name it
   * (`committed`: { packed, history, text() }: its packed state, the curves of its training and the
   * default text), else a fresh one at step 0 (the lab trains it to `steps`).
   */
  async open(engine, settings, committed) {
    const { packed, history } = committed;
    const host = await this._host(engine);
    await this.dispose();
    this.committed = isCommitted(settings, packed);
    this.trainer = this.committed
      ? await host.loadTrainer(stateFromPacked(packed, committed.text()))
      : await host.createTrainer(trainerOptions(settings));
    this.key = modelKey(settings);
    this.at = this.committed ? packed.step : 0;
    this.lastLoss = this.committed ? (packed.lastLoss ?? NaN) : NaN;
    this.history = this.committed ? history : [];
    this.probe = null;
    this.off = [];
  }

  /** `count` optimiser steps with every head on, cancelled by `signal`; resolves to the step reached. */
  async advance(count, { signal, onProgress } = {}) {
    await this.setHeads([]);
    const t = this.trainer;
    const from = this.at;
    const started = performance.now();
    const r = await t.step(count, {
      signal,
      onProgress: (p) => {
        if (this.trainer !== t) return;
        this.at = p.step;
        if (Number.isFinite(p.loss)) {
          this.lastLoss = p.loss;
          this.history = [...this.history, { step: p.step, loss: p.loss }];
        }
        this._sharedBy(p);
        onProgress?.(p);
      },
    });
    if (this.trainer !== t) throw cancelledError('the model was replaced');
    const seconds = (performance.now() - started) / 1000;
    if (r.step > from && seconds > 0.05) this.stepsPerSecond = (r.step - from) / seconds;
    this.at = r.step;
    this.lastLoss = r.loss;
    return r.step;
  }

  /** The copying probe with every head on, recorded on the curves at this step. */
  async measure() {
    await this.setHeads([]);
    const probe = await this.trainer.copyingProbe();
    this.probe = probe;
    const last = this.history.at(-1);
    const point = { step: this.at, loss: Number.isFinite(this.lastLoss) ? this.lastLoss : NaN, probe };
    this.history = last?.step === this.at ? [...this.history.slice(0, -1), point] : [...this.history, point];
    return probe;
  }

  /** Switches every head on except the knocked-out `off` ("layer.head"). */
  async setHeads(off) {
    if (off.join(',') === this.off?.join(',')) return;
    this.off = null; // unknown until every head is set
    for (const { layer, head, key } of HEAD_LIST) await this.trainer.setHeadEnabled(layer, head, !off.includes(key));
    this.off = [...off];
  }

  /**
   * With the heads `off` knocked out: the probe, and the second copy's accuracy with each other head
   * knocked out too ({ probe, without: [{ key, name, accuracy }] }).
   */
  knockouts(off) {
    return this.locked(async () => {
      const t = this.trainer;
      await this.setHeads(off);
      const probe = await t.copyingProbe();
      const without = [];
      for (const h of HEAD_LIST) {
        if (off.includes(h.key)) continue;
        await this.setHeads([...off, h.key]);
        without.push({ ...h, accuracy: (await t.copyingProbe()).secondCopyAccuracy });
      }
      await this.setHeads(off);
      return { probe, without, step: this.at };
    });
  }

  /** The model's next character after each position of `text`, and its attention, with `off` out. */
  read(text, off) {
    return this.locked(async () => {
      const t = this.trainer;
      await this.setHeads(off);
      const ids = await t.encode(text);
      const { output, attention } = await t.predict(ids);
      return { text, ids, predicted: await t.decode(output), attention, step: this.at };
    });
  }

  /** The OV circuit of head (layer, head) and its QK circuit through layer 0's head `source`. */
  circuits(layer, head, source) {
    return this.locked(async () => ({
      ov: await this.trainer.ovCircuit(layer, head),
      qk: await this.trainer.qkCircuit(layer, head, source),
      step: this.at,
    }));
  }

  /** Where the model trains, for the line under the settings (`where`: the lab task's line). */
  whereText(where) {
    if (!this._pool) return where;
    if (this.workers > 1)
      return `Trained on ${this.workers} cores: each step's batch is shared by ${this.workers} Web Workers, with the weights one core would give.`;
    return `Trained in a Web Worker of a pool of ${this._pool.threads}.`;
  }
}
