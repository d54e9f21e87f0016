/**
 * `import 'attnbook/widgets'` registers every attn-* element (the bundle of web/src/embed.js,
 * dist/embed/attn-widgets.js) and exports nothing. In Node it registers nothing.
 */
export {};
