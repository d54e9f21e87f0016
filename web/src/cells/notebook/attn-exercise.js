/**
 * <attn-exercise id="convex" lesson="mixture" label="Exercise 1">
 *   <p>The task, in the default slot.</p>
 *   <div slot="attempt">…the lesson's own controls…</div>
 *   <p slot="hint">…</p>
 *   <p slot="explanation">…</p>
 * </attn-exercise>
 *
 * An exercise cell. The lesson checks attempts in one of three ways:
 * - mode="custom" (default): `el.check = (attempt) => ({ correct, message, mistake? })`,
 *   and the lesson calls `el.submit(attempt)`, or sets `el.getAttempt = () => …`
 *   so the cell shows a Check button that submits it;
 * - mode="choice": <option value="…" data-correct data-feedback="…">Text</option>
 *   children, shown as radio buttons; a wrong option's data-feedback says why it is wrong;
 * - mode="number": a number field, right when within `tolerance` of `answer`; likely wrong
 *   answers are declared as <attn-mistake value="0.5" tolerance="0.01">Feedback</attn-mistake>
 *   children, whose feedback is the verdict when an attempt matches one.
 * Feedback that teaches: the verdict ("Correct — …" / "Not yet — …") is a status region and
 * focus stays where the learner acted. "Show hint" appears only after a wrong attempt, "Show
 * explanation" and "Show me" only after an attempt (before, they are not rendered at all).
 * "Show me" reveals the answer (number, choice; custom: `el.showAnswer()` may return a message)
 * and opens the explanation: the exercise then counts as shown, not solved, until a fresh
 * question (Try another) is solved or Reset; so does a wrong attempt that opens a figure held back
 * for it (`heldBack`; a variant holds it back again until attempted) or leaves one option untried.
 * "Try another" (number or choice mode, after an attempt) asks another question: from `el.variant(seed)`
 * when the page set one (seeds 1, 2, 3, …; it may return a promise), else from the lesson's
 * variants (exercise-variants.js; their shape: checkVariant in exercise-model.js).
 *
 * The lesson: the `lesson` attribute, which a lesson page need not write (the lessons build puts
 * the lesson's id into every exercise that has none); with neither, the page's path.
 * Progress: a record { status: 'attempted' | 'solved' | 'shown', attempts, score } saved under
 * `attnbook:exercise:<lesson>/<id>` (exercise-progress.js; its rules: exercise-model.js); a
 * solved exercise stays solved until Reset, which deletes the record and resets cells in the
 * attempt slot. The host reflects data-status="pending" | "pass" | "fail" (the last verdict) and
 * data-progress (the record's status).
 * Events: `attn-verdict` (bubbles, detail { correct, message, mistake }) after each check;
 * `attn-progress` (bubbles, composed, detail exactly { version: 1, lesson, exercise, status,
 * score, attempts }) after each attempt and each "Show me" of an exercise with an id (exercise-model.js);
 * `attn-attempt` (bubbles, composed, detail { version: 1, lesson, exercise, label, mode, response,
 * correct, counted, latency }) after each attempt of an exercise with an id: what was answered,
 * whether it was right and whether it counted (before the page showed the answer), and the time in
 * ms since the question was asked or last attempted (an LMS's interactions: shell/scorm.js).
 *
 * Its parts, one role each: the question asked and how an attempt is judged (exercise-question.js),
 * the grading rule and the record (exercise-model.js), saving it (exercise-progress.js), the card
 * (exercise-view.js), the parts held back until an attempt (exercise-gate.js, attn-reveal.js).
 */
import { AttnCell } from '../base/attn-cell.js';
import { cellStyles, parseNumberText } from '../base/cell-support.js';
import { choiceField, exerciseCard, exerciseStyles, numberField } from './exercise-view.js';
import { EMPTY_RECORD, gradeAttempt, nextSeed, recordAfter } from './exercise-model.js';
import { progressKey, removeRecord, saveRecord, savedRecord } from './exercise-progress.js';
import { hasWrittenVariants, lessonVariant } from './exercise-variants.js';
import {
  answerText,
  canVary,
  drawVariant,
  judgeAttempt,
  numberQuestion,
  questionOptions,
} from './exercise-question.js';
import './attn-mistake.js';
import './attn-variant.js';

