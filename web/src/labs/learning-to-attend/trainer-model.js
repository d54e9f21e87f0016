/**
 * The trainer lab's model (lesson learning-to-attend): the settings a learner may choose and their
 * limits, the tasks' tokens as text, the fixed probe sequences, reading and checking a learner's own
 * input, the curves and the text alternative. The heads (attention rows, checks) are in
 * trainer-heads-model.js, what a configuration costs in trainer-cost-model.js, the PyTorch cell in
 * trainer-torch-model.js. No DOM and no maths of its own: training, prediction and attention are
 * the engine's. Unit-tested in Node (tests/js/labs-learning-to-attend.test.js).
 */

/** The tasks this lab trains (the engine's ids), in the order of the menu. */
export const TASKS = ['reverse', 'sort', 'lookup'];
export const TASK_TITLES = { reverse: 'Reverse six digits', sort: 'Sort six digits', lookup: 'Look up a key' };

/** The choices of each setting: layers × heads stays at most 8 heads. */
export const LAYERS = { min: 1, max: 2 };
export const HEADS = ['1', '2', '4'];
export const WIDTHS = ['16', '32', '64'];
export const RATES = ['0.001', '0.003', '0.01', '0.03'];
export const SEEDS = { min: 0, max: 999 };
/** The most steps a permalink or the Train button goes to. */
export const MAX_STEPS = 5000;

/** The engine's task layouts (core/include/attn/train/tasks.hpp), as the lab needs them. */
export const LAYOUTS = {
  reverse: { vocab: 11, inputLength: 7, answerLength: 6, mlp: false, layers: 1, separator: 10 },
  sort: { vocab: 11, inputLength: 7, answerLength: 6, mlp: true, layers: 1, separator: 10 },
  lookup: { vocab: 19, inputLength: 10, answerLength: 1, mlp: false, layers: 2, separator: 18 },
};

/** About how many steps the default model of each task takes to reach 97 % (tasks.hpp's table). */
export const STEPS_TO_97 = { reverse: 'fewer than 100', sort: '100 to 200', lookup: '300 to 500' };

/** Attention positions: the input and every answer token but the last. */
export const seqLen = (task) => LAYOUTS[task].inputLength + LAYOUTS[task].answerLength - 1;

/** A token of `task` as text: digits, '=', keys a–h, values 0–9, '?'. */
export function tokenText(task, id) {
  if (task === 'lookup') {
    if (id < 8) return 'abcdefgh'[id];
    if (id < 18) return String(id - 8);
    return '?';
  }
  return id === 10 ? '=' : String(id);
}

/** The sequence a head attends over: input ++ answer[0 .. A − 2]. */
export const attendedTokens = (task, input, answer) => [...input, ...answer.slice(0, LAYOUTS[task].answerLength - 1)];

/** Labels of the attended positions, "position:token". */
export const positionLabels = (task, input, answer) =>
  attendedTokens(task, input, answer).map((id, i) => `${i}:${tokenText(task, id)}`);

/** The fixed probe inputs whose attention the heatmaps show while the model trains. */
export const PROBES = {
  reverse: [3, 1, 4, 1, 5, 9, 10],
  sort: [5, 2, 8, 2, 7, 1, 10],
  // a→3, c→7, f→1, h→5, '?', c: the answer is 7
  lookup: [0, 11, 2, 15, 5, 9, 7, 13, 18, 2],
};

/** The right answer to an input of `task` (token ids), or null if the input is not one of the task's. */
export function expectedAnswer(task, input) {
  if (task === 'reverse') return input.slice(0, 6).reverse();
  if (task === 'sort') return input.slice(0, 6).sort((a, b) => a - b);
  const query = input[9];
  for (let i = 0; i < 8; i += 2) if (input[i] === query) return [input[i + 1]];
  return null;
}

/** An input as the learner types it: "314159" for reverse and sort, "a3 c7 f1 h5 ? c" for lookup. */
export function inputText(task, input) {
  if (task !== 'lookup') return input.slice(0, 6).join('');
  const pairs = [0, 2, 4, 6].map((i) => tokenText(task, input[i]) + tokenText(task, input[i + 1]));
  return `${pairs.join(' ')} ? ${tokenText(task, input[9])}`;
}

