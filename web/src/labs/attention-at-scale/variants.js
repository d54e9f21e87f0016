/**
 * "Try another" questions of the attention-at-scale lesson's number exercises
 * (exercise-variants.js): exercise id -> (seed) => { answer, tolerance, prompt, hint, explanation,
 * mistakes }. Bytes come from the labs' own memory-model.js (T · T · 4 for float32 weights); every
 * T is beyond what the labs on the page can be set to (the fused lab stops at 16,384).
 */
import { weightsBytes } from './memory-model.js';

const GiB = 2 ** 30;
const round = (x) => Number(x.toPrecision(4));
const SIZES = [65536, 100000, 131072, 24576, 49152];

/** The question for T tokens (also the lesson's own, T = 32,768), with its likely slips. */
export function memoryQuestion(T) {
  const answer = round(weightsBytes(T) / GiB);
  const tol = (x) => Math.max(0.005, Math.abs(x) * 0.005);
  return {
    answer,
    tolerance: tol(answer),
    prompt: `One head, T = ${T.toLocaleString('en')} tokens: how many GiB do its float32 attention weights take? (1 GiB = 2^30 bytes.)`,
    hint: 'Count the weights first (one per query and key), then the bytes of each float32.',
    explanation: `T × T = ${(T * T).toLocaleString('en')} weights, 4 bytes each: ${weightsBytes(T).toLocaleString('en')} bytes, which is ${answer} GiB. Doubling T multiplies it by 4.`,
    mistakes: [
      {
        value: round((T * T) / GiB),
        feedback: 'that counts the weights, but a GiB counts bytes: how many bytes does one float32 take?',
      },
      { value: round(weightsBytes(T) / 1e9), feedback: 'that is in gigabytes of 10^9 bytes; a GiB is 2^30 bytes.' },
      {
        value: round((2 * weightsBytes(T / 2)) / GiB),
        feedback:
          'that doubles the memory of half the length; the weights grow with T², so doubling T quadruples them.',
      },
      {
        value: round((weightsBytes(T) * 64) / GiB),
        feedback:
          'that multiplies by the width E too; the weights are one number per query and key, whatever the width.',
      },
    ].map((m) => ({ ...m, tolerance: tol(m.value) })),
  };
}

export default {
  'scale-memory': (seed) => memoryQuestion(SIZES[(seed - 1) % SIZES.length]),
};
