/**
 * The copying lab assembled, for <attn-copy-trainer> (`lab`), as Lit templates (not elements):
 * the figure (Train from scratch, Continue, Pause, the readout and the time still to go; the loss
 * curve with the steps at which each second-layer head crossed the induction line, the copy
 * accuracy, and each head's two scores over training), beside it the seed and the training text,
 * and the notes under the hood. (The PyTorch cell is a cell of its own: attn-copy-torch.js.)
 */
import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import '../../charts/attn-line-chart.js';
import { retrainingProgress } from '../common/pooled-trainer.js';
import {
  COPY_STEPS,
  COPYING_LINE,
  curveDomain,
  curveSeries,
  HEAD_LIST,
  INDUCTION_LINE,
  MAX_STEPS,
  percent,
  PREVIOUS_TOKEN_LINE,
  PROSE_REPEATS_FROM,
  TEXT_LIMIT,
  textProblem,
  timeToGo,
} from './copy-model.js';

const two = (v) => String(Number(v.toFixed(2)));
const line = (name, className, dashed = false) => ({ name, className, dashed, points: false, format: two });
const flat = (value, domain) => [
  [domain[0], value],
  [domain[1], value],
];

/** One attn-line-chart of the lab's curves. */
function chart(name, { label, yLabel, yDomain, series, data, domain, events = [], format = two }) {
  return html`<attn-line-chart
    class=${`curve-${name}`}
    label=${label}
    x-label="step"
    y-label=${yLabel}
    .xDomain=${domain}
    .yDomain=${yDomain}
    .series=${series}
    .data=${data}
    .events=${events}
    .format=${format}
  ></attn-line-chart>`;
}

/** The curves: loss (with the crossings), the copy accuracy, and the heads' scores. */
export function copyCurves(lab) {
  const { history } = lab.session;
  const domain = curveDomain(history.at(-1)?.step ?? 0);
  const c = curveSeries(history);
  const { heads, copied } = lab.crossings;
  const events = [
    ...heads.map((h) => ({ x: h.step, name: `${h.name} crossed ${INDUCTION_LINE} at step ${h.step}` })),
    { x: PROSE_REPEATS_FROM, name: `from step ${PROSE_REPEATS_FROM}, repeated prose too` },
  ];
  const later = HEAD_LIST.filter((h) => h.layer > 0);
  const first = HEAD_LIST.filter((h) => h.layer === 0);
  return html`<div class="curves">
      ${chart('loss', {
        label: 'Loss against training steps, with the steps at which a head became an induction head',
        yLabel: 'loss (bits per character)',
        yDomain: [0, 6],
        series: [line('training loss', 'series-0')],
        data: [c.loss],
        domain,
        events,
      })}
      ${chart('copy', {
        label: 'Copying a random string: accuracy on its first and second copy',
        yLabel: 'accuracy',
        yDomain: [0, 1],
        series: [line('second copy', 'series-1'), line('first copy', 'series-2', true), line('80 %', 'series-3', true)],
        data: [...c.copy, flat(COPYING_LINE, domain)],
        domain,
        events,
        format: percent,
      })}
      ${chart('prefix', {
        label: 'Prefix-matching score of each second-layer head',
        yLabel: 'prefix-matching score',
        yDomain: [0, 1],
        series: [
          ...later.map((h, i) => line(h.name, `series-${i}`, i > 0)),
          line(`${INDUCTION_LINE}`, 'series-3', true),
        ],
        data: [...c.prefix, flat(INDUCTION_LINE, domain)],
        domain,
        events,
      })}
      ${chart('previous', {
        label: 'Previous-token score of each first-layer head',
        yLabel: 'previous-token score',
        yDomain: [0, 1],
        series: [
          ...first.map((h, i) => line(h.name, `series-${i}`, i > 0)),
          line(`${PREVIOUS_TOKEN_LINE}`, 'series-3', true),
        ],
        data: [...c.previous, flat(PREVIOUS_TOKEN_LINE, domain)],
        domain,
        events,
      })}
    </div>
    <p class="note">
      Dotted lines: where a second-layer head crossed ${INDUCTION_LINE}, and step
      ${PROSE_REPEATS_FROM.toLocaleString('en')}, from which every other repeated window repeats a stretch of prose
      instead of random letters.
    </p>
    <p class="note crossings" aria-live="polite">
      ${
        heads.length
          ? html`Induction heads formed: ${heads.map((h) => `${h.name} at step ${h.step}`).join('; ')}.
            ${copied !== null ? html`It copies in context from step ${copied}.` : ''}`
          : history.some((h) => h.probe)
            ? 'No second-layer head has crossed the induction line yet.'
            : ''
      }
    </p>`;
}

