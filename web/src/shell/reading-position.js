/**
 * The reading position of every history entry, so that Back and Forward return to where the
 * reader was. Routes are hash changes, navigations inside one document: the browser's own
 * restoration would scroll before the page of the entry is drawn, and the app then scrolled to
 * the top. So the app restores it (history.scrollRestoration = 'manual'):
 *
 * - each history entry gets a key in history.state (`{ attnbookEntry: '<key>' }`; the permalink
 *   writer keeps history.state as it is);
 * - where the reader is, for the entry shown, is kept in sessionStorage under
 *   `attnbook:reading-positions` (a JSON object, key -> position, the MAX_ENTRIES latest), saved
 *   a moment after scrolling stops, when the page is hidden, and when the entry is left;
 * - a position is { anchor, offset, y }: the index of a block of the page (ANCHORS, in document
 *   order: the first that starts on screen, else the one across the top of the screen), the
 *   distance from the top of the viewport to its top, and window.scrollY. Restoring scrolls that block back to the same
 *   distance, so the position holds although figures above it have not drawn yet (they keep a
 *   placeholder height until they come near the viewport). y is used where the page has no such
 *   block. The app restores again once the figures near the viewport have drawn (they may change
 *   the height of what is above the anchor), until nothing moves.
 */
import { readItem, writeItem } from './storage.js';

const STORE_KEY = 'attnbook:reading-positions';
const STATE_FIELD = 'attnbookEntry';
export const MAX_ENTRIES = 100;
const SAVE_DELAY = 150; // ms after the last scroll event
const MIN_SHOWN = 48; // px of a restored anchor kept on screen until it has its real height
/** The blocks a reading position is measured from. */
export const ANCHORS = '.home-hero, .lesson-card, .lesson-head, .lesson-body > *, .lesson-foot';

/**
 * The anchor for a list of boxes in document order ({ top, bottom }, viewport coordinates) and the
 * viewport's height: the first block that starts on screen (restoring puts it on screen, where it
 * draws), else the block that covers the top of the viewport. { anchor: -1 } if there is none.
 */
export function pickAnchor(boxes, height) {
  let anchor = boxes.findIndex((box) => box.top >= 0 && box.top < height);
  if (anchor < 0) anchor = boxes.findIndex((box) => box.bottom > 0 && box.top < height);
  return anchor < 0 ? { anchor: -1, offset: 0 } : { anchor, offset: Math.round(boxes[anchor].top) };
}

/** `entries` with `key` set to `position` (now the latest) and only the `max` latest kept. */
export function rememberPosition(entries, key, position, max = MAX_ENTRIES) {
  const next = { ...entries };
  delete next[key];
  next[key] = position;
  const keys = Object.keys(next);
  for (const old of keys.slice(0, Math.max(0, keys.length - max))) delete next[old];
  return next;
}

/** Whether `value` looks like a position this module saved. */
export function isPosition(value) {
  return (
    value !== null &&
    typeof value === 'object' &&
    Number.isInteger(value.anchor) &&
    Number.isFinite(value.offset) &&
    Number.isFinite(value.y)
  );
}

function readPositions() {
  try {
    const parsed = JSON.parse(readItem(STORE_KEY, 'sessionStorage') ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {}; // damaged: start again
  }
}

let counter = 0;
const newKey = () =>
  `${Date.now().toString(36)}-${(counter += 1).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export class ReadingPosition {
  /** @param {Element} root the element the anchors are found in */
  constructor(root) {
    this.root = root;
    this.key = null;
    this._timer = 0;
    this._onScroll = () => {
      clearTimeout(this._timer);
      this._timer = setTimeout(() => this.save(), SAVE_DELAY);
    };
    this._onHide = () => this.save();
  }

  start() {
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
    addEventListener('scroll', this._onScroll, { passive: true });
    addEventListener('pagehide', this._onHide);
  }

  stop() {
    clearTimeout(this._timer);
    removeEventListener('scroll', this._onScroll);
    removeEventListener('pagehide', this._onHide);
  }

  /** Where the reader is now. */
  measure() {
    const boxes = [...this.root.querySelectorAll(ANCHORS)].map((el) => el.getBoundingClientRect());
    return { ...pickAnchor(boxes, innerHeight), y: Math.round(scrollY) };
  }

  /** Saves where the reader is, for the entry shown (call before showing another one). */
  save() {
    clearTimeout(this._timer);
    this._timer = 0;
    if (!this.key) return;
    writeItem(STORE_KEY, JSON.stringify(rememberPosition(readPositions(), this.key, this.measure())), 'sessionStorage');
  }

  /**
   * The history entry now in the URL becomes the one shown. Returns its saved position, or null
   * for an entry never shown before (which gets a key).
   */
  enter() {
    const state = history.state !== null && typeof history.state === 'object' ? history.state : {};
    const key = state[STATE_FIELD];
    if (typeof key === 'string' && key !== '') {
      this.key = key;
      const position = readPositions()[key];
      return isPosition(position) ? position : null;
    }
    this.key = newKey();
    history.replaceState({ ...state, [STATE_FIELD]: this.key }, '');
    return null;
  }

  /**
   * Scrolls back to `position` (from enter()); returns how far it scrolled (px). Until finish(),
   * the root has data-restoring, under which app.css lays out every block of the lesson (none is
   * skipped as off-screen), so the blocks above the anchor have their real heights, which the
   * browser then remembers.
   */
  restore({ anchor, offset, y }) {
    this.root.toggleAttribute('data-restoring', true);
    const block = anchor >= 0 ? this.root.querySelectorAll(ANCHORS)[anchor] : null;
    const before = scrollY;
    if (block && y > 0) {
      const box = block.getBoundingClientRect();
      // A block across the top of the screen that has not drawn yet may be shorter than it will be:
      // keep its end on screen, so that it draws; the next call puts it in place.
      const target = Math.max(offset, Math.min(0, MIN_SHOWN - box.height));
      scrollBy({ top: box.top - target, behavior: 'instant' });
    } else {
      scrollTo({ top: y, behavior: 'instant' });
    }
    return Math.abs(scrollY - before);
  }

  finish() {
    this.root.removeAttribute('data-restoring');
  }
}
