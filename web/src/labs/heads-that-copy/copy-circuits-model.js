/**
 * The circuits figure's model (<attn-copy-circuits>): the engine's OV and QK circuits (vocab,
 * vocab) cut down to the letters of the alphabet, and how many letters' rows peak on the
 * diagonal. No DOM. Unit-tested in Node (tests/js/labs-heads-that-copy.test.js).
 */

/**
 * The rows and columns of the letters of `alphabet` (its ASCII letters, in vocabulary order) of
 * the (vocab, vocab) tensors `ov` and `qk`: { letters, ov, qk }, each a list of rows.
 */
export function letterRows(alphabet, ov, qk) {
  const chars = [...alphabet];
  const ids = chars.flatMap((c, i) => (/^[a-zA-Z]$/.test(c) ? [i] : []));
  const vocab = ov.shape[1];
  const cut = (t) => ids.map((r) => ids.map((c) => t.data[r * vocab + c]));
  return { letters: ids.map((i) => chars[i]), ov: cut(ov), qk: cut(qk) };
}

/** How many rows of a square matrix have their largest entry on the diagonal (the first on ties). */
export function diagonalPeaks(rows) {
  return rows.filter((row, i) => row.indexOf(Math.max(...row)) === i).length;
}

/** What the figure draws before the circuits arrive: the letters a-z, every entry 0. */
export function placeholderCircuits() {
  const letters = [...'abcdefghijklmnopqrstuvwxyz'];
  const zeros = () => letters.map(() => letters.map(() => 0));
  return { head: 0, source: 0, step: 0, letters, ov: zeros(), qk: zeros() };
}
