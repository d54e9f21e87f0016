// The SCORM packages: dist/scorm/attnbook-scorm12.zip (SCORM 1.2) and
// dist/scorm/attnbook-scorm2004.zip (SCORM 2004 4th edition). Each is the built site (dist/site,
// which runs offline from its static files) with imsmanifest.xml at the zip's root, launched as
// index.html?lms=scorm12 / index.html?lms=scorm2004 (web/src/shell/scorm.js). The mastery score
// is 80 % (SCORM 1.2 adlcp:masteryscore 80; SCORM 2004 the primary objective's
// minNormalizedMeasure 0.8, satisfied by measure). Each zip ships every schema file its manifest
// names (scripts/scorm-schemas/<version>/, at the zip's root, as LMS importers that validate
// expect) and none of the site's demo pages (DEMO_FILES). scripts/build.mjs calls
// writeScormPackages() after the site build; `node scripts/scorm.mjs` redoes only this from an
// existing dist/site.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { root } from './lib.mjs';

export const scormDir = path.join(root, 'dist', 'scorm');
export const MASTERY = 0.8;
export const PACKAGES = {
  scorm12: path.join(scormDir, 'attnbook-scorm12.zip'),
  scorm2004: path.join(scormDir, 'attnbook-scorm2004.zip'),
};
const TITLE = 'attnbook — how attention works';
const schemasDir = path.join(root, 'scripts', 'scorm-schemas');

/** The site's pages that are not the course (demos, the self-test, the widgets bundle): not packed. */
export const DEMO_FILES = [/^selftest\.html$/, /^embed-example\.html$/, /^gallery\//, /^embed\//];
const isCourseFile = (file) => !DEMO_FILES.some((pattern) => pattern.test(file));

/** The schema files a manifest names in its xsi:schemaLocation (every second entry). */
export function namedSchemas(manifest) {
  const location = manifest.match(/xsi:schemaLocation="([^"]*)"/)?.[1] ?? '';
  return location.split(/\s+/).filter((_, i) => i % 2 === 1);
}

/** Every file under `dir`, as paths relative to it with `/` separators, sorted. */
async function listFiles(dir, prefix = '') {
  const found = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) found.push(rel);
  }
  return found.sort();
}

const xml = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const fileList = (files) => files.map((f) => `      <file href="${xml(f)}"/>`).join('\n');

/** imsmanifest.xml for SCORM 1.2. */
export function manifest12(files) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="attnbook-scorm12" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="attnbook-course">
    <organization identifier="attnbook-course">
      <title>${xml(TITLE)}</title>
      <item identifier="attnbook-item" identifierref="attnbook-sco" isvisible="true">
        <title>${xml(TITLE)}</title>
        <adlcp:masteryscore>${Math.round(MASTERY * 100)}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="attnbook-sco" type="webcontent" adlcp:scormtype="sco" href="index.html?lms=scorm12">
${fileList(files)}
    </resource>
  </resources>
</manifest>
`;
}

/** imsmanifest.xml for SCORM 2004 4th edition. */
export function manifest2004(files) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="attnbook-scorm2004" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="attnbook-course">
    <organization identifier="attnbook-course">
      <title>${xml(TITLE)}</title>
      <item identifier="attnbook-item" identifierref="attnbook-sco">
        <title>${xml(TITLE)}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="attnbook-mastery" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${MASTERY}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="attnbook-sco" type="webcontent" adlcp:scormType="sco" href="index.html?lms=scorm2004">
${fileList(files)}
    </resource>
  </resources>
</manifest>
`;
}

/**
 * Writes both zips from `siteDir` (default dist/site). Returns their paths.
 * @param {{ siteDir?: string, outDir?: string }} [options]
 */
export async function writeScormPackages({ siteDir = path.join(root, 'dist', 'site'), outDir = scormDir } = {}) {
  const files = (await listFiles(siteDir)).filter(isCourseFile);
  if (!files.includes('index.html')) throw new Error(`${siteDir} has no index.html: build the site first`);
  const contents = {};
  for (const file of files) contents[file] = await readFile(path.join(siteDir, file));
  await mkdir(outDir, { recursive: true });
  const written = {};
  for (const [version, make] of [
    ['scorm12', manifest12],
    ['scorm2004', manifest2004],
  ]) {
    const schemas = {};
    for (const file of await listFiles(path.join(schemasDir, version))) {
      schemas[file] = await readFile(path.join(schemasDir, version, file));
    }
    const manifest = make(files);
    const missing = namedSchemas(manifest).filter((name) => !schemas[name]);
    if (missing.length) throw new Error(`the ${version} manifest names ${missing.join(', ')}, not in ${schemasDir}`);
    const zip = zipSync(
      { 'imsmanifest.xml': new TextEncoder().encode(manifest), ...schemas, ...contents },
      { level: 9, mtime: new Date('2020-01-01T00:00:00Z') },
    );
    const target = path.join(outDir, path.basename(PACKAGES[version]));
    await writeFile(target, zip);
    written[version] = target;
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeScormPackages().then(
    (written) => console.log(`written: ${Object.values(written).join(', ')}`),
    (error) => {
      console.error(`SCORM packages failed: ${error.message}`);
      process.exit(1);
    },
  );
}
