/**
 * Attention masks as the engine accepts them, turned into the fields the wasm
 * bindings read ({ mask, window, causal, maskData, maskShape }).
 *
 *   null | 'none'               every key
 *   'causal'                    key j ≤ query i (top-left aligned, as PyTorch is_causal)
 *   { window, causal? }         |i − j| ≤ window (and j ≤ i when causal)
 *   Tensor of 0/1 or booleans   1 = may attend; shape (L, S) or broadcastable to (..., L, S)
 *   { additive: Tensor }        added to the logits; -Infinity forbids a key
 */
import { describe, fail } from './errors.js';
import { toTensor } from './tensor.js';

const booleansToNumbers = (value) =>
  Array.isArray(value) ? value.map((v) => (typeof v === 'boolean' ? Number(v) : booleansToNumbers(v))) : value;

/** The element at flat (row-major) index i of a tensor of this shape, as indices: mask[1][2]. */
function elementName(name, i, shape) {
  const index = [];
  for (let axis = shape.length - 1; axis >= 0; axis--) {
    index.unshift(i % shape[axis]);
    i = Math.floor(i / shape[axis]);
  }
  return name + index.map((j) => `[${j}]`).join('');
}

/** @returns {{ mask: string, window: number, causal: boolean, maskData?: ArrayLike<number>, maskShape?: number[] }} */
export function toMaskFields(mask) {
  const fields = { mask: 'none', window: 0, causal: false };
  if (mask === null || mask === undefined || mask === 'none') return fields;
  if (mask === 'causal') return { ...fields, mask: 'causal' };
  if (typeof mask === 'string') {
    fail(`mask must be null, 'causal', { window }, { additive } or a 0/1 tensor; got ${describe(mask)}`);
  }
  if (typeof mask === 'object' && 'window' in mask) {
    if (!Number.isInteger(mask.window) || mask.window < 0) {
      fail(`mask.window must be a whole number >= 0, got ${describe(mask.window)}`, 'ValueError');
    }
    if (mask.causal !== undefined && typeof mask.causal !== 'boolean') {
      fail(`mask.causal must be true or false, got ${describe(mask.causal)}`);
    }
    return { ...fields, mask: 'window', window: mask.window, causal: mask.causal ?? false };
  }
  if (typeof mask === 'object' && 'additive' in mask) {
    const t = toTensor(mask.additive, 'mask.additive');
    return { ...fields, mask: 'additive', maskData: t.data, maskShape: t.shape };
  }
  const t = toTensor(booleansToNumbers(mask), 'mask');
  const data = new Uint8Array(t.data.length);
  for (let i = 0; i < data.length; i++) {
    const v = t.data[i];
    if (v !== 0 && v !== 1) {
      fail(
        `${elementName('mask', i, t.shape)} is ${v}; a boolean mask holds 0 (blocked) or 1 (may attend)`,
        'ValueError',
      );
    }
    data[i] = v;
  }
  return { ...fields, mask: 'boolean', maskData: data, maskShape: t.shape };
}
