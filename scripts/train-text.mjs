// npm run train:text: trains the text task's default model, the one lesson 13 ("heads that copy")
// opens on, and writes its exported state (web/README.md, "The state") to TRAINED_TEXT_FILE and
// the curves of its training to TRAINED_HISTORY_FILE, which the lesson's lab draws.
//
// The run (TRAIN_TEXT) is the lab's Train from scratch (labs/heads-that-copy): createTrainer({
// task: 'text', seed: 1 }) with every default, on the wasm SIMD build in Node; blocks of 50 steps,
// each followed by the copying probe, to step 2,500: a thousand steps after the data begins to
// repeat prose too (core: attn/train/text.hpp, kProseRepeatsFrom), so that the model copies names
// and phrases as well as strings of letters. It must have copied in context
// (copyingProbe().copiesInContext) by then. The history holds, after each block, the
// step, the last batch's loss (bits per character) and the probe. WebAssembly computes the same
// bits on every machine, so both files are reproduced bit for bit anywhere;
// tests/js/train-text.test.js runs trainText() and compares.
//
//   npm run train:text            builds the wasm if needed, trains (about 30 s) and writes the file
//   npm run train:text -- --check exits 1 when the committed file differs from a fresh run
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyRow } from '../web/src/labs/heads-that-copy/copy-model.js';
import { root } from './lib.mjs';

const LAB = path.join(root, 'web', 'src', 'labs', 'heads-that-copy');
export const TRAINED_TEXT_FILE = path.join(LAB, 'trained-text.json');
export const TRAINED_HISTORY_FILE = path.join(LAB, 'trained-text-history.json');

/** The run: seed, the probe every `every` steps (the lab's BLOCK), to `steps` (the lab's RUN_TO). */
export const TRAIN_TEXT = { seed: 1, every: 50, steps: 2500 };

/**
 * Trains as above on `attn` (loadAttention({ simd: true })); `onProgress({ step, loss, probe })`
 * after each probe. Returns { state, history, copiedAt }: the exported state, the history
 * ([{ step, loss, probe }] after each block) and the step at which the probe was first met.
 * Throws when it is not met by the end.
 */
export function trainText(attn, onProgress = () => {}) {
  const { seed, every, steps } = TRAIN_TEXT;
  const trainer = attn.createTrainer({ task: 'text', seed });
  try {
    let copiedAt = null;
    const history = [];
    for (let at = 0; at < steps;) {
      const { step, loss } = trainer.step(every);
      at = step;
      const probe = trainer.copyingProbe();
      history.push({ step, loss, probe });
      onProgress({ step, loss, probe });
      if (copiedAt === null && probe.copiesInContext) copiedAt = step;
    }
    if (copiedAt === null) throw new Error(`train:text: the model does not copy in context by step ${steps}`);
    return { state: trainer.exportState(), history, copiedAt };
  } finally {
    trainer.dispose();
  }
}

/** The history file's text: one block per line, as the lab reads it (copy-model.js historyRow). */
export const historyFileText = (history) =>
  `[\n${history.map((h) => `  ${JSON.stringify(historyRow(h))}`).join(',\n')}\n]\n`;

/** The file's text: the state as JSON, one field per line (the arrays on one line each). */
export const stateFileText = (state) =>
  `{\n${Object.entries(state)
    .map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`)
    .join(',\n')}\n}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const { buildPresets } = await import('./build.mjs');
  await buildPresets(['wasm-simd']);
  const { loadAttention } = await import('attnbook');
  const attn = await loadAttention({ simd: true });
  const started = performance.now();
  const { state, history, copiedAt } = trainText(attn, ({ step, loss, probe }) =>
    console.log(
      `  step ${step}: ${loss.toFixed(3)} bits/char, second copy ${(100 * probe.secondCopyAccuracy).toFixed(0)} %` +
        `${probe.copiesInContext ? ', copies in context' : ''}`,
    ),
  );
  const files = [
    [TRAINED_TEXT_FILE, stateFileText(state)],
    [TRAINED_HISTORY_FILE, historyFileText(history)],
  ];
  console.log(
    `copies in context at step ${copiedAt}; ${state.step} steps in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (process.argv.includes('--check')) {
    let same = true;
    for (const [file, text] of files) {
      const ok = readFileSync(file, 'utf8') === text;
      console.log(`${path.relative(root, file)} ${ok ? 'is reproduced bit for bit' : 'differs from this run'}`);
      same &&= ok;
    }
    process.exit(same ? 0 : 1);
  }
  for (const [file, text] of files) {
    writeFileSync(file, text);
    console.log(`wrote ${path.relative(root, file)} (${text.length} bytes)`);
  }
}