const MODES = ['custom', 'choice', 'number'];

export class AttnExercise extends AttnCell {
  static properties = {
    ...super.properties,
    lesson: { type: String },
    label: { type: String },
    mode: { type: String },
    answer: { type: Number },
    tolerance: { type: Number },
    check: { attribute: false },
    getAttempt: { attribute: false },
    variant: { attribute: false },
    showAnswer: { attribute: false },
    checkLabel: { attribute: false }, // what Check says while the check waits (e.g. for a model)
    status: { type: String, reflect: true, attribute: 'data-status' },
    progress: { type: String, reflect: true, attribute: 'data-progress' },
    _verdict: { state: true },
    _record: { state: true },
    _wrong: { state: true },
    _revealed: { state: true },
    _variant: { state: true },
    _open: { state: true },
    _choice: { state: true },
    _number: { state: true },
    _fieldError: { state: true },
  };

  static styles = [AttnCell.baseStyles, cellStyles, exerciseStyles];

  constructor() {
    super();
    this.lesson = '';
    this.label = 'Exercise';
    this.mode = 'custom';
    this.answer = NaN;
    this.tolerance = 0;
    this.check = null;
    this.getAttempt = null;
    this.variant = null;
    this.showAnswer = null;
    this.status = 'pending';
    this.progress = undefined;
    this._verdict = null; // { kind: 'pass' | 'fail' | 'shown', message }
    this._record = EMPTY_RECORD;
    this._wrong = false; // a wrong attempt on the current question
    this._revealed = false; // "Show me" used on the current question
    this._variant = null; // the question drawn by Try another, checked
    this._ruledOut = []; // the wrong options tried on the current question (choice)
    this._attempted = false; // the current question has an attempt
    this.heldBack = new Set(); // hosts holding a part back until this has an attempt (exercise-gate.js)
    this._seed = 0;
    this._askedAt = Date.now(); // when the question now asked was asked, or last attempted
    this._open = { hint: false, explanation: false };
    this._choice = '';
    this._number = '';
    this._fieldError = '';
  }

  /** The lesson this exercise belongs to (its `lesson` attribute, else the page's path). */
  get lessonId() {
    return this.lesson || globalThis.location?.pathname || 'page';
  }

  /** localStorage key of this exercise's progress ('' when it has no id). */
  get storageKey() {
    return progressKey(this.lessonId, this.id);
  }

  /** This exercise's progress record: { status ('none' before any attempt), attempts, score }. */
  get record() {
    return this._record;
  }

  /** A Try another question is asked and has no attempt yet: held-back parts stay hidden. */
  get awaitsAttempt() {
    return Boolean(this._variant) && !this._attempted;
  }

  connectedCallback() {
    super.connectedCallback();
    this.#restore();
    // the lesson's variants.js, unless the page set its own or the lesson wrote <attn-variant>s
    const make = this.variant || hasWrittenVariants(this) ? null : lessonVariant(this.lessonId, this.id);
    if (make) this.variant = async (seed) => make(seed, await this.engine());
  }

  willUpdate(changed) {
    if (changed.has('mode') && !MODES.includes(this.mode)) {
      this._notice = `Attribute mode: "${String(this.mode).slice(0, 20)}" is not custom, choice or number; using custom.`;
      this.mode = 'custom';
    }
    if (changed.has('lesson') && this.isConnected) this.#restore();
  }

