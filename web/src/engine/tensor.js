/**
 * Tensors as the engine passes them: { data: Float32Array, shape: number[] },
 * row-major. Plain number arrays are accepted where the shape is obvious
 * (1-D, or 2-D as an array of equal-length rows). Validation here covers only
 * the form of the input; values (NaN, infinities) are checked by the core.
 */
import { AttentionError, describe } from './errors.js';

/**
 * @typedef {{ data: Float32Array, shape: number[] }} Tensor
 */

/**
 * Normalises `value` to a Tensor, naming it `name` in errors.
 * @param {unknown} value Tensor-like, number[], number[][] or Float32Array
 * @param {string} name
 * @returns {Tensor}
 */
export function toTensor(value, name) {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return { data: toFloat32(value, name), shape: [value.length] };
  }
  if (Array.isArray(value)) {
    return Array.isArray(value[0]) ? fromRows(value, name) : fromFlat(value, name);
  }
  if (value !== null && typeof value === 'object' && 'data' in value && 'shape' in value) {
    const shape = checkShape(value.shape, name);
    const data = ArrayBuffer.isView(value.data)
      ? toFloat32(value.data, name)
      : Array.isArray(value.data)
        ? fromFlat(value.data, name).data
        : fail(`${name}.data must be a Float32Array or an array of numbers, got ${describe(value.data)}`);
    const count = shape.reduce((a, b) => a * b, 1);
    if (data.length !== count) {
      fail(`${name}: data has ${data.length} values but shape [${shape.join(', ')}] needs ${count}`, 'ShapeError');
    }
    return { data, shape };
  }
  return fail(
    `${name} must be a tensor { data, shape }, an array of numbers or a Float32Array; got ${describe(value)}`,
  );
}

function toFloat32(view, name) {
  if (view instanceof Float32Array) return view;
  if (view instanceof BigInt64Array || view instanceof BigUint64Array) {
    fail(`${name}: ${view.constructor.name} is not supported; use a Float32Array`);
  }
  return Float32Array.from(view);
}

function fromFlat(values, name) {
  const data = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'number') fail(`${name}[${i}] is ${describe(values[i])}, not a number`);
    data[i] = values[i];
  }
  return { data, shape: [values.length] };
}

function fromRows(rows, name) {
  const width = rows[0].length;
  const data = new Float32Array(rows.length * width);
  rows.forEach((row, r) => {
    if (!Array.isArray(row)) fail(`${name}[${r}] is ${describe(row)}, but ${name}[0] is an array`);
    if (row.length !== width) {
      fail(`${name}[${r}] has ${row.length} values but ${name}[0] has ${width}`, 'ShapeError');
    }
    row.forEach((v, c) => {
      if (typeof v !== 'number') fail(`${name}[${r}][${c}] is ${describe(v)}, not a number`);
      data[r * width + c] = v;
    });
  });
  return { data, shape: [rows.length, width] };
}

function checkShape(shape, name) {
  if (!Array.isArray(shape)) fail(`${name}.shape must be an array of whole numbers, got ${describe(shape)}`);
  shape.forEach((d, axis) => {
    if (!Number.isInteger(d) || d < 0) {
      fail(`${name}.shape[${axis}] must be a whole number >= 0, got ${describe(d)}`, 'ShapeError');
    }
  });
  return shape.slice();
}

function fail(message, kind = 'TypeError') {
  throw new AttentionError(message, { kind });
}
