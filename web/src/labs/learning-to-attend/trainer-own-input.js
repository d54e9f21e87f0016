/**
 * OwnInput: the learner's own input to the trainer lab (view state, not in the permalink), as a
 * Lit reactive controller. `input` is the last complete input (token ids) or null; `draft` is
 * { text, error } while the field holds something that is not (yet) an input of the task.
 */
import { parseInput } from './trainer-model.js';

export class OwnInput {
  /** @param {import('lit').ReactiveControllerHost & { task: string }} host */
  constructor(host) {
    this.host = host;
    this.input = null;
    this.draft = null;
    host.addController(this);
  }

  hostConnected() {}

  /** The field's text: a complete input, or a draft with what is wrong with it. */
  type(text) {
    const parsed = parseInput(this.host.task, text);
    if (parsed.error) this.draft = { text, error: parsed.error };
    else [this.draft, this.input] = [null, parsed.input];
    this.host.requestUpdate();
  }

  /** A click on a token key: appends it to the input being typed (or starts a new one). */
  typeKey(token) {
    const complete = !this.draft && this.input;
    this.type(complete ? token : (this.draft?.text ?? '') + token);
  }

  /** Clear: an empty field, no input. */
  clear() {
    [this.input, this.draft] = [null, { text: '', error: '' }];
    this.host.requestUpdate();
  }

  /** Random example: an input drawn by the trainer (`trainer.sample`). */
  async random(trainer) {
    if (!trainer) return;
    const { input } = await trainer.sample(1 + Math.floor(Math.random() * 1e6));
    [this.input, this.draft] = [input, null];
    this.host.requestUpdate();
  }

  /** No input at all (a new task, or the figure's Reset). */
  forget() {
    [this.input, this.draft] = [null, null];
    this.host.requestUpdate();
  }
}
