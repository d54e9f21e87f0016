/**
 * Course-wide reader preferences, remembered across lessons (localStorage, with a memory fallback
 * when storage is refused; cell-support.js progressStore). One so far:
 * - showCode: whether every code cell (attn-code) opens by default. Off: code cells show a
 *   one-line header and open on demand. `attnbook:show-code` = 'on' | absent.
 * Every element that follows a preference subscribes; a change anywhere on the page (or in
 * another tab, through the `storage` event) reaches them all.
 */
import { progressStore } from './cell-support.js';

const KEY = 'attnbook:show-code';
const EVENT = 'attnbook:show-code';

export const showCode = {
  get() {
    return progressStore.get(KEY) === 'on';
  },
  set(on) {
    if (on) progressStore.set(KEY, 'on');
    else progressStore.remove(KEY);
    globalThis.dispatchEvent?.(new CustomEvent(EVENT, { detail: { on: Boolean(on) } }));
  },
  /** Calls `listener(on)` on every change; returns the function that stops it. */
  subscribe(listener) {
    const onEvent = (event) => listener(event.detail.on);
    const onStorage = (event) => event.key === KEY && listener(event.newValue === 'on');
    globalThis.addEventListener?.(EVENT, onEvent);
    globalThis.addEventListener?.('storage', onStorage);
    return () => {
      globalThis.removeEventListener?.(EVENT, onEvent);
      globalThis.removeEventListener?.('storage', onStorage);
    };
  },
};
