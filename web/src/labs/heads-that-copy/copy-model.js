/**
 * The model of lesson heads-that-copy's labs: the copying lab's state fields and limits, the
 * committed model unpacked, its heads and their roles (previous-token, induction), the curves
 * and the steps at which each head's score crosses its line, the time still to go, one head's
 * attention row for the reader, and the text alternatives. No DOM and no maths of its own: the
 * training, the probe, the prediction and the circuits are the engine's (engine/trainer.js).
 * Unit-tested in Node (tests/js/labs-heads-that-copy.test.js).
 */
import { FieldError } from '../../cells/base/state-fields.js';
import { fromBase64 } from '../../engine/base64.js';
import { gunzip } from '../../engine/gzip.js';

/** The model every lab here shows: the text task's defaults (core/src/train/tasks.cpp). */
export const LAYERS = 2;
export const HEADS = 2;
export const SEQ_LEN = 64;

/** The most steps the lab trains for or a permalink names. */
export const MAX_STEPS = 4000;

/** Steps a block of training: measured (the probe) and drawn after each. */
export const BLOCK = 50;

/**
 * The step from which every other repeated window repeats prose instead of random letters (core:
 * attn/train/text.hpp kProseRepeatsFrom), and the step Train from scratch goes to: a thousand
 * steps on, as the committed model (npm run train:text).
 */
export const PROSE_REPEATS_FROM = 1500;
export const RUN_TO = 2500;

/** The copying probe's lines (core: attn/train/text.hpp kPreviousTokenHead, kInductionHead). */
export const PREVIOUS_TOKEN_LINE = 0.3;
export const INDUCTION_LINE = 0.4;
export const COPYING_LINE = 0.8;

/** Where seeds 1–5 began to copy in context (issue 38's measurement, bench/README.md). */
export const COPY_STEPS = { min: 900, max: 1500 };

/** A learner's own training text: at most this many bytes of UTF-8 (a permalink carries it). */
export const TEXT_LIMIT = 16384;

const utf8Bytes = (text) => new TextEncoder().encode(text).length;

/** The training text field: '' is the course's prose; any other text is the learner's own. */
export const textField = {
  type: 'text',
  default: '',
  parse(text, field) {
    const value = String(text);
    const bytes = utf8Bytes(value);
    if (bytes > TEXT_LIMIT)
      throw new FieldError(field, `is ${bytes.toLocaleString('en')} bytes; at most ${TEXT_LIMIT.toLocaleString('en')}`);
    return value;
  },
  format: (value) => value,
};

/** The copying lab's permalink state (AttnCell stateFields). */
export const COPY_FIELDS = {
  seed: { type: 'integer', default: 1, min: 1, max: 999 },
  steps: { type: 'integer', default: 2500, min: 0, max: MAX_STEPS },
  text: textField,
};

/** What is wrong with a learner's training text before it reaches the engine, or ''. */
export function textProblem(text) {
  const bytes = utf8Bytes(text);
  if (bytes > TEXT_LIMIT)
    return `your text is ${bytes.toLocaleString('en')} bytes; the lab takes at most ${TEXT_LIMIT.toLocaleString('en')} (16 KB)`;
  if (text.trim() === '') return 'your text is empty';
  if (new Set(text).size < 2) return 'your text needs at least two different characters';
  return '';
}

/** The engine's options for the lab's settings (the text task's defaults otherwise). */
export const trainerOptions = ({ seed, text }) => ({ task: 'text', seed, ...(text ? { text } : {}) });

/** Float32 bytes regrouped by scripts/vite-trained-plugin.mjs byteShuffle, put back in order. */
export function unshuffle(bytes) {
  const n = bytes.length / 4;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < n; i++) for (let k = 0; k < 4; k++) out[i * 4 + k] = bytes[k * n + i];
  return out;
}

/** Whether the settings name the committed model (seed and step of `packed`, the default text). */
export const isCommitted = (settings, packed) =>
  settings.text === '' && settings.seed === packed.config.seed && settings.steps === packed.step;

/**
 * The committed model as loadTrainer takes it: the packed state (scripts/vite-trained-plugin.mjs)
 * with its float32 weights as numbers, the default text put back, and AdamW's moments at zero
 * (left out of the page; the lab never continues this model's training).
 */
