/**
 * The trainer lab's own CSS (<attn-attend-trainer>; layout, controls and line charts come from
 * cells/base): the settings grid and buttons, the readout and progress, the curves and head maps
 * (a knocked-out head's map dashed), the learner's answer tokens and the keys (the knock-out
 * table and toggles: labs/common/knockout-styles.js).
 */
import { css } from 'lit';

export const trainerStyles = css`
  .settings {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0.4rem 0.6rem;
    align-items: center;
  }
  .settings select,
  .settings input {
    min-height: 2.75rem;
    min-width: 0;
  }
  .buttons {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin: 0.6rem 0;
  }
  .buttons button,
  .keys button,
  .heads-off button,
  .own button {
    min-height: 2.75rem;
    min-width: 2.75rem;
  }
  .readout {
    font-variant-numeric: tabular-nums;
    margin: 0.2rem 0;
  }
  .pace select {
    min-height: 2.75rem;
    max-width: 100%;
  }
  .run .buttons {
    margin-top: 0;
  }
  progress {
    width: 100%;
    accent-color: var(--accent, #3b5bdb);
  }
  /* the curves side by side above the maps, so both are on screen while the model trains; a
     phone stacks them */
  .curves {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(15rem, 100%), 1fr));
    gap: 0.5rem;
  }
  .curves .note {
    grid-column: 1 / -1;
  }
  .maps {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(13rem, 100%), 1fr));
    gap: 0.5rem;
  }
  .maps attn-heatmap {
    margin: 0;
  }
  .maps figure,
  .map {
    margin: 0;
  }
  .map.off {
    outline: 2px dashed var(--muted, #555d6b);
    outline-offset: 2px;
    border-radius: 8px;
  }
  .answer {
    display: flex;
    flex-wrap: wrap;
    gap: 0.3rem;
    list-style: none;
    padding: 0;
    margin: 0.4rem 0;
  }
  .answer li {
    min-width: 2.2rem;
    padding: 0.2rem 0.4rem;
    border: 2px solid var(--border, #d0d4dc);
    border-radius: 6px;
    text-align: center;
    font: 1rem/1.4 var(--font-mono, ui-monospace, monospace);
  }
  .answer li.ok {
    border-color: var(--good, #2b8a3e);
  }
  .answer li.wrong {
    border-color: var(--bad, #c92a2a);
    border-style: dashed;
  }
  .keys {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem;
    margin: 0.4rem 0;
  }
  .own input {
    min-height: 2.75rem;
    font: 1rem var(--font-mono, ui-monospace, monospace);
    max-width: 100%;
  }
  h3 {
    font-size: 1rem;
    margin: 1rem 0 0.3rem;
  }
  /* stacked (a phone, a narrow column): the settings come first, then Train and the figure,
     which is tall (curves and a map per head), so that the choices are not below it */
  @container not (min-width: 40rem) {
    .lab.split > .lab-side {
      order: -1;
    }
  }
`;
