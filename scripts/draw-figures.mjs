// Draws every figure of a page of the site in a playwright-core page (npm run shots, the layout
// tests). Figures draw only once they come near the viewport, and a lab may create one after a
// scroll has gone past it, so this scrolls to each figure not drawn yet, in document order, and
// waits for its report (data-shown), until none is left; then for <attn-app> to settle. It waits
// for signals only, never for a delay.

/** In the page: the first figure the reader can reach (not hidden) that has not been shown, or null. */
function unshownFigure() {
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      const isFigure = el.localName.startsWith('attn-') && 'figureStyles' in (customElements.get(el.localName) ?? {});
      if (isFigure && !el.hasAttribute('data-shown') && el.checkVisibility()) return el;
      const inner = el.shadowRoot && visit(el.shadowRoot);
      if (inner) return inner;
    }
    return null;
  };
  return visit(document);
}

const MAX_FIGURES = 200; // a page that keeps adding undrawn figures beyond this is a bug

/**
 * @param {import('playwright-core').Page} page a page of the site, its route drawn
 * @param {{ timeout?: number }} [options] ms for each wait
 */
export async function drawEveryFigure(page, { timeout = 30000 } = {}) {
  for (let i = 0; i < MAX_FIGURES; i += 1) {
    const figure = (await page.evaluateHandle(unshownFigure)).asElement();
    if (!figure) {
      await page.locator('attn-app[data-settled]').waitFor({ timeout });
      return;
    }
    await figure.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await page.waitForFunction((el) => el.hasAttribute('data-shown'), figure, { timeout });
    await figure.dispose();
  }
  throw new Error(`more than ${MAX_FIGURES} figures appeared undrawn`);
}
