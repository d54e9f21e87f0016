/**
 * The engine's checks of option objects and their fields (index.js): a wrong type or value is an
 * AttentionError naming the option, the value and what would do; the fields come out as the
 * bindings take them.
 */
import { AttentionError, describe, fail } from './errors.js';
import { toMaskFields } from './mask.js';
import { toTensor } from './tensor.js';

/** softmax()'s and softmaxReference()'s arguments, checked: [logits, temperature]. */
export function softmaxArguments(logits, options, name) {
  const { temperature = 1 } = optionsObject(options, name, '{ temperature: 1 }');
  const x = toTensor(logits, 'logits');
  checkNumber(temperature, 'temperature');
  return [x, temperature];
}

export function checkNumber(value, name) {
  if (typeof value !== 'number') fail(`${name} must be a number, got ${describe(value)}`);
}

/** attention()'s and attentionReference()'s options with their defaults (returnWeights/Logits default to `keep`). */
export function attentionOptions(options, name, keep) {
  const {
    scale,
    temperature = 1,
    mask = null,
    returnWeights = keep,
    returnLogits = keep,
    rowOffset = 0,
  } = optionsObject(options, name, "{ mask: 'causal' }");
  return { scale, temperature, mask, returnWeights, returnLogits, rowOffset };
}

/** Those options checked, as the fields the bindings take. */
export function attentionFields({ scale, temperature, mask, returnWeights, returnLogits, rowOffset }) {
  checkScale(scale);
  checkNumber(temperature, 'temperature');
  checkBoolean(returnWeights, 'returnWeights');
  checkBoolean(returnLogits, 'returnLogits');
  checkRowOffset(rowOffset);
  return { scale: scale ?? NaN, temperature, returnWeights, returnLogits, rowOffset, ...toMaskFields(mask) };
}

/** rowOffset: the index of q's first row in the whole sequence, a whole number in [0, 2^32). */
export function checkRowOffset(rowOffset) {
  checkNumber(rowOffset, 'rowOffset');
  if (!Number.isInteger(rowOffset) || rowOffset < 0 || rowOffset >= 2 ** 32) {
    throw new AttentionError(
      `rowOffset is ${describe(rowOffset)}; it must be a whole number from 0 (the index of q's first row)`,
      { kind: 'ValueError' },
    );
  }
}

// undefined scale means 1/sqrt(E); the bindings take NaN for that, so a NaN given here must not pass as it.
export function checkScale(scale) {
  if (scale === undefined || scale === null) return;
  checkNumber(scale, 'scale');
  if (Number.isNaN(scale)) {
    throw new AttentionError('scale is NaN; leave it out for 1/sqrt(E) or give a finite number', {
      kind: 'ValueError',
    });
  }
}

// The options argument: undefined (every default) or a plain object.
export function optionsObject(options, fn, example) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options)) {
    fail(`${fn}: options must be an object such as ${example}, got ${describe(options)}`);
  }
  return options;
}

export function checkBoolean(value, name) {
  if (typeof value !== 'boolean') fail(`${name} must be true or false, got ${describe(value)}`);
}
