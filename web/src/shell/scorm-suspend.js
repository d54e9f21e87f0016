/**
 * Progress <-> SCORM `cmi.suspend_data` (pure: no DOM, no LMS; tested in Node by
 * tests/js/scorm-suspend.test.js). Inside an LMS, this string is where the learner's progress
 * lives between sessions (docs/progress-protocol.md, "SCORM").
 *
 * Progress is given and returned as the entries that the plain course keeps in localStorage
 * (shell/progress.js): `attnbook:exercise:<lesson>/<exercise>` = a JSON record
 * `{"status":…,"attempts":n,"score":0|1}`, `attnbook:visited:<lesson>` = 'true' and
 * `attnbook:read:<lesson>` = 'true' (read to the end).
 *
 * The encoding, compact so a whole course fits SCORM 1.2's 4,096 characters:
 *
 *   A1;<lesson>:<exercise>=<s><attempts>,<exercise>=<s><attempts>;<lesson>:…;!<lesson>;@<lesson>,<lesson>
 *
 * - `A1` names this format (a later one gets another tag);
 * - one `;`-separated group per lesson with exercise records, `<s>` being `s` (solved), `h`
 *   (shown) or `a` (attempted) and `<attempts>` a whole number (the score follows from the
 *   status: 1 when solved, else 0);
 * - a group `!…` lists the lessons read to the end (each was opened too);
 * - a last group `@…` lists the lessons opened that are in neither of the above (a lesson with a
 *   record, or read, was opened);
 * - ids are written with encodeURIComponent, so they never contain `;:=,@`.
 *
 * Priorities when it would not fit the budget: exercise states first (solved, then shown, then
 * attempted), then lessons read, then lessons opened; what does not fit is left out and listed in
 * `dropped`. (The `!` group came with per-lesson packages; text without it reads as before.)
 */
import { parseRecord } from '../cells/notebook/exercise-model.js';

/** SCORM 1.2's limit for cmi.suspend_data (CMIString4096); used for SCORM 2004 too. */
export const SUSPEND_LIMIT = 4096;
export const SUSPEND_FORMAT = 'A1';

const EXERCISE = /^attnbook:exercise:([^/]+)\/(.+)$/;
const VISITED = /^attnbook:visited:(.+)$/;
const READ = /^attnbook:read:(.+)$/;
const CODES = { solved: 's', shown: 'h', attempted: 'a' };
const STATUS_OF = { s: 'solved', h: 'shown', a: 'attempted' };
const PRIORITY = ['solved', 'shown', 'attempted'];
const MAX_ATTEMPTS = 99999;

const enc = encodeURIComponent;

/** The suspend_data text of the chosen items: exercise items grouped by lesson, then reads, then visits. */
function serialize(exercises, read, visited) {
  const groups = new Map();
  for (const item of exercises) {
    if (!groups.has(item.lesson)) groups.set(item.lesson, []);
    groups.get(item.lesson).push(`${enc(item.exercise)}=${CODES[item.status]}${item.attempts}`);
  }
  const parts = [SUSPEND_FORMAT];
  for (const [lesson, items] of groups) parts.push(`${enc(lesson)}:${items.join(',')}`);
  if (read.length) parts.push(`!${read.map(enc).join(',')}`);
  const alone = visited.filter((lesson) => !groups.has(lesson) && !read.includes(lesson));
  if (alone.length) parts.push(`@${alone.map(enc).join(',')}`);
  return parts.join(';');
}

/**
 * @param {Iterable<[string, string]>} entries progress entries (other keys are ignored)
 * @param {{ budget?: number }} [options] at most this many characters (default 4,096)
 * @returns {{ text: string, dropped: string[] }} the suspend_data, and the keys left out
 */
