// Entry of the embeddable widgets (vite build --mode embed -> dist/embed/attn-widgets.js):
// one classic script, wasm inlined, that registers every attn-* cell element (cells/register.js:
// not the app shell), so any page can show a
// figure with
//   <script src="attn-widgets.js"></script>
//   <attn-softmax-temperature logits="1.2,4.5,2,0.8" temperature="1"></attn-softmax-temperature>
// The elements style themselves (shadow DOM, with fallbacks for the site's CSS variables); no
// KaTeX stylesheet is needed, as figures render no maths.
//
// A page that loads the script twice (two blocks of a course page, say) keeps the first copy's
// elements: defining them again would throw. The import is inlined into the one file, and runs
// only when called (each module of the bundle is evaluated on first use).
// The npm package exports this bundle as 'attnbook/widgets': imported in Node (a course site's
// server-side rendering) there is no DOM, and it registers nothing.
if (globalThis.customElements && !customElements.get('attn-softmax-temperature')) import('./cells/register.js');
