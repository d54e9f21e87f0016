// Layout checks for a lab as a learner sees it (the explorable-figure rules of issue 15):
// a control and the figure it moves in one viewport, the figure at least 240 px on its longer
// side, 44 px hit areas, and every piece of figure text at least 11 px as rendered (an SVG's
// font size times its drawn width over its viewBox width).

import { nextFrames } from './next-frames.js';

/**
 * Scrolls the lab so its figure starts at the top of the viewport, then returns the boxes (page
 * pixels, relative to the viewport) of `figure` and `control`, two locators inside the lab.
 */
export async function boxesInView(page, lab, figure, control) {
  await lab
    .locator('.lab-figure')
    .first()
    .evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' })); // the page scrolls smoothly otherwise
  await nextFrames(page);
  return { figure: await figure.boundingBox(), control: await control.boundingBox() };
}

/** Throws unless both boxes lie inside the viewport and the figure is at least 240 px on its longer side. */
export function assertTogether(assert, { figure, control }, viewport, what) {
  for (const [name, box] of [
    ['figure', figure],
    ['control', control],
  ]) {
    assert.ok(box, `${what}: the ${name} is shown`);
    assert.ok(
      box.y >= -1 &&
        box.y + box.height <= viewport.height + 1 &&
        box.x >= -1 &&
        box.x + box.width <= viewport.width + 1,
      `${what}: the ${name} ${JSON.stringify(box)} is inside the ${viewport.width}×${viewport.height} viewport`,
    );
  }
  assert.ok(Math.max(figure.width, figure.height) >= 240, `${what}: figure ${figure.width}×${figure.height}`);
}

/**
 * The smallest rendered size (px) of the visible SVG and HTML text in `lab`'s figure column and its
 * nested cells: [size, the text], or [Infinity, ''] when it has none.
 */
export function smallestFigureText(lab) {
  return lab.evaluate((host) => {
    let smallest = [Infinity, ''];
    const visit = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) visit(el.shadowRoot);
        const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        if (!own || el.closest('details:not([open])')) continue;
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        let size = parseFloat(getComputedStyle(el).fontSize);
        const svg = el.closest('svg');
        if (svg?.viewBox?.baseVal?.width) size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        if (size < smallest[0]) smallest = [size, el.textContent.trim().slice(0, 40)];
      }
    };
    visit(host.shadowRoot.querySelector('.lab-figure'));
    return smallest;
  });
}

/** The smallest height and width (px) among `locator`'s visible matches. */
export async function smallestHitArea(locator) {
  let min = Infinity;
  for (const box of await Promise.all((await locator.all()).map((l) => l.boundingBox()))) {
    if (box) min = Math.min(min, box.height, box.width);
  }
  return min;
}

/** (Run in the page, with page.evaluate(frames).) */
/** Every framed figure or card in the page's shadow roots: its depth among frames and its frame. */
export function frames() {
  const found = [];
  const isFrame = (el) => el.matches('figure, .card') && el.getRootNode() instanceof ShadowRoot;
  const depthOf = (el) => {
    let depth = 0;
    for (let node = el.parentNode; node; node = node.parentNode ?? node.host) {
      if (node instanceof Element && isFrame(node)) depth += 1;
    }
    return depth;
  };
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (isFrame(el) && el.checkVisibility()) {
        const style = getComputedStyle(el);
        found.push({
          where: `${el.getRootNode().host.localName} ${el.localName}${el.className ? `.${el.className}` : ''}`,
          depth: depthOf(el),
          left: style.borderLeftWidth,
          right: style.borderRightWidth,
          paddingLeft: style.paddingLeft,
          paddingRight: style.paddingRight,
          top: style.borderTopWidth,
        });
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return found;
}
