/**
 * The trainer lab assembled, for <attn-attend-trainer> (`lab`): what AttnLab.renderLab places. The
 * figure: Train, Pause, Step and the readout, then the curves and every head's attention on the
 * probe side by side (stacked on a phone), so the maps change in view while the curves fill in.
 * Beside it the settings; below, the learner's own input, knock-outs and the model file.
 */
import { html } from 'lit';
import { checkCells } from '../../cells/base/lab.js';
import { runControls, settingsControls } from './trainer-controls-parts.js';
import { lossCurves } from './trainer-curves-parts.js';
import { fileSection } from './trainer-file.js';
import { trainerChecks } from './trainer-heads-model.js';
import { placeholderResult } from './trainer-model.js';
import { torchParams, TRAINER_TORCH } from './trainer-torch-model.js';
import { ablationSection, headMaps, ownSection, trainerHood } from './trainer-views-parts.js';

/** The run's failure (with Retry: the link's steps again), else the lab task's. */
function errorLine(lab) {
  if (!lab.run.error) return lab.job.errorLine();
  return html`<p class="lab-error" role="alert">
    ${lab.run.error} <button type="button" class="retry" @click=${() => lab.job.retry()}>Retry</button>
  </p>`;
}

/** renderLab's parts for the trainer lab. */
export function trainerLab(lab) {
  const { result, history } = lab.session;
  const s = lab.settings;
  const figure = html`${runControls(lab)}
    <div class="watch">
      <div class="curves">
        ${lossCurves(history)}
        ${history.length ? '' : html`<p class="note">Press Train: the curves fill in as the model learns.</p>`}
      </div>
      <div class="probe">
        ${headMaps(result ?? placeholderResult(s), 'probe', { title: 'Every head’s attention on the probe' })}
      </div>
    </div>`;
  return {
    figure,
    controls: settingsControls(lab),
    after: html`${ownSection(lab, result)} ${ablationSection(lab, result)} ${fileSection(lab)}`,
    checks: result ? checkCells(trainerChecks(result.probe.attention)) : '',
    code: html`<attn-code
      label="PyTorch: the same tiny model and training loop"
      .template=${TRAINER_TORCH}
      .params=${torchParams(s)}
    ></attn-code>`,
    hood: trainerHood(s),
    error: errorLine(lab),
  };
}
