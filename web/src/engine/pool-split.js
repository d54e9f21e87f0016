/**
 * How the pool cuts one attention call into parts (pure: no workers, tested in Node by
 * tests/js/pool.test.js): by query rows, at multiples of the kernels' block, with about equal work
 * per part (a causal mask makes later rows dearer), and how the parts' options and results are cut
 * and put together. pool.js runs the parts.
 */
import { AttentionError, describe } from './errors.js';
import { toMaskFields } from './mask.js';

/** The kernels' block of query rows: parts start at multiples of it (core/src/kernels/kernels.hpp kBlockRows). */
export const ROW_BLOCK = 4;

/**
 * Parts per worker a long call (BALANCE_FLOP or more) is cut into, handed out as workers come free;
 * a shorter call gets one part per worker, as every part costs a copy of k and v.
 */
export const PARTS_PER_THREAD = 2;

/** The work (flops, about 60 ms on one core) from which a call is cut into PARTS_PER_THREAD parts per worker. */
export const BALANCE_FLOP = 2e9;

/** Flops a part must keep for the call to be split: 2 · rows · S · (E + Ev) ≥ this (about 1 ms on one core). */
export const MIN_PART_FLOP = 3e7;

/** Calls whose q, output or weights hold more elements than this run whole (and meet the core's limits there). */
export const MAX_SPLIT_ELEMENTS = 2 ** 28;

/** Float32 elements no 32-bit wasm heap can hold in one tensor (2 GiB). */
export const HEAP_ELEMENTS = 2 ** 29;

/** The most workers a pool runs. */
export const MAX_THREADS = 64;

/**
 * How many threads `threads` asks for: 'auto' (the device's `available` cores) or a whole number from 1
 * to MAX_THREADS.
 * @param {unknown} threads @param {number} available @returns {number}
 */
export function threadCount(threads, available) {
  if (threads === 'auto' || threads === undefined) return Math.max(1, Math.min(MAX_THREADS, available));
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    throw new AttentionError(
      `createPool: threads must be 'auto' or a whole number from 1 to ${MAX_THREADS}, got ${describe(threads)}`,
      { kind: threads !== undefined && typeof threads !== 'number' ? 'TypeError' : 'ValueError' },
    );
  }
  return threads;
}

/** The flops of each block of ROW_BLOCK query rows (rowFlop(i): row i's), in order, and their total. */
function blockFlops(L, rowFlop) {
  const blocks = [];
  for (let r0 = 0; r0 < L; r0 += ROW_BLOCK) {
    let flop = 0;
    for (let i = r0; i < Math.min(L, r0 + ROW_BLOCK); i++) flop += rowFlop(i);
    blocks.push(flop);
  }
  return { blocks, total: blocks.reduce((a, b) => a + b, 0) };
}

/**
 * How a call of L query rows is split: [r0, r1) per part, at most `threads` parts, each starting at
 * a multiple of ROW_BLOCK, with about equal work (the flops of row i are rowFlop(i): a causal mask
 * makes later rows dearer) and at least minPartFlop each. One part (the whole) when the call is
 * too small to split.
 * @param {number} L @param {(i: number) => number} rowFlop @param {number} threads @returns {Array<[number, number]>}
 */
export function splitRows(L, rowFlop, threads, minPartFlop = MIN_PART_FLOP) {
  const { blocks, total } = blockFlops(L, rowFlop);
  const parts = Math.max(1, Math.min(threads, blocks.length, Math.floor(total / minPartFlop)));
  const ranges = [];
  let start = 0;
  let done = 0;
  blocks.forEach((flop, b) => {
    done += flop;
    const last = b === blocks.length - 1;
    if (last || (ranges.length < parts - 1 && done >= (total * (ranges.length + 1)) / parts)) {
      ranges.push([start * ROW_BLOCK, Math.min(L, (b + 1) * ROW_BLOCK)]);
      start = b + 1;
    }
  });
  return ranges;
}

