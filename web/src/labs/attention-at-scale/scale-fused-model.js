/**
 * The fused-attention lab's model: the memory the fused kernel allocated per call (the core's
 * scratchBytes, reported by the fusedAttention job) against the T·T·4 bytes the weights would
 * need, as two bars; the text alternative, the exports (the bars as an SVG document). No DOM;
 * unit-tested in Node (tests/js/labs-attention-at-scale.test.js).
 */
import { formatBytes, weightsBytes } from './memory-model.js';

export const FUSED_SIZES = [256, 512, 1024, 2048, 4096, 8192, 16384];
/** The module that runs the fused kernel must stay within this much wasm memory at every T. */
export const HEAP_LIMIT = 64 * 1024 * 1024;
/** Query rows per call of the job (jobs.js fusedAttention's block). */
export const BLOCK_ROWS = 512;

/**
 * The two bars: what the fused kernel allocated per call, and what the weights alone would take.
 * `share` is each one's length as a fraction of the longer; `times` how many times the weights
 * exceed the kernel's memory.
 */
export function memoryBars(r) {
  const fused = r.scratchBytes;
  const weights = weightsBytes(r.T);
  const longest = Math.max(fused, weights);
  return {
    times: weights / fused,
    bars: [
      { id: 'fused', label: 'fused attention, per call', bytes: fused, share: fused / longest },
      {
        id: 'weights',
        label: `the weights, ${r.T.toLocaleString('en')} × ${r.T.toLocaleString('en')} × 4 bytes`,
        bytes: weights,
        share: weights / longest,
      },
    ],
  };
}

/** How many times smaller: 64 -> '64×', 0.5 -> '0.5×'. */
export const timesText = (x) => `${x >= 10 ? Math.round(x).toLocaleString('en') : x.toPrecision(2)}×`;

export const explainFused = (error) =>
  error?.kind === 'MemoryError'
    ? 'This length does not fit in memory here. Choose a smaller T.'
    : 'The fused run could not finish this time. Retry, or choose a smaller T.';

/** The text alternative. */
export function describeFused(r) {
  if (!r) return 'Not run yet.';
  const { times } = memoryBars(r);
  return (
    `Fused attention at T = ${r.T.toLocaleString('en')} took ${r.ms.toFixed(0)} ms and allocated ${formatBytes(r.scratchBytes)} ` +
    `per call, where the weights alone would need ${formatBytes(weightsBytes(r.T))}: ${timesText(times)} as much.`
  );
}

export const fusedRows = (r) => [
  ['T', 'E', 'simd', 'ms', 'GFLOP/s', 'bytes per call', 'weights bytes', 'heap bytes'],
  r ? [r.T, r.dim, r.simd, r.ms, r.gflops, r.scratchBytes, weightsBytes(r.T), r.heapBytes] : [],
];

const escape = (text) => text.replace(/[<&>]/g, '');

/** The two bars as a standalone SVG document (the Export menu's SVG and PNG). */
export function fusedSvg(r) {
  const W = 640;
  const rows = r ? memoryBars(r).bars : [];
  const bars = rows
    .map((b, i) => {
      const y = 40 + i * 48;
      const w = Math.max(2, b.share * (W - 32));
      return (
        `<text x="16" y="${y - 6}" font-size="13">${escape(`${b.label}: ${formatBytes(b.bytes)}`)}</text>` +
        `<rect x="16" y="${y}" width="${w.toFixed(1)}" height="18" fill="${i ? '#b3261e' : '#3b5bdb'}"/>`
      );
    })
    .join('');
  const title = r ? `Memory at T = ${r.T}` : 'Not run yet';
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="140" ` +
    `font-family="sans-serif"><rect width="${W}" height="140" fill="#ffffff"/>` +
    `<text x="16" y="18" font-size="14" font-weight="600">${escape(title)}</text>${bars}</svg>\n`
  );
}

/**
 * The line on the same call run on every core (the page's pool of workers; the lab's everyCore:
 * { threads, workers, ms, gflops, speedup, bitwise } or, with no workers, { threads: 0, why }).
 */
export function everyCoreText(every) {
  if (!every) return '';
  if (!every.threads) return `On every core: not here, as no worker can start (${every.why}).`;
  const used = `${every.workers} of ${every.threads} worker${every.threads === 1 ? '' : 's'}`;
  return `On every core (${used}): ${every.ms.toFixed(0)} ms (${every.gflops.toFixed(2)} GFLOP/s), ${every.speedup.toFixed(2)}× the speed of one${every.bitwise ? ', the same output bit for bit' : '; its output DIFFERS from the one-core run'}.`;
}