/**
 * A learner's text as an input of `task`: { input } (token ids, the separator included) or
 * { error } in plain words. Spaces and commas are ignored.
 */
export function parseInput(task, text) {
  const chars = String(text).toLowerCase().replace(/[\s,]/g, '').replace(/=$/, '');
  if (task !== 'lookup') {
    if (!/^\d*$/.test(chars)) return { error: 'Type digits 0 to 9 only, six of them.' };
    if (chars.length !== 6) return { error: `Type six digits; that is ${chars.length}.` };
    return { input: [...chars].map(Number).concat(10) };
  }
  const m = chars.match(/^([a-h]\d)([a-h]\d)([a-h]\d)([a-h]\d)\?([a-h])$/);
  if (!m)
    return { error: 'Type four pairs of a key (a to h) and a digit, then ? and one of the keys: a3 c7 f1 h5 ? c' };
  const keys = m.slice(1, 5).map((p) => p.charCodeAt(0) - 97);
  if (new Set(keys).size !== 4) return { error: 'The four keys must be different.' };
  const query = m[5].charCodeAt(0) - 97;
  if (!keys.includes(query)) return { error: `The key after ? must be one of the four: ${m[5]} is not.` };
  const input = [];
  m.slice(1, 5).forEach((p, i) => input.push(keys[i], 8 + Number(p[1])));
  return { input: [...input, 18, query] };
}

/** The model's answer against the right one, token by token: [{ text, right, ok }]. */
export function judgeAnswer(task, input, output) {
  const expected = expectedAnswer(task, input) ?? [];
  return output.map((id, i) => ({
    text: tokenText(task, id),
    right: expected[i] === undefined ? '?' : tokenText(task, expected[i]),
    ok: expected[i] === id,
  }));
}

/** The resolved trainer options for the lab's settings (the rest are the task's defaults). */
export function trainerOptions({ task, layers, heads, dModel, learningRate, seed }) {
  return {
    task,
    seed,
    layers,
    heads: Number(heads),
    dModel: Number(dModel),
    learningRate: Number(learningRate),
  };
}

/** The lab's settings for a trainer config, or null (with why) if the lab cannot show it. */
export function settingsOf(config) {
  const t = LAYOUTS[config.task];
  const why = !t
    ? `the task ${config.task} is not one this lab trains`
    : config.layers < LAYERS.min || config.layers > LAYERS.max
      ? `it has ${config.layers} layers; the lab sets 1 or 2`
      : !HEADS.includes(String(config.heads))
        ? `it has ${config.heads} heads per layer; the lab sets 1, 2 or 4`
        : !WIDTHS.includes(String(config.dModel))
          ? `its width is ${config.dModel}; the lab sets 16, 32 or 64`
          : !RATES.includes(String(config.learningRate))
            ? `its learning rate is ${config.learningRate}; the lab sets ${RATES.join(', ')}`
            : config.seed < SEEDS.min || config.seed > SEEDS.max
              ? `its seed is ${config.seed}; the lab sets 0 to 999`
              : config.mlp !== t.mlp || config.layerNorm || config.batchSize !== 32 || config.weightDecay !== 0
                ? 'it was made with options (MLP, LayerNorm, batch, weight decay) this lab keeps at the task defaults'
                : '';
  if (why) return { error: `This state cannot be shown here: ${why}.` };
  return {
    settings: {
      task: config.task,
      layers: config.layers,
      heads: String(config.heads),
      dModel: String(config.dModel),
      learningRate: String(config.learningRate),
      seed: config.seed,
    },
  };
}

/**
 * A saved model file's text, checked: { state, settings } (settings as the lab names them), or an
 * Error saying what is wrong with it.
 */