  #restore() {
    if (this._record.status !== 'none') return;
    const record = savedRecord(this.storageKey);
    if (record.status === 'none') return;
    this._record = record;
    this.progress = record.status;
    if (record.status === 'solved') {
      this._verdict ??= { kind: 'pass', message: 'you solved this exercise before.' };
      this.status = 'pass';
    }
  }

  #save(record) {
    this._record = record;
    this.progress = record.status;
    saveRecord(this, record);
  }

  /** The answer was shown for the question now asked (then solving it does not count). */
  get #answerSeen() {
    return this._revealed || (this._record.status === 'shown' && !this._variant);
  }

  /** Judges `attempt` and shows the verdict. Resolves to { correct, message, mistake }. */
  submit(attempt) {
    return this.settleAfter(this.#submit(attempt)); // not settled until the verdict is shown
  }

  async #submit(attempt) {
    let verdict;
    try {
      if (this.mode === 'number') {
        const { error } = numberQuestion(this);
        if (error) this._notice = `An <attn-mistake>: ${error}; it is ignored.`;
      }
      verdict = await judgeAttempt(this, attempt);
    } catch (error) {
      console.warn(`attn-exercise: the check failed: ${error.message}`);
      verdict = { correct: false, message: `the check could not run (${error.message}).` };
    }
    const correct = verdict?.correct === true;
    let message = String(verdict?.message ?? '');
    const mistake = verdict?.mistake ?? null;
    const options = this.mode === 'choice' ? questionOptions(this) : null;
    if (options && mistake !== null) this._ruledOut = [...this._ruledOut, mistake];
    const graded = gradeAttempt(this._record, {
      correct,
      answerSeen: this.#answerSeen,
      figure: this.heldBack.size > 0 && !this._variant,
      options,
      ruledOut: this._ruledOut,
      canVary: canVary(this),
    });
    const { record } = graded;
    message += graded.note;
    this._attempted = true;
    if (!correct) this._wrong = true;
    this._verdict = { kind: correct ? 'pass' : 'fail', message };
    this.status = correct ? 'pass' : 'fail';
    this.stateChanged();
    this.dispatchEvent(new CustomEvent('attn-verdict', { detail: { correct, message, mistake }, bubbles: true }));
    this.#save(record);
    this.#reportAttempt(attempt, correct, correct && !graded.note);
    return { correct, message, mistake };
  }

  /** The attempt as an `attn-attempt` event (exercises with an id), for an LMS's interactions. */
  #reportAttempt(attempt, correct, counted) {
    const now = Date.now();
    const latency = now - this._askedAt;
    this._askedAt = now;
    if (!this.id) return;
    let response = String(attempt ?? '');
    if (this.mode === 'custom') {
      try {
        response = JSON.stringify(attempt) ?? '';
      } catch {
        response = ''; // an attempt that is not data (a cycle): its verdict says enough
      }
    }
    const detail = { version: 1, lesson: this.lessonId, exercise: this.id, label: this.label, mode: this.mode };
    Object.assign(detail, { response, correct, counted, latency });
    this.dispatchEvent(new CustomEvent('attn-attempt', { detail, bubbles: true, composed: true }));
  }

  #onCheck() {
    if (this.mode === 'choice') {
      this._fieldError = this._choice ? '' : 'Choose one of the answers first.'; // not an attempt: nothing shown
      return this._choice ? this.submit(this._choice) : undefined;
    }
    if (this.mode === 'number') {
      const parsed = parseNumberText(this._number);
      this._fieldError = parsed.error ? `Your answer ${parsed.error}.` : '';
      if (parsed.error) return undefined;
      return this.submit(parsed.value);
    }
    if (typeof this.getAttempt === 'function') {
      let attempt;
      try {
        attempt = this.getAttempt();
      } catch (error) {
        console.warn(`attn-exercise: getAttempt failed: ${error.message}`);
      }
      return this.submit(attempt);
    }
    return undefined;
  }

  get #attempted() {
    return this._record.attempts > 0 || this._record.status !== 'none';
  }

  /** "Show me": reveals the answer and the explanation; the exercise counts as shown (not solved). */
  async showMe() {
    if (!this.#attempted) return;
    this._verdict = { kind: 'shown', message: answerText(this) };
    this._revealed = true;
    this._open = { ...this._open, explanation: true };
    this.#save(recordAfter(this._record, { kind: 'show' }));
    this.stateChanged();
    await this.updateComplete;
    const panel = this.#hasExplanation ? this.renderRoot.querySelector('#panel-explanation') : null;
    (panel ?? this.renderRoot.querySelector('.verdict'))?.focus();
  }

  /** "Try another": asks the variant drawn by `variant(next seed)` instead. */
  async tryAnother() {
    if (!canVary(this)) return;
    this._seed = nextSeed(this._seed);
    let drawn;
    try {
      drawn = await drawVariant(this, this._seed, (pending) => this.settleAfter(pending));
    } catch (error) {
      this._notice = `Try another: ${error.message}.`;
      return;
    }
    this._variant = { ...drawn, seed: this._seed };
    this.#clearAttempt();
    this._askedAt = Date.now();
    this.stateChanged();
    await this.updateComplete;
    this.renderRoot.querySelector('#number, input[type="radio"]')?.focus();
  }

  #clearAttempt() {
    this._verdict = null;
    this.status = 'pending';
    this._wrong = false;
    this._revealed = false;
    this._ruledOut = [];
    this._attempted = false;
    this._open = { hint: false, explanation: false };
    this._choice = '';
    this._number = '';
    this._fieldError = '';
    this._notice = '';
  }

  /** Clears progress, the verdict and the answer; resets attn-* cells in the attempt slot. */
  reset() {
    this._askedAt = Date.now();
    removeRecord(this.storageKey);
    this._record = EMPTY_RECORD;
    this.progress = undefined;
    this._variant = null;
    this.#clearAttempt();
    for (const el of this.querySelectorAll('[slot="attempt"], [slot="attempt"] *')) {
      if (el instanceof AttnCell) el.reset();
    }
    this.stateChanged();
  }

  #has(slot) {
    return Boolean(this.querySelector(`:scope > [slot="${slot}"]`));
  }

  get #hasExplanation() {
    return Boolean(this._variant?.explanation) || this.#has('explanation');
  }

  /** Which panels may be opened now: the hint after a wrong attempt, the explanation after any. */
  #available(which) {
    if (which === 'hint') return (Boolean(this._variant?.hint) || this.#has('hint')) && this._wrong;
    return this.#hasExplanation && (this.#attempted || this._revealed);
  }

  #builtIn() {
    if (this.mode === 'choice') {
      return choiceField(questionOptions(this), this._choice, (value) => (this._choice = value), this._fieldError);
    }
    if (this.mode === 'number') {
      return numberField({
        text: this._number,
        error: this._fieldError,
        prompt: Boolean(this._variant?.prompt),
        onInput: (text) => {
          this._number = text;
          this._fieldError = '';
        },
        onEnter: () => this.#onCheck(),
      });
    }
    return '';
  }

  renderCell() {
    const solved = this._record.status === 'solved';
    const panel = (which) => ({
      available: this.#available(which),
      open: this._open[which],
      own: this._variant?.[which],
    });
    return exerciseCard({
      label: this.label,
      status: this._record.status,
      checkLabel: this.checkLabel,
      prompt: this._variant?.prompt,
      builtIn: this.#builtIn(),
      showCheck: this.mode !== 'custom' || typeof this.getAttempt === 'function',
      verdict: this._verdict,
      panels: { hint: panel('hint'), explanation: panel('explanation') },
      canShow: this.#attempted && !solved && !this._revealed && (this.mode !== 'custom' || this.#hasExplanation),
      canTryAnother: canVary(this) && this.#attempted,
      on: {
        reset: () => this.reset(),
        check: () => this.#onCheck(),
        toggle: (which) => (this._open = { ...this._open, [which]: !this._open[which] }),
        showMe: () => this.showMe(),
        tryAnother: () => this.tryAnother(),
        slotChange: () => this.requestUpdate(),
      },
    });
  }
}

customElements.define('attn-exercise', AttnExercise);