/**
 * How a call is cut for the shared-memory way (pool-shared.js): first a head part for each thread
 * (the caller is thread 0), sharing 1 − TAIL_SHARE of the work in proportion to `speeds` (each
 * thread's expected pace, the caller's 1), then tail parts with TAIL_SHARE of the work, which the
 * threads take from one counter as they come free. There are as many tail parts as cost at most
 * TAIL_OVERHEAD of the work more, at least one per thread (else none) and at most
 * MAX_TAIL_PARTS_PER_THREAD per thread. partOverheadFlop: what one more part costs whoever
 * computes it (each part is one attention() call, which packs and checks all of k and v: about
 * PART_OVERHEAD_ROWS rows' work). Parts start at multiples of
 * ROW_BLOCK and hold at least one block. The head parts hold at least minPartFlop each: a call
 * with less than 2 · minPartFlop of work, or of one block, is one part; one with work for fewer
 * heads than speeds has fewer, `heads` says how many threads take part (the first ones).
 * @param {number} L @param {(i: number) => number} rowFlop @param {number[]} speeds
 * @param {number} minPartFlop @param {number} partOverheadFlop
 * @returns {{ ranges: Array<[number, number]>, heads: number }}
 */
export function sharedRanges(L, rowFlop, speeds, minPartFlop = MIN_PART_FLOP, partOverheadFlop = 0) {
  const { blocks, total } = blockFlops(L, rowFlop);
  const heads = Math.max(1, Math.min(speeds.length, blocks.length, Math.floor(total / minPartFlop)));
  if (heads < 2) return { ranges: [[0, L]], heads: 1 };
  let tails = Math.min(
    heads * MAX_TAIL_PARTS_PER_THREAD,
    blocks.length - heads,
    Math.floor((total * TAIL_OVERHEAD) / partOverheadFlop),
  );
  if (tails < heads) tails = 0; // fewer tail parts than threads would unbalance more than they balance
  // where each part ends, in work done: the head parts share what the tail parts leave
  const tailWork = tails ? total * TAIL_SHARE : 0;
  const pace = speeds.slice(0, heads);
  const sum = pace.reduce((a, b) => a + b, 0);
  const ends = [];
  let at = 0;
  for (const speed of pace) ends.push((at += ((total - tailWork) * speed) / sum));
  for (let p = 1; p <= tails; p++) ends.push(total - tailWork + (tailWork * p) / tails);
  const ranges = [];
  let start = 0;
  let done = 0;
  blocks.forEach((flop, b) => {
    done += flop;
    const left = blocks.length - 1 - b; // blocks after this one
    const partsLeft = ends.length - ranges.length - 1; // parts still to cut after this one
    if (
      b === blocks.length - 1 ||
      (left >= partsLeft && partsLeft > 0 && done >= ends[ranges.length]) ||
      left === partsLeft
    ) {
      ranges.push([start * ROW_BLOCK, Math.min(L, (b + 1) * ROW_BLOCK)]);
      start = b + 1;
    }
  });
  return { ranges, heads };
}

/** The share of a shared-memory call's work (sharedRanges) cut into tail parts, handed out last. */
export const TAIL_SHARE = 1 / 8;

/**
 * What the tail parts may cost (sharedRanges): at most this share of the call's work more. At
 * L = S = 1024 a part costs about 2.4 % of the call more, so that call has no tail parts; at
 * 4096, two; at 16,384, eight.
 */
export const TAIL_OVERHEAD = 0.015;

/** The most tail parts per thread (sharedRanges). */
export const MAX_TAIL_PARTS_PER_THREAD = 4;

/**
 * What one more part costs, in query rows of the same call: each attention() call packs the keys
 * and checks every value of k and v (measured: about 0.35 ms at S = 1024, E = Ev = 64, against
 * 14 ms for the 1024 rows).
 */
export const PART_OVERHEAD_ROWS = 25;

/**
 * How many workers of `threads` one pool.attention call of L query rows keeps busy (rowFlop(i): the
 * flops of row i, as splitRows takes them): 1 when the call is too small to split.
 */
