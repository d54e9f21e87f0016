// What the engine's worker bundle takes for the text task's default corpus (vite.config.js,
// #text-corpus): none. The page fills it into createTrainer's options before they reach the worker
// (worker-client.js, pool.js), so a worker never needs it and the builds carry one copy.
export const DEFAULT_TEXT = null;
