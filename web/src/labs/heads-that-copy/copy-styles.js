/**
 * The CSS of lesson heads-that-copy's labs (layout, controls and line charts come from cells/base):
 * the copying lab's settings, buttons, readout and curves; the reader's characters, each head's
 * strip of weights and the predictions; the roles on the knock-out toggles (the toggles and table:
 * labs/common/knockout-styles.js); the circuits' boxes.
 */
import { css } from 'lit';

export const copyStyles = css`
  .settings {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0.4rem 0.6rem;
    align-items: center;
  }
  .settings input,
  select {
    min-height: 2.75rem;
    min-width: 0;
  }
  .settings input {
    max-width: 8rem;
  }
  textarea {
    width: 100%;
    box-sizing: border-box;
    font: 0.9rem/1.4 var(--font-mono, ui-monospace, monospace);
  }
  .buttons {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin: 0.6rem 0;
  }
  button {
    min-height: 2.75rem;
    min-width: 2.75rem;
  }
  .readout {
    font-variant-numeric: tabular-nums;
    margin: 0.2rem 0;
  }
  progress {
    width: 100%;
    accent-color: var(--accent, #3b5bdb);
  }
  .curves {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(15rem, 100%), 1fr));
    gap: 0.5rem;
  }
  details.own-text {
    margin: 0.6rem 0;
  }
  details.own-text summary {
    min-height: 2.75rem;
    line-height: 2.75rem;
    cursor: pointer;
  }
  /* the reader: the characters as keys, then one strip per head */
  .reader-input {
    width: 100%;
    box-sizing: border-box;
    min-height: 2.75rem;
    font: 1rem var(--font-mono, ui-monospace, monospace);
  }
  .chars {
    display: flex;
    flex-wrap: wrap;
    gap: 2px;
    margin: 0.2rem 0 0.6rem;
    padding: 0;
    list-style: none;
  }
  /* a key is 2rem wide (44 px tall), a strip's character 1.5rem: 11 keys and 15 characters a row on
     a phone */
  .chars .char {
    box-sizing: border-box;
    width: 2rem;
    min-width: 2rem;
  }
  .strip .chars span {
    box-sizing: border-box;
    width: 1.5rem;
  }
  .chars .char {
    position: relative;
    min-height: 2.75rem;
    padding: 0;
    font: 1rem/1 var(--font-mono, ui-monospace, monospace);
    border: 1px solid var(--border, #d0d4dc);
    border-radius: 4px;
    background: var(--surface, #fff);
    color: var(--text, #1b1e24);
  }
  .chars li {
    display: flex;
    flex-direction: column;
    align-items: center;
  }
  .chars .next {
    font: 0.8rem/1.4 var(--font-mono, ui-monospace, monospace);
    color: var(--muted, #555d6b);
  }
  .chars .next.ok {
    color: var(--good, #2b8a3e);
    font-weight: 700;
  }
  .chars .char[aria-current='true'] {
    outline: 3px solid var(--accent, #3b5bdb);
    outline-offset: 1px;
  }
  .strip h3 {
    font-size: 0.9rem;
    margin: 0.5rem 0 0.2rem;
    font-weight: 600;
  }
  .strip .chars span {
    min-height: 1.8rem;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    font: 1rem/1 var(--font-mono, ui-monospace, monospace);
    border-radius: 4px;
    border: 1px solid transparent;
    background: color-mix(in srgb, var(--accent, #3b5bdb) calc(var(--w, 0) * 100%), transparent);
  }
  .strip .chars span.dark {
    color: #fff;
  }
  .strip .chars span.top {
    border-color: var(--text, #1b1e24);
  }
  .strip .chars span.query {
    text-decoration: underline;
  }
  .strip.off .chars {
    outline: 2px dashed var(--muted, #555d6b);
    outline-offset: 2px;
  }
  .heads-off .role {
    font-size: 0.8rem;
  }
  .circuits {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(22rem, 100%), 1fr));
    gap: 0.75rem;
  }
  h3 {
    font-size: 1rem;
    margin: 1rem 0 0.3rem;
  }
  @container not (min-width: 40rem) {
    .lab.split > .lab-side {
      order: -1;
    }
  }
`;
