// Feedback names the misconception, never the result (docs/teaching.md): in every number exercise
// of every lesson, no likely mistake (the feedback a wrong answer gets) and no hint states a number
// the check would accept, for the authored question and for each "Try another" question (written
// <attn-variant>s, and the lesson's variants.js drawn for seeds 1-8 with the real engine). A
// number the question itself gives is not the answer handed over. Only "Show me" gives it. In
// every choice question, written or drawn, no wrong option's feedback quotes the right option.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';

const lessonsDir = new URL('../../web/lessons/', import.meta.url);
const labsDir = new URL('../../web/src/labs/', import.meta.url);
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

/** The value of attribute `name` in the start tag `tag`, or undefined. */
const attribute = (tag, name) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];

/**
 * The numbers written in `text`, as [written, value]: 2^30, 2^{30} and 10^9 are powers; 32,768 is
 * one number; − is a minus; digits inside names (x1, d_k, W_Q, α3) are not numbers.
 */
export function numbersIn(text) {
  const plain = text
    .replace(/−/g, '-')
    .replace(/(\d),(\d{3})\b/g, '$1$2')
    .replace(/(\d+)\^\{?(-?\d+)\}?/g, (_, base, power) => String(Number(base) ** Number(power)));
  return [...plain.matchAll(/(?<![\p{L}\d_.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\p{L}\d_])/gu)].map((m) => [
    m[0],
    Number(m[0]),
  ]);
}

/**
 * The numbers in `text` that state the answer: those the check would accept (within `tolerance`
 * of `answer`), unless `question` gives the same number.
 */
export function statedAnswers(text, { answer, tolerance = 0, question = '' }) {
  const accepted = (x) => Math.abs(x - answer) <= Math.max(tolerance, 1e-9);
  const given = numbersIn(question).filter(([, x]) => accepted(x));
  return numbersIn(text)
    .filter(([, x]) => accepted(x) && !given.some(([, g]) => g === x))
    .map(([written]) => written);
}

const strip = (html, tag) => html.replace(new RegExp(`<${tag}\\b[^>]*>[\\s\\S]*?</${tag}>`, 'g'), '');
const withoutSlots = (html) => html.replace(/<(\w+) slot="\w+"[^>]*>[\s\S]*?<\/\1>/g, '');

/** The texts a wrong attempt or the hint can show in `part`: [{ kind, text }]. */
const feedbackIn = (part) => [
  ...[...part.matchAll(/<attn-mistake\b[^>]*>([\s\S]*?)<\/attn-mistake>/g)].map((m) => ({
    kind: `the mistake ${attribute(m[0], 'value')}`,
    text: m[1],
  })),
  ...[...part.matchAll(/<(\w+) slot="hint"[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => ({ kind: 'the hint', text: m[2] })),
];

/** Every number question of lesson `id`'s Markdown: [{ where, answer, tolerance, question, texts }]. */
function writtenQuestions(id, source) {
  const questions = [];
  for (const [block] of source.matchAll(/<attn-exercise\b[^>]*>[\s\S]*?<\/attn-exercise>/g)) {
    const start = block.match(/^<attn-exercise\b[^>]*>/)[0];
    if (attribute(start, 'mode') !== 'number') continue;
    const exercise = attribute(start, 'id');
    const tolerance = Number(attribute(start, 'tolerance') ?? 0);
    const variants = [...block.matchAll(/<attn-variant\b[^>]*>[\s\S]*?<\/attn-variant>/g)].map((m) => m[0]);
    const authored = strip(block, 'attn-variant');
    questions.push({
      where: `${id} #${exercise}`,
      answer: Number(attribute(start, 'answer')),
      tolerance,
      question: withoutSlots(strip(authored, 'attn-mistake')),
      texts: feedbackIn(authored),
    });
    variants.forEach((v, i) => {
      const tag = v.match(/^<attn-variant\b[^>]*>/)[0];
      questions.push({
        where: `${id} #${exercise}, written variant ${i + 1}`,
        answer: Number(attribute(tag, 'answer')),
        tolerance: Number(attribute(tag, 'tolerance') ?? tolerance),
        question: withoutSlots(strip(v, 'attn-mistake')),
        texts: feedbackIn(v),
      });
    });
  }
  return questions;
}

/** Every choice question of lesson `id`'s Markdown: [{ where, options: [{ text, correct, feedback }] }]. */
function writtenChoices(id, source) {
  return [...source.matchAll(/<attn-exercise\b[^>]*mode="choice"[^>]*>[\s\S]*?<\/attn-exercise>/g)].map(([block]) => ({
    where: `${id} #${attribute(block, 'id')}`,
    options: [...block.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)].map(([, attrs, text]) => ({
      text: text.trim(),
      correct: /\sdata-correct\b/.test(attrs),
      feedback: attribute(attrs, 'data-feedback') ?? '',
    })),
  }));
}

const engine = await loadAttention();

/**
 * The same for the number questions lesson `id`'s variants.js draws, seeds 1-8; its choice
 * questions go into `choices` as { where, options }.
 */
async function drawnQuestions(id, choices = []) {
  let makers;
  try {
    makers = (await import(new URL(`${id}/variants.js`, labsDir))).default ?? {};
  } catch (error) {
    if (error.code === 'ERR_MODULE_NOT_FOUND') return [];
    throw error;
  }
  const questions = [];
  for (const [exercise, make] of Object.entries(makers)) {
    for (const seed of SEEDS) {
      const v = await make(seed, engine);
      if (v.options) {
        choices.push({ where: `${id} #${exercise}, variants.js seed ${seed}`, options: v.options });
        continue;
      }
      questions.push({
        where: `${id} #${exercise}, variants.js seed ${seed}`,
        answer: v.answer,
        tolerance: v.tolerance ?? 0,
        question: v.prompt ?? '',
        texts: [
          ...(v.mistakes ?? []).map((m) => ({ kind: `the mistake ${m.value}`, text: m.feedback })),
          ...(v.hint ? [{ kind: 'the hint', text: v.hint }] : []),
        ],
      });
    }
  }
  return questions;
}

const lessons = (await readdir(lessonsDir)).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));

