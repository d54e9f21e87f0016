/**
 * The sequence-length slider of the attention-at-scale labs: T on a log₂ slider over `sizes`
 * (powers of two), its value shown as "T = 4,096" (output.t-value), typeset.
 */
import { sizeSlider } from '../../cells/base/size-slider.js';

export const lengthSlider = (sizes, T, onChange) =>
  sizeSlider({
    id: 't',
    label: 'Sequence length $T$',
    symbol: 'T',
    value: T,
    min: sizes[0],
    max: sizes.at(-1),
    onChange,
  });