export function workersFor(L, rowFlop, threads, minPartFlop = MIN_PART_FLOP) {
  return Math.min(threads, splitRows(L, rowFlop, threads, minPartFlop).length);
}

/**
 * The keys query row i may attend to under the mask fields (toMaskFields), with S keys and the
 * call's rowOffset: what its work is proportional to.
 */
export function keysOfRow(fields, S, rowOffset) {
  return (i) => {
    const at = i + rowOffset;
    if (fields.mask === 'causal') return Math.min(S, at + 1);
    if (fields.mask === 'window') {
      const hi = Math.min(S, at + 1 + (fields.causal ? 0 : fields.window));
      return Math.max(0, hi - Math.max(0, at - fields.window));
    }
    return S;
  };
}

export const product = (shape) => shape.reduce((a, b) => a * b, 1);

/**
 * The leading (batch) axes of the result: q's, k's and v's broadcast as NumPy does (aligned at the
 * right, 1 stretches), or null where they do not broadcast (the call then fails as attention() does).
 * @param {number[][]} leads @returns {number[] | null}
 */
export function broadcastLead(leads) {
  const rank = Math.max(...leads.map((s) => s.length));
  const out = [];
  for (let axis = 0; axis < rank; axis++) {
    let size = 1;
    for (const s of leads) {
      const d = s[s.length - rank + axis] ?? 1;
      if (d === 1) continue;
      if (size !== 1 && size !== d) return null;
      size = d;
    }
    out.push(size);
  }
  return out;
}

/** Rows [r0, r1) of axis −2 of a row-major tensor (…, L, C), every leading index: a new tensor. */
export function sliceRows({ data, shape }, r0, r1) {
  const [L, C] = shape.slice(-2);
  const lead = data.length / (L * C);
  const out = new data.constructor(lead * (r1 - r0) * C);
  for (let b = 0; b < lead; b++) out.set(data.subarray((b * L + r0) * C, (b * L + r1) * C), b * (r1 - r0) * C);
  return { data: out, shape: [...shape.slice(0, -2), r1 - r0, C] };
}

/** The parts' tensors (…, r1 − r0, C), in row order, put together as (…, L, C). */
export function joinRows(parts, ranges, L) {
  const [first] = parts;
  const C = first.shape.at(-1);
  const lead = product(first.shape.slice(0, -2));
  const data = new first.data.constructor(lead * L * C);
  parts.forEach((part, p) => {
    const [r0, r1] = ranges[p];
    for (let b = 0; b < lead; b++) {
      data.set(part.data.subarray(b * (r1 - r0) * C, (b + 1) * (r1 - r0) * C), (b * L + r0) * C);
    }
  });
  return { data, shape: [...first.shape.slice(0, -2), L, C] };
}

/**
 * Each part's options: the caller's, with rowOffset moved to the part's first row and a mask
 * tensor cut to the part's rows (when it has one per query row; a mask broadcast over the rows is
 * sent whole). Returns null when the options are not ones a split can carry (the whole call then
 * runs on one worker, which reports whatever is wrong with them exactly as attention() does).
 */
export function readOptions(options) {
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) return null;
  const { mask = null, rowOffset = 0, ...rest } = options ?? {};
  if (!Number.isInteger(rowOffset) || rowOffset < 0) return null;
  try {
    return { mask, rowOffset, rest, fields: toMaskFields(mask) };
  } catch {
    return null;
  }
}

export function partOptions({ mask, rowOffset, rest, fields }, L, ranges) {
  const perRow = fields.maskShape && fields.maskShape.length >= 2 && fields.maskShape.at(-2) === L && L > 1;
  // the mask's values as float32 once (a boolean mask arrives as bytes), then each part's rows of it
  const whole = perRow ? { data: Float32Array.from(fields.maskData), shape: fields.maskShape } : null;
  return ranges.map(([r0, r1]) => {
    let partMask = mask;
    if (perRow) {
      const rows = sliceRows(whole, r0, r1);
      partMask = fields.mask === 'additive' ? { additive: rows } : rows;
    }
    return { ...rest, mask: partMask, rowOffset: rowOffset + r0 };
  });
}
