// npm run train:text: trains the text task's default model, the one lesson 13 ("heads that copy")
// opens on, and writes its exported state (web/README.md, "The state") to TRAINED_TEXT_FILE.
//
// The run (TRAIN_TEXT): createTrainer({ task: 'text', seed: 1 }) with every default, on the wasm
// SIMD build in Node; step(100) and the copying probe until the model copies in context
// (copyingProbe().copiesInContext), then `after` more steps, so the lesson's heads show their
// patterns clearly. WebAssembly computes the same bits on every machine, so the file is
// reproduced bit for bit anywhere; tests/js/train-text.test.js runs trainText() and compares.
//
//   npm run train:text            builds the wasm if needed, trains (about 30 s) and writes the file
//   npm run train:text -- --check exits 1 when the committed file differs from a fresh run
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './lib.mjs';

export const TRAINED_TEXT_FILE = path.join(root, 'web', 'src', 'labs', 'heads-that-copy', 'trained-text.json');

/** The run: seed, probe every `every` steps, `after` more steps once it copies, at most `maxSteps`. */
export const TRAIN_TEXT = { seed: 1, every: 100, after: 500, maxSteps: 4000 };

/**
 * Trains as above on `attn` (loadAttention({ simd: true })); `onProgress({ step, loss, probe })`
 * after each probe. Returns { state, copiedAt }: the exported state and the step at which the
 * probe was first met. Throws when it is not met within maxSteps.
 */
export function trainText(attn, onProgress = () => {}) {
  const { seed, every, after, maxSteps } = TRAIN_TEXT;
  const trainer = attn.createTrainer({ task: 'text', seed });
  try {
    let copiedAt = null;
    while (copiedAt === null) {
      const { step, loss } = trainer.step(every);
      const probe = trainer.copyingProbe();
      onProgress({ step, loss, probe });
      if (probe.copiesInContext) copiedAt = step;
      else if (step >= maxSteps) throw new Error(`train:text: the model does not copy in context after ${step} steps`);
    }
    trainer.step(after);
    return { state: trainer.exportState(), copiedAt };
  } finally {
    trainer.dispose();
  }
}

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
  const { state, copiedAt } = trainText(attn, ({ step, loss, probe }) =>
    console.log(
      `  step ${step}: ${loss.toFixed(3)} bits/char, second copy ${(100 * probe.secondCopyAccuracy).toFixed(0)} %` +
        `${probe.copiesInContext ? ', copies in context' : ''}`,
    ),
  );
  const text = stateFileText(state);
  console.log(
    `copies in context at step ${copiedAt}; ${state.step} steps in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const file = path.relative(root, TRAINED_TEXT_FILE);
  if (process.argv.includes('--check')) {
    const same = readFileSync(TRAINED_TEXT_FILE, 'utf8') === text;
    console.log(same ? `${file} is reproduced bit for bit` : `${file} differs from this run`);
    process.exit(same ? 0 : 1);
  }
  writeFileSync(TRAINED_TEXT_FILE, text);
  console.log(`wrote ${file} (${text.length} bytes)`);
}
