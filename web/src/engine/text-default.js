/**
 * The text task's default corpus (#text-corpus: engine/text-corpus.js, or null in the engine's
 * worker bundle, vite.config.js) and createTrainer's options with it filled in. The page fills it
 * in before options go to a worker (worker-client.js, pool.js), so the builds carry one copy.
 * The builds that inline everything take text-default-gzip.js instead (vite.config.js): the same
 * names, the corpus gzipped.
 */
import { DEFAULT_TEXT } from '#text-corpus';

export { DEFAULT_TEXT };

/** `options` with text: DEFAULT_TEXT for the text task without a text (`options` itself otherwise). */
export function withDefaultText(options) {
  if (options?.task !== 'text' || options.text !== undefined || DEFAULT_TEXT === null) return options;
  return { ...options, text: DEFAULT_TEXT };
}

/** Resolves once DEFAULT_TEXT holds the corpus (loadAttention waits for it): here it always does. */
export async function loadDefaultText() {}