export function stateFromPacked(packed, defaultText) {
  const weights = Array.from(new Float32Array(unshuffle(gunzip(fromBase64(packed.weights))).buffer));
  const zeros = weights.map(() => 0);
  const config = packed.config.text === undefined ? { ...packed.config, text: defaultText } : packed.config;
  return { ...packed, config, weights, m: zeros, v: [...zeros] };
}

/** Every head, layer-major as the probe lists them: { layer, head, key: "layer.head", name }. */
export const HEAD_LIST = Array.from({ length: LAYERS * HEADS }, (_, i) => {
  const layer = Math.floor(i / HEADS);
  const head = i % HEADS;
  return { layer, head, key: `${layer}.${head}`, name: `layer ${layer}, head ${head}` };
});

/**
 * Each head's role in a probe's result: 'previous-token' (first layer, score ≥ 0.3), 'induction'
 * (later layer, prefix-matching ≥ 0.4) or '' (neither).
 */
export function headRoles(probe) {
  return HEAD_LIST.map(({ layer }, i) => {
    if (layer === 0) return probe.previousToken[i] >= PREVIOUS_TOKEN_LINE ? 'previous-token' : '';
    return probe.prefixMatching[i] >= INDUCTION_LINE ? 'induction' : '';
  });
}

/** The head of `layer` with the highest score `name` ('previousToken' or 'prefixMatching'). */
export function strongestHead(probe, layer, name) {
  const candidates = HEAD_LIST.map((h, i) => ({ ...h, score: probe[name][i] })).filter((h) => h.layer === layer);
  return candidates.reduce((best, h) => (h.score > best.score ? h : best));
}

/**
 * The curves of `history` ([{ step, loss, probe? }]): loss in bits per character at every point,
 * and at the probed points the second copy's accuracy and each head's two scores.
 */
export function curveSeries(history) {
  const probed = history.filter((h) => h.probe);
  return {
    loss: history.map((h) => [h.step, h.loss]),
    copy: [
      probed.map((h) => [h.step, h.probe.secondCopyAccuracy]),
      probed.map((h) => [h.step, h.probe.firstCopyAccuracy]),
    ],
    prefix: HEAD_LIST.filter((h) => h.layer > 0).map((h) =>
      probed.map((p) => [p.step, p.probe.prefixMatching[HEAD_LIST.indexOf(h)]]),
    ),
    previous: HEAD_LIST.filter((h) => h.layer === 0).map((h) =>
      probed.map((p) => [p.step, p.probe.previousToken[HEAD_LIST.indexOf(h)]]),
    ),
  };
}

/**
 * One block of a training history as the committed curves keep it (trained-text-history.json,
 * written by npm run train:text): [step, loss, first copy, second copy, [previous-token scores],
 * [prefix-matching scores], copies in context (1 or 0)], numbers to 4 decimals (the lab draws 2).
 */
export function historyRow({ step, loss, probe: p }) {
  const r = (x) => Number(x.toFixed(4));
  return [
    step,
    r(loss),
    r(p.firstCopyAccuracy),
    r(p.secondCopyAccuracy),
    p.previousToken.map(r),
    p.prefixMatching.map(r),
    p.copiesInContext ? 1 : 0,
  ];
}

/** The history ([{ step, loss, probe }]) of rows written by historyRow. */
export const historyFromRows = (rows) =>
  rows.map(([step, loss, first, second, previousToken, prefixMatching, copies]) => ({
    step,
    loss,
    probe: {
      firstCopyAccuracy: first,
      secondCopyAccuracy: second,
      previousToken,
      prefixMatching,
      copiesInContext: copies === 1,
    },
  }));

/** The x range of the curves: the run's 2,500 steps, or as far as training has gone beyond. */
export function curveDomain(step) {
  return [0, step > RUN_TO ? MAX_STEPS : RUN_TO];
}

/**
 * The first probed step at which each later-layer head's prefix-matching score reached the
 * induction line, and the first at which the model copied in context: { heads: [{ key, name,
 * step }], copied: step | null }. Heads that never crossed are left out.
 */