test('numbersIn reads powers, grouped thousands and minus signs, and skips digits in names', () => {
  assert.deepEqual(numbersIn('$2^{30}$ weights, 10^9 bytes'), [
    ['1073741824', 2 ** 30],
    ['1000000000', 1e9],
  ]);
  assert.deepEqual(numbersIn('T = 32,768 and −0.5'), [
    ['32768', 32768],
    ['-0.5', -0.5],
  ]);
  assert.deepEqual(numbersIn('x1, d_k, W_Q, α3 and y2'), []);
});

test('statedAnswers finds a number the check would accept, unless the question gives it', () => {
  assert.deepEqual(statedAnswers('divide it by √d_k = 2', { answer: 2 }), ['2']);
  assert.deepEqual(statedAnswers('about 0.658, not 0.6', { answer: 0.6581, tolerance: 0.0005 }), ['0.658']);
  assert.deepEqual(statedAnswers('(0.2, 0.15)', { answer: 0.2169, tolerance: 0.0006 }), []);
  assert.deepEqual(statedAnswers('x1 scores 1.5 against W_Q', { answer: 1.5 }), ['1.5']);
  assert.deepEqual(statedAnswers('(1 + 2) + (2 + 1) = 6', { answer: 2, question: 'q = (1, 2, 0, -1)' }), []);
  assert.deepEqual(statedAnswers('−0.5 is α0', { answer: -0.5 }), ['-0.5']);
});

for (const id of lessons) {
  test(`${id}: no likely mistake or hint of a number exercise states its answer`, async () => {
    const source = await readFile(new URL(`${id}.md`, lessonsDir), 'utf8');
    const choices = writtenChoices(id, source);
    const questions = [...writtenQuestions(id, source), ...(await drawnQuestions(id, choices))];
    // a choice question, written or drawn: no wrong option's feedback quotes the right option
    for (const { where, options } of choices) {
      const right = options.find((o) => o.correct === true);
      assert.equal(options.filter((o) => o.correct === true).length, 1, `${where}: one right option`);
      for (const o of options.filter((x) => x !== right)) {
        assert.ok(!o.feedback.includes(right.text), `${where}: the feedback of "${o.text}" quotes the right option`);
      }
    }
    const found = [];
    for (const { where, answer, tolerance, question, texts } of questions) {
      assert.ok(Number.isFinite(answer), `${where}: an answer`);
      for (const { kind, text } of texts) {
        const stated = statedAnswers(text, { answer, tolerance, question });
        if (stated.length) found.push(`${where}: ${kind} states the answer ${answer} (${stated}): ${text.trim()}`);
      }
    }
    assert.deepEqual(found, []);
  });
}
