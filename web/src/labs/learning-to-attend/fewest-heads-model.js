/**
 * The "fewest heads" exercise of lesson learning-to-attend (attn-fewest-heads.js): which heads of a
 * trained model can be knocked out while it still solves its task, found by trying every subset,
 * and the verdict on the learner's choice. No DOM and no maths of its own: the accuracy of a subset
 * is measured by the engine's trainer (the lab's fewestHeads, attn-attend-trainer.js). Unit-tested
 * in Node (tests/js/labs-learning-to-attend.test.js).
 */
import { percent } from './trainer-model.js';

/** The accuracy that counts as solving a task (the same line as the lab's 97 % goal). */
export const SOLVED = 0.97;

/** The most heads the search tries every subset of: 2^8 = 256 subsets. */
export const MAX_SEARCH_HEADS = 8;

/** Every subset of size k of 0..n-1, as sorted index arrays, in lexicographic order. */
export function* subsetsOfSize(n, k) {
  const pick = Array.from({ length: k }, (_, i) => i);
  if (k > n || k < 0) return;
  for (;;) {
    yield [...pick];
    let i = k - 1;
    while (i >= 0 && pick[i] === n - k + i) i -= 1;
    if (i < 0) return;
    pick[i] += 1;
    for (let j = i + 1; j < k; j += 1) pick[j] = pick[j - 1] + 1;
  }
}

const binomial = (n, k) => {
  let c = 1;
  for (let i = 1; i <= k; i += 1) c = (c * (n - k + i)) / i;
  return Math.round(c);
};

/**
 * The fewest heads that still solve the task: tries the subsets of the `count` heads (index arrays of
 * the heads kept on) in order of size, 0 heads first, with `accuracyOf(kept)` (may return a
 * promise), and stops after the first size at which some subset reaches `threshold`. So every
 * smaller subset has been tried and failed: the size found is the true minimum, whatever the
 * accuracy does as heads are removed (it need not fall: knocking a head out can help).
 * Resolves to { size, solutions (every subset of that size that solves it), tried, total (2^count) };
 * size is null when not even every head together reaches the threshold.
 * onProgress({ tried, total }) after each subset.
 */
export async function searchFewestHeads(count, accuracyOf, { threshold = SOLVED, onProgress } = {}) {
  if (!Number.isInteger(count) || count < 1) throw new Error(`the model has ${count} heads; it needs at least 1`);
  if (count > MAX_SEARCH_HEADS) {
    throw new Error(`the model has ${count} heads; trying every subset is offered up to ${MAX_SEARCH_HEADS}`);
  }
  const total = 2 ** count;
  let tried = 0;
  for (let size = 0; size <= count; size += 1) {
    const solutions = [];
    for (const kept of subsetsOfSize(count, size)) {
      const accuracy = await accuracyOf(kept);
      tried += 1;
      onProgress?.({ tried, total });
      if (accuracy >= threshold) solutions.push(kept);
    }
    if (solutions.length) return { size, solutions, tried, total };
  }
  return { size: null, solutions: [], tried, total };
}

/** Subsets tried by a search that stopped after `size`: every subset of at most that many heads. */
export const subsetsUpTo = (count, size) =>
  Array.from({ length: size + 1 }, (_, k) => binomial(count, k)).reduce((a, b) => a + b, 0);

const names = (heads, kept) =>
  kept.length ? kept.map((i) => heads[i].name).join('; ') : 'no head at all (every one knocked out)';

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The verdict on the learner's heads: `heads` (headList), `kept` (indices left on), `full` (the
 * accuracy with every head on), `keptAccuracy` (with only `kept` on), `search` (searchFewestHeads's
 * result). Returns { correct, message, mistake } for attn-exercise.
 */
export function judgeFewest({ heads, kept, full, keptAccuracy, search }) {
  if (!(full >= SOLVED)) {
    return {
      correct: false,
      mistake: 'untrained',
      message: `with every head on, the model gets ${percent(full)}, under 97 %: it does not solve the task yet. Train it further first (Train, above), then knock heads out.`,
    };
  }
  if (!(keptAccuracy >= SOLVED)) {
    return {
      correct: false,
      mistake: 'not-solved',
      message: `with ${names(heads, kept)} left on, the model gets ${percent(keptAccuracy)}: under 97 %, so ${kept.length === 1 ? 'that head does' : 'those heads do'} not solve the task on ${kept.length === 1 ? 'its' : 'their'} own. Turn a head back on, or try another one.`,
    };
  }
  if (kept.length > search.size) {
    return {
      correct: false,
      mistake: 'not-fewest',
      message: `${plural(kept.length, 'head')} left on still solve it (${percent(keptAccuracy)}), but fewer can: the page tried the smaller subsets and at least one of them also reaches 97 %. Knock out one more and check again.`,
    };
  }
  const smaller = subsetsUpTo(heads.length, search.size - 1);
  const others = search.solutions.length - 1;
  return {
    correct: true,
    mistake: null,
    message: `${plural(kept.length, 'head')} (${names(heads, kept)}) ${kept.length === 1 ? 'is' : 'are'} the fewest: with them the model gets ${percent(keptAccuracy)}, and all ${plural(smaller, 'subset')} of fewer heads stay under 97 % (${search.tried} of the ${search.total} subsets tried).${others ? ` ${others === 1 ? 'One other set' : `${others} other sets`} of ${plural(search.size, 'head')} also ${others === 1 ? 'works' : 'work'}.` : ''}`,
  };
}
