/**
 * The CSS of typeset maths (tex`…` of math.js), shared by every cell's shadow root (attn-cell.js).
 */
import { css } from 'lit';

/**
 * mathStyles: the look of tex`…` (math.js) in every cell: letters in KaTeX's italic (the page
 * ships its fonts; a page without them falls back to a serif italic), TeX's spacing around
 * relations and operators, scripts, a radical whose bar covers the whole radicand, fractions, and
 * brackets that grow around a fraction. A display formula scales down to fit a narrow box.
 */
export const mathStyles = css`
  sub,
  sup {
    font-size: max(12px, 0.75em);
  }
  .math {
    font-family: KaTeX_Main, 'Times New Roman', serif;
    font-size: 1.1em;
    font-style: normal;
    white-space: nowrap;
    line-height: 1.2;
  }
  .math .mi {
    font-family: KaTeX_Math, 'Times New Roman', serif;
    font-style: italic;
  }
  .math .mb {
    font-weight: bold;
  }
  .math .mw {
    margin: 0 0.08em;
  }
  .math .mw + .mw,
  .math .mi + .mw,
  .math .mn + .mw {
    margin-left: 0.17em;
  }
  .math .mtext {
    font-family: var(--font-sans, system-ui, sans-serif);
    font-size: 0.91em;
  }
  /* the spaces around = and + are part of the text (copied, read aloud); KaTeX's font draws them
     narrow, so margins make up TeX's thick and medium spaces */
  .math .mo.rel,
  .math .mo.bin {
    white-space: pre;
  }
  .math .mo.rel {
    margin: 0 0.14em;
  }
  .math .mo.bin {
    margin: 0 0.08em;
  }
  .math .mo.first {
    margin-left: 0;
  }
  .math .mo.last {
    margin-right: 0;
  }
  .math .script .mo {
    margin: 0;
    white-space: normal;
    word-spacing: -0.2em; /* scripts are set tight, as TeX does */
  }
  .math .mo.punct {
    margin-right: 0.17em;
  }
  .math .mo.big {
    font-size: 1.3em;
    vertical-align: -0.1em;
    margin-right: 0.1em;
  }
  .math .scripts {
    display: inline-flex;
    align-items: center;
  }
  .math .script {
    display: inline-flex;
    flex-direction: column;
    font-size: max(12px, 0.72em); /* figure text stays 12 px or more, scripts included */
    line-height: 1;
    margin-left: 0.05em;
  }
  .math .script:not(.both) > .sub {
    transform: translateY(0.45em);
  }
  .math .script:not(.both) > .sup {
    transform: translateY(-0.55em);
  }
  .math .msqrt {
    display: inline-flex;
    align-items: stretch;
  }
  .math .radical {
    font-size: 1.1em;
    line-height: 1;
    align-self: flex-end;
  }
  .math .radicand {
    border-top: 0.07em solid currentColor;
    padding: 0.08em 0.08em 0 0.04em;
  }
  .math .mfrac {
    display: inline-flex;
    flex-direction: column;
    align-items: center;
    vertical-align: middle;
    margin: 0 0.12em;
    font-size: 0.9em;
  }
  .math .mfrac > .den {
    border-top: 0.07em solid currentColor;
    padding-top: 0.1em;
  }
  .math .mfrac > .num {
    padding-bottom: 0.1em;
  }
  .math .mo.fence {
    display: inline-block;
  }
  .math .mo.open.fence:has(~ .mfrac),
  .math .mfrac ~ .mo.close.fence {
    transform: scaleY(2);
    margin: 0 0.1em;
  }
  .math .accent {
    display: inline-block;
    position: relative;
  }
  .math .accent.bar {
    border-top: 0.06em solid currentColor;
  }
  .math .accent.hat::before {
    content: '^';
    position: absolute;
    top: -0.55em;
    left: 0;
    right: 0;
    text-align: center;
  }
  .math-display {
    display: block;
    text-align: center;
    margin: 0.5rem 0;
    max-width: 100%;
    font-size: clamp(0.8rem, 4.2vw, 1.15rem);
  }
  .math-display > .math {
    display: inline-block;
    max-width: 100%;
    white-space: normal;
  }
`;
