/**
 * Web storage that never throws: storage can be disabled, full, or refused
 * (sandboxed iframes, privacy modes; even reading `localStorage` can throw).
 * Reads fall back to null, writes are dropped. `area` is 'localStorage' (the
 * default: kept across visits) or 'sessionStorage' (this tab only).
 */
export function readItem(key, area = 'localStorage') {
  try {
    return globalThis[area]?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key, value, area = 'localStorage') {
  try {
    if (value === null) globalThis[area]?.removeItem(key);
    else globalThis[area]?.setItem(key, value);
  } catch {
    // Storage unavailable: the setting lasts for this page only.
  }
}
