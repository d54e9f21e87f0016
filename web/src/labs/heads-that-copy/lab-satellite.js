/**
 * LabSatellite: what a figure showing the copying lab's model shares (<attn-copy-reader>,
 * <attn-copy-knockouts>, <attn-copy-circuits>, each with for="<the lab's id>"), as a Lit reactive
 * controller. It finds the lab (the element of that id in the host's document or shadow root),
 * follows its `attn-trainer-change` event, and calls `run(lab)` whenever `args(lab)` or the lab's
 * model (its settings and step) change: one run at a time, and while one runs only the newest
 * request waits. It keeps the last result (`value`) and why the last run failed (`error`, shown by
 * errorLine() with Retry); the host stays unsettled (AttnCell.settleAfter) until the run it asked
 * for is drawn. While the lab trains, a run waits for the block it is in to end (the lab's calls
 * queue), so a satellite follows training block by block.
 */
import { html } from 'lit';

export class LabSatellite {
  /**
   * @param {import('../../cells/base/attn-cell.js').AttnCell & { for: string }} host
   * @param {{ args: (lab: any) => unknown[], run: (lab: any) => Promise<any> }} options
   */
  constructor(host, { args, run }) {
    this.host = host;
    this.args = args;
    this.runner = run;
    this.value = null;
    this.error = '';
    this._asked = null; // the key of the last run asked for
    this._running = false;
    this._again = false;
    this._onChange = (event) => {
      if (event.target === this.target) this.refresh();
    };
    host.addController(this);
  }

  hostConnected() {
    this._root = this.host.getRootNode();
    this._root.addEventListener('attn-trainer-change', this._onChange);
    this.refresh();
  }

  hostDisconnected() {
    this._root?.removeEventListener('attn-trainer-change', this._onChange);
  }

  hostUpdated() {
    this.refresh(); // the host's own state (its args) may have changed
  }

  /** The lab this figure shows, once it is on the page. */
  get target() {
    const id = this.host.for;
    const el = id ? (this._root?.getElementById?.(id) ?? document.getElementById(id)) : null;
    return el?.session ? el : null;
  }

  /** What the figure says while it has nothing to show. */
  get status() {
    const lab = this.target;
    if (!lab) return 'The copying lab above is not on the page.';
    return 'Waiting for the model…';
  }

  /**
   * Runs again if the lab's model or the arguments changed since the last run asked for. A lab that
   * failed (no engine) fails this figure too, with its reason; one that recovers brings it back.
   */
  refresh() {
    const lab = this.target;
    const failed = lab?._cellError;
    if (failed && !this.host._cellError) {
      this.host.fail(new Error(`the copying lab above could not start: ${failed.message}`));
      this.host.requestUpdate();
    }
    if (failed) return;
    if (this.host._cellError) {
      this.host.retry(); // reconnects, and refreshes again
      return;
    }
    if (!lab?.session.trainer) return;
    const key = JSON.stringify([lab.session.key, lab.session.at, ...this.args(lab)]);
    if (key === this._asked) return;
    this._asked = key;
    if (this._running) {
      this._again = true;
      return;
    }
    this.host.settleAfter(this._loop(lab));
  }

  async _loop(lab) {
    this._running = true;
    try {
      do {
        this._again = false;
        try {
          this.value = await this.runner(lab);
          this.error = '';
        } catch (error) {
          if (error?.kind !== 'Cancelled') this.error = error?.message ?? String(error);
        }
        this.host.requestUpdate();
      } while (this._again);
    } finally {
      this._running = false;
    }
  }

  /** Runs the last request again (Retry). */
  retry() {
    this._asked = null;
    this.refresh();
  }

  errorLine() {
    if (!this.error) return '';
    return html`<p class="lab-error" role="alert">
      ${this.error} <button type="button" class="retry" @click=${() => this.retry()}>Retry</button>
    </p>`;
  }
}
