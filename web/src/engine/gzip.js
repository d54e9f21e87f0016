/**
 * Inflating gzip data (base64 text: base64.js). No DOM; used for the wasm
 * inlined in the single file and the widgets (the scalar build gzipped) and
 * for the single file's lesson HTML (shell/lessons.js).
 *
 * Inflating is synchronous (fflate), so an inlined engine loads at once
 * (engine/builds-web.js); DecompressionStream's promise hops each waited
 * behind the rest of the page's start-up.
 */
import { gunzipSync } from 'fflate';

/** Inflates gzip data. Throws if it is not gzip or is damaged. */
export function gunzip(bytes) {
  return gunzipSync(bytes);
}

/** Inflates gzip data (magic bytes 1f 8b); other bytes pass through. Throws if the gzip data is damaged. */
export function gunzipIfNeeded(bytes) {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  return gunzip(bytes);
}
