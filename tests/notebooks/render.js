// A notebook as a reader sees it in Jupyter: Debian's nbconvert writes the executed notebook as
// HTML (its lab template, MathJax from libjs-mathjax under file://), and headless Chromium opens
// it. What a reader would notice is measured: formulas MathJax typeset or could not, maths left as
// raw $…$ text, the code cells that call plt.show() and whether each shows its figure, and any
// request that left the machine.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const PYTHON = '/usr/bin/python3';

/** Converts the executed notebooks `files` to HTML in `outDir`, in one nbconvert; resolves to the HTML paths. */
export function toHtml(files, outDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-m', 'nbconvert', '--to', 'html', '--output-dir', outDir, ...files], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`nbconvert exited with ${code}:\n${log.slice(-3000)}`));
      else resolve(files.map((file) => path.join(outDir, `${path.basename(file, '.ipynb')}.html`)));
    });
  });
}

/**
 * Opens `html` in a new page of `context` and resolves, once MathJax has typeset the page, to
 * { formulas, typeset, errors, raw, figures, drawn, offline }: the formulas found and typeset
 * (counts), the TeX of those MathJax could not typeset, the Markdown texts still holding a `$`,
 * the code cells that call plt.show() and how many of them show a PNG, and the requests to
 * anywhere but file://.
 */
export async function readRendered(context, html) {
  const page = await context.newPage();
  const offline = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) offline.push(request.url());
  });
  try {
    await page.goto(pathToFileURL(html).href);
    await page.waitForFunction(() => window.MathJax?.Hub?.Queue, null, { timeout: 60000 });
    await page.evaluate(() => new Promise((resolve) => window.MathJax.Hub.Queue(resolve)));
    const seen = await page.evaluate(() => {
      const markdown = [...document.querySelectorAll('.jp-MarkdownCell .jp-RenderedHTMLCommon')];
      const raw = markdown
        .map((cell) => {
          const copy = cell.cloneNode(true);
          copy
            .querySelectorAll('script, .MathJax_Preview, .MathJax, .MathJax_Display, .MathJax_CHTML')
            .forEach((el) => {
              el.remove();
            });
          return copy.textContent;
        })
        .filter((text) => text.includes('$'));
      const plotting = [...document.querySelectorAll('.jp-CodeCell')].filter((cell) =>
        cell.querySelector('.jp-InputArea')?.textContent.includes('plt.show()'),
      );
      return {
        formulas: document.querySelectorAll('script[type^="math/tex"]').length,
        typeset: document.querySelectorAll('.MathJax_CHTML[data-mathml]').length,
        // MathJax 2 with noErrors / noUndefined shows a bad formula as its source, an unknown macro in red
        errors: [...document.querySelectorAll('.MathJax_CHTML[data-mathml]')]
          .filter((el) => /<merror|mathcolor="red"/.test(el.dataset.mathml))
          .map((el) => el.nextElementSibling?.textContent ?? el.textContent),
        raw,
        figures: plotting.length,
        drawn: plotting.filter((cell) => cell.querySelector('.jp-OutputArea img[src^="data:image/png"]')).length,
      };
    });
    return { ...seen, offline };
  } finally {
    await page.close();
  }
}
