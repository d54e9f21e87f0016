// Vite plugin: `import packed from './trained-text.json?weights'` gives a trainer's exported state
// (attnbook-trainer JSON, engine/trainer.js exportState) as a page needs it to show the model:
// everything but AdamW's two moments, with the weights rounded to float32 (little-endian), their
// bytes regrouped and gzipped, as base64
// and the text left out when it is the default corpus (engine/text-corpus.js, which the page has).
// A float32 trainer keeps float64 master weights but converts them to float32 for every forward
// pass, so the rounded model predicts, attends and probes exactly as the trained one
// (tests/js/train-text.test.js checks it); only what is computed from the weights in float64 (the
// circuits) moves, by float32 rounding. The moments matter only to continue training the model,
// which the page does not do (it trains from scratch: labs/heads-that-copy/copy-session.js); the
// three arrays in float64 would be six times the bytes. copy-model.js stateFromPacked() unpacks it.
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { DEFAULT_TEXT } from '../web/src/engine/text-corpus.js';

const SUFFIX = '.json?weights';

/**
 * The bytes of float32 numbers regrouped by position in the number (every first byte, then every
 * second, …): the exponent bytes side by side, so gzip finds them alike (12 % fewer bytes than
 * the floats as they are). unshuffle in copy-model.js undoes it.
 */
export function byteShuffle(bytes) {
  const n = bytes.length / 4;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < n; i++) for (let k = 0; k < 4; k++) out[k * n + i] = bytes[i * 4 + k];
  return out;
}

/** The packed form of an exported state (plain data, as the module's default export). */
export function packState(state, file = 'state') {
  if (state?.format !== 'attnbook-trainer' || state.config?.precision !== 'float32') {
    throw new Error(`${file}: ?weights packs a float32 attnbook-trainer state`);
  }
  const weights = Float32Array.from(state.weights);
  const { text, ...config } = state.config;
  return {
    format: state.format,
    version: state.version,
    config: text === undefined || text === DEFAULT_TEXT ? config : state.config,
    step: state.step,
    data: state.data,
    lastLoss: state.lastLoss,
    headEnabled: state.headEnabled,
    weights: gzipSync(byteShuffle(new Uint8Array(weights.buffer)), { level: 9 }).toString('base64'),
  };
}

export default function trainedWeightsPlugin() {
  return {
    name: 'attnbook-trained-weights',
    enforce: 'pre',
    load: {
      filter: { id: /\.json\?weights$/ },
      async handler(id) {
        if (!id.endsWith(SUFFIX)) return null;
        const file = id.slice(0, -'?weights'.length);
        this.addWatchFile(file);
        const packed = packState(JSON.parse(await readFile(file, 'utf8')), file);
        return `export default ${JSON.stringify(packed)};\n`;
      },
    },
  };
}
