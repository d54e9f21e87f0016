/**
 * Tensors as the engine passes them: { data: Float32Array, shape: number[] },
 * row-major. Plain number arrays are accepted too, nested to any depth as
 * NumPy reads them: [[[1, 2], [3, 4]]] has shape [1, 2, 2] (every array at one
 * depth must be as long as the first). Validation here covers only the form of
 * the input; values (NaN, infinities) are checked by the core.
 */
import { describe, fail } from './errors.js';

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
  if (Array.isArray(value)) return fromNested(value, name);
  if (value !== null && typeof value === 'object' && 'data' in value && 'shape' in value) {
    const shape = checkShape(value.shape, name);
    const data = ArrayBuffer.isView(value.data)
      ? toFloat32(value.data, name)
      : Array.isArray(value.data)
        ? fromFlat(value.data, name).data
        : fail(`${name}.data must be a Float32Array or an array of numbers, got ${describe(value.data)}`);
    const count = shape.reduce((a, b) => a * b, 1);
    if (data.length !== count) {
      fail(`${name}: data has ${valueCount(data.length)} but shape [${shape.join(', ')}] needs ${count}`, 'ShapeError');
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

/**
 * Nested arrays of numbers, any depth. The shape is read down the first
 * elements ([[1, 2, 3]] is [1, 3]); each array must then have its depth's
 * length, and the innermost hold numbers. Errors name the first offending
 * element, e.g. "x[1] has 2 values but x[0] has 3".
 */
function fromNested(value, name) {
  const shape = [];
  for (let v = value; Array.isArray(v); v = v[0]) shape.push(v.length);
  const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
  const index = []; // where the walk is, for error messages
  const at = (depth) =>
    name +
    index
      .slice(0, depth)
      .map((i) => `[${i}]`)
      .join('');
  const first = (depth) => name + '[0]'.repeat(depth);
  let offset = 0;
  const walk = (array, depth) => {
    if (!Array.isArray(array)) fail(`${at(depth)} is ${describe(array)}, but ${first(depth)} is an array`);
    if (array.length !== shape[depth]) {
      fail(`${at(depth)} has ${valueCount(array.length)} but ${first(depth)} has ${shape[depth]}`, 'ShapeError');
    }
    if (depth === shape.length - 1) {
      for (let i = 0; i < array.length; i++) {
        if (typeof array[i] !== 'number') {
          index[depth] = i;
          fail(`${at(depth + 1)} is ${describe(array[i])}, not a number`);
        }
        data[offset++] = array[i];
      }
      return;
    }
    for (let i = 0; i < array.length; i++) {
      index[depth] = i;
      walk(array[i], depth + 1);
    }
  };
  walk(value, 0);
  return { data, shape };
}

const valueCount = (n) => `${n} value${n === 1 ? '' : 's'}`;

function checkShape(shape, name) {
  if (!Array.isArray(shape)) fail(`${name}.shape must be an array of whole numbers, got ${describe(shape)}`);
  shape.forEach((d, axis) => {
    if (!Number.isInteger(d) || d < 0) {
      fail(`${name}.shape[${axis}] must be a whole number >= 0, got ${describe(d)}`, 'ShapeError');
    }
  });
  return shape.slice();
}
