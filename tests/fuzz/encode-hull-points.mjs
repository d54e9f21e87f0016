// Writes a point list ("x y" per line, '#' comments) as an input of fuzz_hull, so a point set
// found anywhere can join the corpus:
//   node tests/fuzz/encode-hull-points.mjs tests/cpp/data/hull-mixed-magnitudes.txt \
//     tests/fuzz/corpus/hull/mixed-magnitudes
// FuzzedDataProvider reads integers from the END of the input, most significant byte first,
// so the bytes fuzz_hull consumes are listed in order and then reversed:
//   n in [0, 1000] (2 bytes), a byte < 240 (a well-formed (n, 2) shape), the value mode 0
//   (raw float32 bits), then 2n float32s as 4 bytes each; nothing after them (0 probes).
import { readFile, writeFile } from 'node:fs/promises';

const [source, target] = process.argv.slice(2);
if (!source || !target) throw new Error('usage: node tests/fuzz/encode-hull-points.mjs <points.txt> <corpus file>');
const values = (await readFile(source, 'utf8'))
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'))
  .flatMap((line) => line.trim().split(/\s+/).slice(0, 2).map(Number));
const n = values.length / 2;
if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error(`${source}: need 1 to 1000 points, got ${n}`);
const consumed = [n >> 8, n & 0xff, 0, 0];
const word = new DataView(new ArrayBuffer(4));
for (const v of values) {
  // 9 significant digits name one float32 exactly: the nearest (Math.fround) is that one
  if (!Number.isFinite(Math.fround(v))) throw new Error(`${source}: ${v} is not a finite float32`);
  word.setFloat32(0, v); // big-endian: the most significant byte is read first
  consumed.push(word.getUint8(0), word.getUint8(1), word.getUint8(2), word.getUint8(3));
}
await writeFile(target, Uint8Array.from(consumed.reverse()));
console.log(`${target}: ${n} points, ${consumed.length} bytes`);
