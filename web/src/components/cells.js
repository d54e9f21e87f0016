// Registers every cell element (figures, controls, notebook cells, lesson labs): each
// web/src/components/attn-*.js file but the app shell's (attn-app, attn-lesson-list,
// attn-toc, attn-copy-link, attn-theme-toggle), which only the site and the single file
// need. The embeddable widgets (src/embed.js) register these.
import.meta.glob(
  [
    './attn-*.js',
    '!./attn-app.js',
    '!./attn-lesson-list.js',
    '!./attn-toc.js',
    '!./attn-copy-link.js',
    '!./attn-theme-toggle.js',
  ],
  { eager: true },
);