/** Train from scratch, Continue, Pause, the readout, the progress and the time still to go. */
export function runControls(lab) {
  const s = lab.session;
  const busy = !s.trainer || lab.run.training;
  return html`<div class="run" role="group" aria-label="Training">
    <div class="buttons">
      <button type="button" class="from-scratch" ?disabled=${busy} @click=${() => lab._fromScratch()}>
        Train from scratch
      </button>
      <button
        type="button"
        class="continue"
        ?disabled=${busy || s.committed || s.at >= MAX_STEPS}
        @click=${() => lab._train()}
      >
        Continue
      </button>
      <button type="button" class="pause" ?disabled=${!lab.run.training} @click=${() => lab.run.pause()}>Pause</button>
    </div>
    <p class="readout">
      Step <span class="step-count">${s.at.toLocaleString('en')}</span> · loss
      <span class="loss">${Number.isFinite(s.lastLoss) ? s.lastLoss.toFixed(2) : '—'}</span> bits per character · second
      copy <span class="second">${s.probe ? percent(s.probe.secondCopyAccuracy) : '—'}</span>
    </p>
    ${retrainingProgress(lab)}
    <p class="note to-go">
      ${
        s.committed
          ? `The model trained by the project (seed 1, the course’s prose, ${s.at.toLocaleString('en')} steps), and its curves. Train from scratch to watch one learn.`
          : timeToGo({
              at: s.at,
              stepsPerSecond: lab.run.training ? s.stepsPerSecond : null,
              copied: lab.crossings.copied,
            })
      }
    </p>
  </div>`;
}

/** The training text: the course's prose, or the learner's own (up to 16 KB, in the permalink). */
function textSetting(lab) {
  const draft = lab.draft ?? { text: lab.text, error: '' };
  const bytes = new TextEncoder().encode(draft.text).length;
  const use = () => {
    const error = textProblem(draft.text);
    if (error) lab.draft = { ...draft, error };
    else {
      lab.draft = null;
      lab._newModel({ text: draft.text });
    }
  };
  return html`<details class="own-text" ?open=${lab.text !== '' || lab.draft !== null}>
    <summary>Training text: ${lab.text ? 'your own' : 'the course’s prose'}</summary>
    <label for="text">Your own text (at most 16 KB)</label>
    <textarea
      id="text"
      rows="5"
      ?disabled=${lab.run.training}
      .value=${live(draft.text)}
      @input=${(e) => (lab.draft = { text: e.target.value, error: '' })}
    ></textarea>
    <p class="note">${bytes.toLocaleString('en')} of ${TEXT_LIMIT.toLocaleString('en')} bytes</p>
    ${draft.error ? html`<p class="lab-error" role="alert">${draft.error}.</p>` : ''}
    <div class="buttons">
      <button type="button" class="use-text" ?disabled=${lab.run.training} @click=${use}>Use this text</button>
      <button
        type="button"
        class="course-text"
        ?disabled=${lab.run.training || (lab.text === '' && !lab.draft)}
        @click=${() => {
          lab.draft = null;
          lab._newModel({ text: '' });
        }}
      >
        The course’s prose
      </button>
    </div>
  </details>`;
}

/** Beside the figure: the model, the seed, the training text and where it trains. */
export function settingsControls(lab) {
  return html`<p class="note">
      Two layers of two heads, width 32, no MLP, no LayerNorm; 64 characters of context; AdamW, learning rate 0.01, 32
      windows a step.
    </p>
    <div class="settings">
      <label for="seed">Seed</label>
      <input
        id="seed"
        type="number"
        min="1"
        max="999"
        step="1"
        ?disabled=${lab.run.training}
        .value=${live(String(lab.seed))}
        @change=${(e) => {
          const v = Math.round(Number(e.target.value));
          if (Number.isFinite(v) && v >= 1 && v <= 999) lab._newModel({ seed: v });
          else e.target.value = String(lab.seed);
        }}
      />
    </div>
    ${textSetting(lab)}
    <p class="note where">${lab.session.whereText(lab.job.where)}</p>`;
}

/** renderLab's parts for the copying lab. */
export function copierLab(lab) {
  return {
    figure: html`${runControls(lab)} ${copyCurves(lab)}`,
    controls: settingsControls(lab),
    error: lab.run.error
      ? html`<p class="lab-error" role="alert">
          ${lab.run.error} <button type="button" class="retry" @click=${() => lab.job.retry()}>Retry</button>
        </p>`
      : lab.job.errorLine(),

    hood: html`<p>
        The committed model is seed 1 trained on the course’s prose by the project’s own trainer (<code
          >npm run train:text</code
        >, which a test repeats bit for bit). The page carries its weights rounded to float32, which is what every
        forward pass reads, so its predictions, attention and probe are the trained model’s exactly; it leaves out
        AdamW’s moments, so this model is never trained further here: Train from scratch starts a new one.
      </p>
      <p>
        The probe writes 64 random strings of 20 letters twice. The second copy can be predicted only by copying; the
        first cannot be predicted at all. Seeds 1–5 began to copy after ${COPY_STEPS.min}–${COPY_STEPS.max} steps.
      </p>`,
  };
}