export function readSavedModel(text) {
  let state;
  try {
    state = JSON.parse(text);
  } catch {
    return new Error('it is not JSON');
  }
  if (state?.format !== 'attnbook-trainer')
    return new Error('it is not a model saved by this lab (attnbook-trainer JSON)');
  if (!Number.isInteger(state.step) || state.step < 0 || state.step > MAX_STEPS)
    return new Error(`its step must be a whole number from 0 to ${MAX_STEPS}`);
  const { settings, error } = settingsOf(state.config ?? {});
  return error ? new Error(error) : { state, settings };
}

/** The lab's permalink state (AttnCell stateFields). */
export const TRAINER_FIELDS = {
  task: { type: 'enum', default: 'reverse', values: TASKS },
  layers: { type: 'integer', default: 1, min: LAYERS.min, max: LAYERS.max },
  heads: { type: 'enum', default: '2', values: HEADS },
  width: { type: 'enum', default: '32', values: WIDTHS },
  rate: { type: 'enum', default: '0.01', values: RATES },
  seed: { type: 'integer', default: 1, min: SEEDS.min, max: SEEDS.max },
  steps: { type: 'integer', default: 0, min: 0, max: MAX_STEPS },
};

/** The x range of the curves: at least 100 steps, doubling as training goes on. */
export function curveDomain(step) {
  let max = 100;
  while (max < step) max *= 2;
  return [0, max];
}

/**
 * How training paces itself: 'watch' takes blocks of 5 steps and at least PACE_MS per block, so a
 * learner can follow the maps (about 60 steps a second); 'fast' takes blocks of 25 steps, one per frame.
 */
export const PACES = { watch: { block: 5, minMs: 80 }, fast: { block: 25, minMs: 0 } };

/** The curves as line-chart series: loss and accuracy against the step (points without one left out). */
export const curveSeries = (history) => ({
  loss: [history.filter((h) => Number.isFinite(h.loss)).map((h) => [h.step, h.loss])],
  accuracy: [history.filter((h) => Number.isFinite(h.accuracy)).map((h) => [h.step, h.accuracy])],
});

export const percent = (x) => `${(100 * x).toFixed(1)} %`;

/** The heads as { layer, head, key, name }, layer-major. */
export const headList = (layers, heads) =>
  Array.from({ length: layers * Number(heads) }, (_, i) => {
    const layer = Math.floor(i / Number(heads));
    const head = i % Number(heads);
    return { layer, head, key: `${layer}.${head}`, name: `layer ${layer}, head ${head}` };
  });

/** The text alternative of the lab. */
export function describeTrainer({ settings, step, loss, accuracy, probe }) {
  const parts = [
    `${TASK_TITLES[settings.task]}: a model of ${settings.layers} layer${settings.layers > 1 ? 's' : ''} with ${settings.heads} head${settings.heads === '1' ? '' : 's'} each, width ${settings.dModel}, learning rate ${settings.learningRate}, seed ${settings.seed}, after ${step} steps`,
  ];
  if (Number.isFinite(loss)) parts.push(`loss ${loss.toFixed(3)}`);
  if (Number.isFinite(accuracy)) parts.push(`accuracy ${percent(accuracy)}`);
  if (probe) {
    const answer = judgeAnswer(settings.task, probe.input, probe.output);
    parts.push(
      `its answer to ${inputText(settings.task, probe.input)} is ${answer.map((a) => a.text).join(' ')} (${answer.every((a) => a.ok) ? 'right' : 'wrong'})`,
    );
  }
  return `${parts.join('; ')}.`;
}

/**
 * Before the first measurement: the probe's maps, empty, so that every head's figure is on the
 * page from the start (a reader scrolling past draws it; the weights arrive a moment later).
 * `settings`: the lab's (task, layers, heads).
 */
export function placeholderResult({ task, layers, heads }) {
  const T = seqLen(task);
  const input = PROBES[task];
  const output = expectedAnswer(task, input).map(() => input[0]);
  return {
    task,
    off: [],
    waiting: true,
    probe: {
      input,
      output,
      attention: { shape: [layers, Number(heads), T, T], data: new Float32Array(layers * Number(heads) * T * T) },
    },
  };
}