export function encodeSuspendData(entries, { budget = SUSPEND_LIMIT } = {}) {
  const exercises = [];
  const visits = [];
  const reads = [];
  for (const [key, value] of entries) {
    const ex = EXERCISE.exec(key);
    if (ex) {
      const record = parseRecord(value);
      if (record.status === 'none') continue;
      const attempts = Math.min(record.attempts, MAX_ATTEMPTS);
      exercises.push({ key, lesson: ex[1], exercise: ex[2], status: record.status, attempts });
      continue;
    }
    if (value === null || value === undefined) continue;
    const visit = VISITED.exec(key);
    if (visit) visits.push({ key, lesson: visit[1] });
    const read = READ.exec(key);
    if (read) reads.push({ key, lesson: read[1] });
  }
  const rank = (item) => PRIORITY.indexOf(item.status);
  exercises.sort((a, b) => rank(a) - rank(b)); // stable: the same status keeps its order
  const keptExercises = [];
  const keptReads = [];
  const keptVisits = [];
  const dropped = [];
  const lessons = (items) => items.map((item) => item.lesson);
  const text = () => serialize(keptExercises, lessons(keptReads), lessons(keptVisits));
  for (const [items, kept] of [
    [exercises, keptExercises],
    [reads, keptReads],
    [visits, keptVisits],
  ]) {
    for (const item of items) {
      kept.push(item);
      if (text().length > budget) {
        kept.pop();
        dropped.push(item.key);
      }
    }
  }
  return { text: text(), dropped };
}

function decodeId(text, what) {
  if (text === '') throw new Error(`an empty ${what} id`);
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Error(`a badly encoded ${what} id "${text.slice(0, 40)}"`);
  }
}

function parse(text) {
  const entries = new Map();
  const groups = text.split(';');
  if (groups[0] !== SUSPEND_FORMAT) throw new Error(`it does not start with "${SUSPEND_FORMAT};"`);
  groups.slice(1).forEach((group, i) => {
    if (group.startsWith('!')) {
      if (i !== groups.length - 2 && !(i === groups.length - 3 && groups.at(-1).startsWith('@')))
        throw new Error('the list of lessons read is not before the list of lessons opened');
      for (const lesson of group.slice(1).split(',')) {
        const id = decodeId(lesson, 'lesson');
        entries.set(`attnbook:read:${id}`, 'true');
        entries.set(`attnbook:visited:${id}`, 'true');
      }
      return;
    }
    if (group.startsWith('@')) {
      if (i !== groups.length - 2) throw new Error('the list of opened lessons is not last');
      for (const lesson of group.slice(1).split(','))
        entries.set(`attnbook:visited:${decodeId(lesson, 'lesson')}`, 'true');
      return;
    }
    const colon = group.indexOf(':');
    if (colon < 0) throw new Error(`group ${i + 1} has no "lesson:"`);
    const lesson = decodeId(group.slice(0, colon), 'lesson');
    entries.set(`attnbook:visited:${lesson}`, 'true');
    for (const item of group.slice(colon + 1).split(',')) {
      const match = /^([^=]*)=([sha])(\d{1,5})$/.exec(item);
      if (!match) throw new Error(`"${item.slice(0, 40)}" in lesson ${lesson} is not <exercise>=<s|h|a><attempts>`);
      const status = STATUS_OF[match[2]];
      const record = { status, attempts: Number(match[3]), score: status === 'solved' ? 1 : 0 };
      entries.set(`attnbook:exercise:${lesson}/${decodeId(match[1], 'exercise')}`, JSON.stringify(record));
    }
  });
  return entries;
}

/**
 * The progress entries in a suspend_data text. Empty text is a fresh start. Text that is not this
 * format (another course's data, damage) is a fresh start too, with `error` saying why.
 * @param {unknown} text
 * @returns {{ entries: Map<string, string>, error: string | null }}
 */
export function decodeSuspendData(text) {
  if (text === '' || text === null || text === undefined) return { entries: new Map(), error: null };
  if (typeof text !== 'string') return { entries: new Map(), error: 'the saved progress is not text' };
  try {
    return { entries: parse(text), error: null };
  } catch (error) {
    return { entries: new Map(), error: `the saved progress could not be read: ${error.message}` };
  }
}
