// The embedding example page (embed-example.html): the colour theme, and the iframe sized from the
// lesson's { type: 'attnbook:height', height } messages (web/src/shell/embed.js posts them). The
// script-tag figure on the page needs nothing from here: attn-widgets.js registers the elements.
import { applyTheme, storedTheme } from './shell/theme.js';

const MAX_HEIGHT = 20000; // CSS px; a bound, whatever a frame says

applyTheme(storedTheme());

const frame = document.getElementById('lesson-frame');

addEventListener('message', (event) => {
  if (!frame || event.source !== frame.contentWindow) return; // only our iframe
  const { data } = event;
  if (data === null || typeof data !== 'object' || data.type !== 'attnbook:height') return;
  const { height } = data;
  if (typeof height !== 'number' || !Number.isFinite(height) || height <= 0) return;
  frame.style.height = `${Math.min(Math.ceil(height), MAX_HEIGHT)}px`;
});
