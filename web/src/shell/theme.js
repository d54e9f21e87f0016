/**
 * Colour theme: 'light', 'dark' or 'system' (follow prefers-color-scheme).
 * Stored in localStorage under attnbook:theme; applied as data-theme="light|dark"
 * on <html>, or no data-theme for 'system' (app.css then follows the media query).
 */
import { readItem, writeItem } from './storage.js';

export const THEMES = ['light', 'dark', 'system'];
const KEY = 'attnbook:theme';

export function storedTheme() {
  const value = readItem(KEY);
  return THEMES.includes(value) ? value : 'system';
}

export function applyTheme(theme, root = document.documentElement) {
  if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
  else delete root.dataset.theme;
}

/** Stores and applies `theme`; tells listeners with an `attn-theme-change` event on document. */
export function setTheme(theme) {
  if (!THEMES.includes(theme)) return;
  writeItem(KEY, theme === 'system' ? null : theme);
  applyTheme(theme);
  document.dispatchEvent(new CustomEvent('attn-theme-change', { detail: { theme } }));
}

/** Whether animations and smooth scrolling should be avoided. */
export function prefersReducedMotion() {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}
