// npm start: build everything, then serve the lessons on 127.0.0.1 and print
// the URL and the path of the offline single file.
//   node scripts/start.mjs --no-build   serve the existing build as it is
// PORT picks the port (default 8080; 0 picks a free one).
import path from 'node:path';
import { build, singleFile } from './build.mjs';
import { root, step } from './lib.mjs';
import { PNG_EXPORT_CSP, serve } from './serve.mjs';

const port = Number(process.env.PORT || 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a whole number from 0 to 65535, got "${process.env.PORT}"`);
  process.exit(1);
}

try {
  if (!process.argv.includes('--no-build')) await build();
  step('serving the lessons');
  const { url } = await serve(path.join(root, 'dist', 'site'), {
    port,
    // the site's strict policy, with blob: images for PNG exports (scripts/serve.mjs)
    headers: { 'Content-Security-Policy': PNG_EXPORT_CSP },
  });
  console.log(`\n  attnbook is running at   ${url}`);
  console.log(`  offline single file:     ${singleFile}`);
  console.log('\n  Press Ctrl+C to stop.');
} catch (error) {
  console.error(`\nnpm start failed: ${error.message}`);
  process.exit(1);
}
