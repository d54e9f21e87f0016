// Registers every attn-* element of the site: the cells (cells/register.js) and the app
// shell's own (attn-app, attn-home, attn-lesson-list, attn-toc, attn-copy-link, attn-theme-toggle,
// attn-lesson-progress, attn-progress-view, attn-download-notebook).
import '../cells/register.js';

import.meta.glob('./attn-*.js', { eager: true });
