// App entry: inside an LMS, its SCORM session first (shell/scorm-launch.js: progress must come
// from the LMS before any element draws); KaTeX's stylesheet (the lessons' maths is rendered at build time),
// every attn-* element, then the shell (theme, skip link); <attn-app> in
// index.html routes and renders the lessons.
import './shell/scorm-launch.js';
import 'katex/dist/katex.min.css';
import './shell/register.js';
import { startApp } from './shell/start.js';
import { getEngine } from './runtime.js';

// Start fetching and compiling the wasm now, in parallel with the first render;
// cells report a failure themselves, when they ask for the engine.
getEngine().catch(() => {});
startApp();
