/**
 * asciiHtml(html): the same document written in ASCII only. Chromium decodes a
 * document with any non-ASCII byte through its slow UTF-8 path and keeps every
 * inline script and style as two-byte text; the single file (dist/attnbook.html,
 * about 1 MB) decodes and compiles measurably faster as pure ASCII.
 *
 * Each non-ASCII character becomes the escape of its context, so the page is
 * unchanged: inside <script> a JavaScript escape (\uXXXX, or \u{X…} beyond
 * the BMP; valid in strings, templates, regular expressions and comments),
 * inside <style> a CSS escape (\XXXX followed by a space), elsewhere an HTML
 * character reference (&#xXXXX;). The build has no String.raw over non-ASCII
 * text, where an escape would read differently.
 */
const escapeFor = {
  script: (code) => (code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`),
  style: (code) => `\\${code.toString(16)} `,
  html: (code) => `&#x${code.toString(16)};`,
};

function escapeText(text, kind) {
  return text.replace(/[^\0-\x7f]/gu, (ch) => escapeFor[kind](ch.codePointAt(0)));
}

/** @param {string} html @returns {string} */
export function asciiHtml(html) {
  let out = '';
  let at = 0;
  // Raw-text elements: their content ends at the first closing tag of the same name.
  const open = /<(script|style)\b[^>]*>/gi;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const start = m.index + m[0].length;
    const closing = new RegExp(`</${m[1]}`, 'gi');
    closing.lastIndex = start;
    const end = closing.exec(html)?.index ?? html.length;
    out += escapeText(html.slice(at, start), 'html') + escapeText(html.slice(start, end), m[1].toLowerCase());
    at = end;
    open.lastIndex = end;
  }
  return out + escapeText(html.slice(at), 'html');
}
