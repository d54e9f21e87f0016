/** Bytes of base64 text. No DOM, no dependency (the npm package's engine imports it). */

/** The bytes of base64 text. @param {string} text @returns {Uint8Array} */
export function fromBase64(text) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
