/**
 * Keeping the trainer lab's model in a file, for <attn-attend-trainer> (`lab`): the section (Save
 * as JSON, Load a saved model, and what the last of them did, in `lab.fileNote`) and what its
 * buttons do. A loaded model's settings and step become the lab's state, so its permalink names it.
 */
import { html } from 'lit';
import { download, toJson } from '../../charts/export.js';
import { readSavedModel, TASK_TITLES } from './trainer-model.js';

/** Save as JSON: the trainer's exportState(), as a download. */
async function save(lab) {
  const trainer = lab.session.trainer;
  if (!trainer) return;
  const state = await trainer.exportState();
  download(toJson(state), `attnbook-trainer-${lab.task}-step${state.step}.json`, 'application/json');
  lab.fileNote = `Saved the model at step ${state.step}.`;
}

/** Load a saved model: checked (readSavedModel), loaded, then its settings, step and knock-outs shown. */
async function load(lab, event) {
  const file = event.target.files?.[0];
  event.target.value = '';
  if (!file) return;
  try {
    const saved = readSavedModel(await file.text());
    if (saved instanceof Error) throw saved;
    const { state, settings } = saved;
    lab.run.pause();
    await lab.session.load(lab.job.engine, state, settings);
    lab.beginEdit();
    const { dModel, learningRate, ...rest } = settings;
    Object.assign(lab, rest, { width: dModel, rate: learningRate, steps: state.step });
    lab.knockouts.reset(lab.session.off);
    lab.fileNote = `Loaded a model of ${TASK_TITLES[settings.task].toLowerCase()} at step ${state.step}.`;
    lab.stateChanged();
  } catch (error) {
    lab.fileNote = `Could not load ${file.name}: ${error.message}`;
  }
}

/** Keep the trained model: Save as JSON, Load a saved model, and what the last of them did. */
export function fileSection(lab) {
  return html`<section aria-labelledby="file-title">
    <h3 id="file-title">Keep the trained model</h3>
    <div class="buttons">
      <button type="button" class="save-state" ?disabled=${lab.training} @click=${() => save(lab)}>Save as JSON</button>
      <label class="file-label"
        >Load a saved model
        <input type="file" accept="application/json,.json" class="load-state" @change=${(e) => load(lab, e)}
      /></label>
    </div>
    <p class="note file-note" role="status">${lab.fileNote}</p>
  </section>`;
}
