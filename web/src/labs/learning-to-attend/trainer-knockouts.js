/**
 * HeadKnockouts: the heads a learner knocks out in the trainer lab (view state, not in the
 * permalink) and the fewest-heads search over them (for attn-fewest-heads.js), as a Lit reactive
 * controller. The host is the lab: its `settings`, `session` (TrainerSession), `run`
 * (TrainingRun) and `training` (Train or Step under way).
 */
import { headList } from './trainer-model.js';

export class HeadKnockouts {
  constructor(host) {
    this.host = host;
    /** The knocked-out heads, "layer.head". */
    this.off = [];
    /** Whether fewestHeads() is trying subsets of heads. */
    this.searching = false;
    host.addController(this);
  }

  hostConnected() {}

  get heads() {
    const { layers, heads } = this.host.settings;
    return headList(layers, heads);
  }

  _set(off) {
    this.off = off;
    this.host.requestUpdate();
  }

  /** A head's button: knocked out, or back on. */
  toggle(key) {
    this._set(this.off.includes(key) ? this.off.filter((k) => k !== key) : [...this.off, key]);
  }

  /** Knocks out exactly the heads `keys`, unless a run or a search is under way. */
  knockOut(keys) {
    if (this.host.training || this.searching) return;
    this._set(this.heads.map((h) => h.key).filter((k) => keys.includes(k)));
  }

  /** Every head on (Train, the figure's Reset), or the heads a loaded model has off. */
  reset(off = []) {
    this._set([...off]);
  }

  /** Forgets heads the settings no longer have (fewer layers or heads). */
  prune() {
    const known = this.heads.map((h) => h.key);
    if (this.off.some((k) => !known.includes(k))) this._set(this.off.filter((k) => known.includes(k)));
  }

  /**
   * The heads, which are knocked out, the accuracy shown for them (null until measured for
   * exactly these), the step and whether the lab is busy (training, retraining from a link,
   * searching, or no model yet).
   */
  status() {
    const { session, training, run } = this.host;
    const { result: r, at } = session;
    const current = r && r.step === at && r.off.join(',') === this.off.join(',');
    return {
      heads: this.heads,
      off: [...this.off],
      step: at,
      accuracy: current ? r.accuracy : null,
      training,
      busy: training || run.restoring || this.searching || !session.trainer,
    };
  }

  /**
   * The fewest heads that still solve the task, on the model as trained now (TrainerSession's
   * fewestHeads); `kept` in the result: the indices on now. Refuses while a run is under way.
   */
  async fewestHeads({ onProgress } = {}) {
    const { session, settings, training, run } = this.host;
    if (training) throw new Error('the model is training; press Pause first');
    if (run.restoring) throw new Error('the model is still retraining from the link');
    this.searching = true;
    this.host.requestUpdate();
    try {
      return await session.fewestHeads(settings, this.off, { onProgress });
    } finally {
      this.searching = false;
      this.host.requestUpdate();
    }
  }
}
