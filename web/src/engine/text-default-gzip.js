/**
 * text-default.js as the builds that inline everything take it (dist/attnbook.html and the
 * widgets; vite.config.js points ./text-default.js here): the corpus gzipped, as base64 (32 KB
 * for its 77 KB), from the virtual module vite.config.js makes of engine/text-corpus.js.
 *
 * DEFAULT_TEXT is null until the corpus is inflated. loadAttention waits for loadDefaultText()
 * (DecompressionStream, off the main thread, beside the wasm's compilation), so after it
 * DEFAULT_TEXT is the same string as text-corpus.js's. withDefaultText never waits: before that it
 * inflates the corpus at once (fflate, engine/gzip.js), as a page whose only engine is a worker's
 * (worker-client.js) needs.
 */
import corpusGzip from 'virtual:attnbook-text-corpus-gzip';
import { fromBase64 } from './base64.js';
import { gunzip } from './gzip.js';

/** The text task's default corpus, once inflated (null before). */
export let DEFAULT_TEXT = null;
let loading = null;

/** The corpus, inflated now if it is not yet. */
const inflateNow = () => (DEFAULT_TEXT ??= new TextDecoder().decode(gunzip(fromBase64(corpusGzip))));

/** The corpus inflated by DecompressionStream; rejects where there is none. */
async function inflateStream() {
  const stream = new Blob([fromBase64(corpusGzip)]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}

/** Resolves once DEFAULT_TEXT holds the corpus: inflated by DecompressionStream, else at once. */
export function loadDefaultText() {
  loading ??= inflateStream().then(
    (text) => {
      DEFAULT_TEXT ??= text;
    },
    () => {
      inflateNow();
    },
  );
  return loading;
}

/** `options` with text: DEFAULT_TEXT for the text task without a text (`options` itself otherwise). */
export function withDefaultText(options) {
  if (options?.task !== 'text' || options.text !== undefined) return options;
  return { ...options, text: inflateNow() };
}
