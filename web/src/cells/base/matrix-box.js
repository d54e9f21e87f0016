/**
 * The box around a matrix (attn-matrix, attn-matrix-editor, attn-mask-painter): when it may scroll
 * sideways, its mark and its edge fade.
 */
import { css } from 'lit';

/** A scroll handler for a data-wide-matrix box: its edge fade goes once the learner reaches the end. */
export function markScrollEnd(event) {
  const box = event.currentTarget;
  box.classList.toggle('at-end', box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
}

/** Matrices wider than this many columns may scroll sideways on a narrow screen; narrower ones fit. */
export const WIDE_MATRIX_COLUMNS = 6;

/**
 * matrixBoxStyles: the box around a matrix (attn-matrix, attn-matrix-editor). A matrix of more than
 * WIDE_MATRIX_COLUMNS columns scrolls sideways in its own box, marked data-wide-matrix, with its
 * right edge faded so a learner sees there is more; a narrower one fits its box (tighter cells in
 * a narrow box), and its box never scrolls.
 */
export const matrixBoxStyles = css`
  .matrix-box {
    container-type: inline-size;
    max-width: 100%;
  }
  .matrix-box[data-wide-matrix] {
    overflow-x: auto;
    mask-image: linear-gradient(to right, #000 calc(100% - 2rem), transparent);
  }
  .matrix-box[data-wide-matrix].at-end {
    mask-image: none;
  }
  @container (max-width: 26rem) {
    .matrix-box:not([data-wide-matrix]) th,
    .matrix-box:not([data-wide-matrix]) td {
      padding-left: 0.2rem;
      padding-right: 0.2rem;
    }
    .matrix-box:not([data-wide-matrix]) tbody th {
      white-space: normal;
      max-width: 5.5rem;
    }
  }
`;
