/**
 * What the attention-at-scale labs share: bytes written for a learner, and the bytes the T × T
 * float32 weights take. No DOM; unit-tested in Node (tests/js/labs-attention-at-scale.test.js).
 */

/** 1536 -> '1.50 KiB', 4194304 -> '4.00 MiB' (three significant digits, whole numbers from 100). */
export function formatBytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n >= 100 || i === 0 ? Math.round(n) : n.toPrecision(3)} ${units[i]}`;
}

/** The bytes of T × T float32 weights. */
export const weightsBytes = (T) => T * T * 4;
