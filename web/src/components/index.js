// Registers every attn-* element: each web/src/components/attn-*.js file defines
// one (attn-cell.js is their base class and defines none). Adding a component
// is adding a file.
import.meta.glob('./attn-*.js', { eager: true });
