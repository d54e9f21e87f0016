/**
 * The trainer lab's controls, for <attn-attend-trainer> (`lab`), as Lit templates (not elements):
 * beside the figure, the settings with their limits, cost and where the model trains; above the
 * curves, Train, Pause, Step, Reset model, the readout, the retraining progress and the pace.
 */
import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import { retrainingProgress } from '../common/pooled-trainer.js';
import { costSummary } from './trainer-cost-model.js';
import { HEADS, MAX_STEPS, percent, RATES, SEEDS, STEPS_TO_97, TASK_TITLES, TASKS, WIDTHS } from './trainer-model.js';

/** <label> and <select> of the setting `name` (a learner's change: a new model, at step 0). */
function settingSelect(lab, name, label, values, format = (v) => v) {
  return html`<label for=${name}>${label}</label>
    <select
      id=${name}
      ?disabled=${lab.busy}
      @change=${(e) => lab._newModel({ [name]: name === 'layers' ? Number(e.target.value) : e.target.value })}
    >
      ${values.map((v) => html`<option value=${v} ?selected=${String(v) === String(lab[name])}>${format(v)}</option>`)}
    </select>`;
}

/** The settings, their limits, the cost of the model they make and where it trains: beside the figure. */
export function settingsControls(lab) {
  const s = lab.settings;
  const cost = costSummary(s, lab.session.gflops ?? undefined);
  return html`
    <div class="settings">
      ${settingSelect(lab, 'task', 'Task', TASKS, (v) => TASK_TITLES[v])}
      ${settingSelect(lab, 'layers', 'Layers', [1, 2])} ${settingSelect(lab, 'heads', 'Heads per layer', HEADS)}
      ${settingSelect(lab, 'width', 'Model width', WIDTHS)} ${settingSelect(lab, 'rate', 'Learning rate', RATES)}
      <label for="seed">Seed</label>
      <input
        id="seed"
        type="number"
        min=${SEEDS.min}
        max=${SEEDS.max}
        step="1"
        ?disabled=${lab.busy}
        .value=${live(String(lab.seed))}
        @change=${(e) => {
          const v = Math.round(Number(e.target.value));
          if (Number.isFinite(v) && v >= SEEDS.min && v <= SEEDS.max) lab._newModel({ seed: v });
          else e.target.value = String(lab.seed);
        }}
      />
    </div>
    <p class="note limits">
      Limits: 1 or 2 layers, 1, 2 or 4 heads each, width 16 to 64, seed 0 to 999, at most
      ${MAX_STEPS.toLocaleString('en')} steps.
    </p>
    <p class="note cost">
      ${cost.text}${lab.session.gflops ? ' (timed on this machine)' : ' (estimated)'}. The defaults reach 97 % in
      ${STEPS_TO_97[s.task]} steps.
    </p>
    <p class="note where">${lab.session.whereText(lab.job.where)}</p>
  `;
}

/** Train, Pause, Step, Reset model, the pace, the readout and the retraining progress: above the curves. */
export function runControls(lab) {
  const { at, lastLoss, result, trainer } = lab.session;
  const busy = lab.busy;
  const cannotTrain = !trainer || lab.training || busy || at >= MAX_STEPS;
  return html`<div class="run" role="group" aria-label="Training">
    <div class="buttons">
      <button type="button" class="train" ?disabled=${cannotTrain} @click=${() => lab._train()}>Train</button>
      <button type="button" class="pause" ?disabled=${!lab.training} @click=${() => lab.run.pause()}>Pause</button>
      <button type="button" class="step" ?disabled=${cannotTrain} @click=${() => lab._train(at + 1)}>Step</button>
      <button type="button" class="reset-model" ?disabled=${busy} @click=${() => lab._newModel()}>Reset model</button>
    </div>
    <p class="readout" aria-live="off">
      Step <span class="step-count">${at}</span> of at most ${MAX_STEPS.toLocaleString('en')} · loss
      <span class="loss">${Number.isFinite(lastLoss) ? lastLoss.toFixed(3) : '—'}</span> · accuracy
      <span class="accuracy">${result ? percent(result.accuracy) : '—'}</span>
    </p>
    ${retrainingProgress(lab)}

    <label class="pace"
      >Pace
      <select class="pace-select" @change=${(e) => (lab._pace = e.target.value)}>
        <option value="watch" ?selected=${lab._pace === 'watch'}>slow: about 60 steps a second</option>
        <option value="fast" ?selected=${lab._pace === 'fast'}>fast: as fast as it goes</option>
      </select></label
    >
  </div>`;
}