export function crossings(history) {
  const heads = HEAD_LIST.flatMap((h, i) => {
    if (h.layer === 0) return [];
    const first = history.find((p) => p.probe && p.probe.prefixMatching[i] >= INDUCTION_LINE);
    return first ? [{ key: h.key, name: h.name, step: first.step }] : [];
  });
  const copied = history.find((p) => p.probe?.copiesInContext)?.step ?? null;
  return { heads, copied };
}

/**
 * The line under a run: until it copies, about how long to go at this machine's measured pace
 * (`stepsPerSecond`, or null before a block was timed), honest about the spread between seeds;
 * then since when it copies and how long to the end of the run (`until`).
 */
export function timeToGo({ at, stepsPerSecond, copied, until = RUN_TO }) {
  const pace = stepsPerSecond ? `${Math.round(stepsPerSecond)} steps a second here` : '';
  const seconds = (steps) => Math.max(0, Math.round((steps - at) / stepsPerSecond));
  if (copied !== null) {
    const end =
      at < until && stepsPerSecond
        ? `; about ${seconds(until)} s to step ${until.toLocaleString('en')} at ${pace}`
        : '';
    return `Copies in context since step ${copied.toLocaleString('en')}${end}.`;
  }
  const spread = `Seeds 1–5 began to copy after ${COPY_STEPS.min}–${COPY_STEPS.max.toLocaleString('en')} steps`;
  if (!stepsPerSecond) return `${spread}.`;
  if (at >= COPY_STEPS.max)
    return `Not copying yet at step ${at.toLocaleString('en')}: this seed takes longer than seeds 1–5 did (${pace}).`;
  const [soon, late] = [seconds(COPY_STEPS.min), seconds(COPY_STEPS.max)];
  return `${spread}: about ${soon === late ? late : `${soon}–${late}`} s more at ${pace}.`;
}

/** A share as a whole percentage ("83 %"). */
export const percent = (x) => `${Math.round(x * 100)} %`;

/**
 * One head's weights from predict's attention (layers, heads, T, T) for the query position
 * `query`: T numbers, zero after the query (causal).
 */
export function attentionRow(attention, layer, head, query) {
  const [, heads, T] = attention.shape;
  const start = ((layer * heads + head) * T + query) * T;
  return Array.from(attention.data.subarray(start, start + T));
}

/** The position a row puts most weight on. */
export const mostWeight = (row) => row.reduce((best, w, i) => (w > row[best] ? i : best), 0);

/**
 * The reader's input checked: { text } of 1..SEQ_LEN characters, or { error }. Characters outside
 * the alphabet are allowed (the engine reads them as "unknown"): `unknown` lists them.
 */
export function readerInput(text, alphabet) {
  const chars = [...text];
  if (chars.length === 0) return { error: 'type at least one character' };
  if (chars.length > SEQ_LEN)
    return { error: `the model reads at most ${SEQ_LEN} characters; this is ${chars.length}` };
  const unknown = [...new Set(chars.filter((c) => !alphabet.includes(c)))];
  return { text, unknown };
}

/** A character as the reader shows it (a space as ␣). */
export const shown = (c) => (c === ' ' ? '␣' : c);

/** The copying lab's text alternative. */
export function describeCopier({ settings, at, loss, probe, copied }) {
  const text = settings.text ? 'the learner’s own text' : 'the course’s prose';
  const head = `A two-layer attention-only transformer, seed ${settings.seed}, trained on ${text} to step ${at}`;
  if (!probe) return `${head}.`;
  const scores = HEAD_LIST.map(
    (h, i) =>
      `${h.name}: previous-token ${probe.previousToken[i].toFixed(2)}, prefix-matching ${probe.prefixMatching[i].toFixed(2)}`,
  ).join('; ');
  return `${head}; loss ${Number.isFinite(loss) ? loss.toFixed(2) : 'not measured'} bits per character. On 64 random strings of 20 letters written twice it predicts the second copy ${percent(
    probe.secondCopyAccuracy,
  )} right and the first ${percent(probe.firstCopyAccuracy)}. ${scores}. ${
    copied === null ? 'It does not copy in context yet.' : `It copies in context (from step ${copied}).`
  }`;
}
