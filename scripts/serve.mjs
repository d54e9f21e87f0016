// A static file server for dist/site on the loopback interface (used by
// npm start and the browser tests). No network beyond 127.0.0.1.
import http from 'node:http';
import sirv from 'sirv';

/**
 * The Content-Security-Policy the site is built to run under, exactly as README.md ("Embedding")
 * states it: nothing but the site's own files, no inline script or style, no eval (wasm compiled).
 * The browser tests send it, and so do the scripts that open the site in Chromium.
 */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

/**
 * STRICT_CSP plus blob: images, which a figure's PNG export needs (it draws the SVG as a blob:
 * image; under STRICT_CSP the export says so instead). npm start and the tests of PNG exports send it.
 */
export const PNG_EXPORT_CSP = `${STRICT_CSP}; img-src 'self' blob:`;

/**
 * Serves `dir` on http://host:port/. Port 0 picks a free port. `headers` are
 * added to every response (e.g. { 'Content-Security-Policy': '…' }). sirv
 * sends .wasm as application/wasm, so browsers compile it while it streams.
 * @param {string} dir
 * @param {{ host?: string, port?: number, headers?: Record<string, string> }} [options]
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export function serve(dir, { host = '127.0.0.1', port = 0, headers = {} } = {}) {
  const files = sirv(dir, { etag: true, dev: false });
  const server = http.createServer((req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    files(req, res, () => {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('Not found');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} on ${host} is already in use; choose another with PORT=<number> npm start`)
          : error,
      );
    });
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({
        url: `http://${host}:${actual}/`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
