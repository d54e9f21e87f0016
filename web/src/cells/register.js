// Registers every cell element: the generic cells (base classes define none; figures,
// controls, notebook cells) and every lesson's labs. Each attn-*.js file under cells/ and
// labs/ defines one element; adding a cell is adding a file. The app shell's elements
// (shell/register.js) are not cells: only the site and the single file need them. The
// embeddable widgets (src/embed.js) register these. Old tag names are defined last, as the labs
// they name (tag-aliases.js, the one table of them).
import { defineTagAliases } from './tag-aliases.js';

import.meta.glob(['./*/attn-*.js', '../labs/*/attn-*.js'], { eager: true });
defineTagAliases();
