/**
 * Bytes for inlined data: base64 text and gzip (DecompressionStream). No DOM;
 * used for the wasm inlined in the single file and the widgets (the scalar
 * build gzipped), and base64 also for the single file's lesson HTML.
 */

/** Inflates gzip data (magic bytes 1f 8b) with the platform's DecompressionStream; other bytes pass through. */
export async function gunzipIfNeeded(bytes) {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  if (typeof DecompressionStream !== 'function') {
    throw new Error('this browser has no DecompressionStream to unpack inlined data; use the site instead');
  }
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The bytes of base64 text. @param {string} text @returns {Uint8Array} */
export function fromBase64(text) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
