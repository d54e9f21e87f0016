/**
 * localStorage that never throws: storage can be disabled, full, or refused
 * (sandboxed iframes, privacy modes). Reads fall back to null, writes are dropped.
 */
export function readItem(key) {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key, value) {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage unavailable: the setting lasts for this page only.
  }
}
