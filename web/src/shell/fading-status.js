/**
 * A status line that clears itself, for the shell's buttons (Copy link, Download notebook): a Lit
 * reactive controller. `say(text)` shows `text` for STATUS_DELAY ms, `show(text)` until the next
 * word (progress); `text` is what to render in the button's role="status" region.
 */
const STATUS_DELAY = 4000; // ms a message stays

export class FadingStatus {
  constructor(host) {
    this.host = host;
    this.text = '';
    this._timer = 0;
    host.addController(this);
  }

  /** Shows `text` until the next message. */
  show(text) {
    clearTimeout(this._timer);
    this.text = text;
    this.host.requestUpdate();
  }

  /** Shows `text` for a few seconds. */
  say(text) {
    this.show(text);
    this._timer = setTimeout(() => this.show(''), STATUS_DELAY);
  }

  hostDisconnected() {
    clearTimeout(this._timer);
  }
}
