// The SCORM packages, SCORM 1.2 and SCORM 2004 4th edition, each a zip of the built site (dist/site,
// which runs offline from its static files) with imsmanifest.xml at its root. Every SCO is one
// lesson, launched as index.html?lms=<version>&lesson=<id> (web/src/shell/scorm.js): it scores
// that lesson's exercises and is completed when the lesson was read to the end. So an LMS shows a
// row per lesson. `npm run build` (scripts/build.mjs, writeScormPackages) writes
//   dist/scorm/attnbook-scorm12.zip, attnbook-scorm2004.zip          the course: an item per lesson
//   dist/scorm/lessons/<id>-scorm12.zip, <id>-scorm2004.zip          one lesson each
// and a chosen set is packed from an existing dist/site with
//   npm run scorm -- --lessons softmax-temperature,attention-matrix --title "Week 5"
// (dist/scorm/week-5-scorm12.zip and -scorm2004.zip; --out DIR to write elsewhere).
//
// In a manifest, each lesson's SCO resource lists index.html and depends on one asset resource
// that lists every file of the site. The mastery score is 80 % (1.2 adlcp:masteryscore 80 on each
// item; 2004 each item's primary objective, minNormalizedMeasure 0.8, satisfied by measure); a
// lesson without exercises has no score and none. Each zip ships every schema file its manifest
// names (scripts/scorm-schemas/<version>/, at the zip's root, as LMS importers that validate
// expect) and none of the site's demo pages (DEMO_FILES). The lessons are read from web/lessons
// (their ids, titles and exercises), as the site's build compiles them.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { root } from './lib.mjs';
import { compileLesson } from './vite-lessons-plugin.mjs';

export const scormDir = path.join(root, 'dist', 'scorm');
export const MASTERY = 0.8;
export const VERSIONS = ['scorm12', 'scorm2004'];
/** The course packages: one item per lesson. */
export const PACKAGES = {
  scorm12: path.join(scormDir, 'attnbook-scorm12.zip'),
  scorm2004: path.join(scormDir, 'attnbook-scorm2004.zip'),
};
/** The package of one lesson. */
export const lessonPackage = (id, version) => path.join(scormDir, 'lessons', `${id}-${version}.zip`);
export const COURSE_TITLE = 'attnbook — how attention works';
const schemasDir = path.join(root, 'scripts', 'scorm-schemas');
const ASSETS = 'attnbook-files';

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

/**
 * Every lesson of the course, in course order: { id, title, exerciseIds }.
 * @param {string} [dir] the lessons' folder (default web/lessons)
 */
export async function courseLessons(dir = path.join(root, 'web', 'lessons')) {
  const metas = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.md')).sort()) {
    metas.push(compileLesson(await readFile(path.join(dir, name), 'utf8'), `web/lessons/${name}`).meta);
  }
  return metas
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id))
    .map(({ id, title, exerciseIds }) => ({ id, title, exerciseIds: exerciseIds ?? [] }));
}

/** A file-name and identifier form of a title: "Week 5" → "week-5". */
export const slug = (text) =>
  String(text)
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);

const xml = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const fileList = (files) => files.map((f) => `      <file href="${xml(f)}"/>`).join('\n');

const launchHref = (version, id) => xml(`index.html?lms=${version}&lesson=${id}`);

const SCHEMA_LOCATION = {
  scorm12:
    'http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd',
  scorm2004:
    'http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd',
};

/** A lesson's item: its title, and its mastery score when it has exercises. */
function item(version, lesson) {
  const scored = lesson.exerciseIds.length > 0;
  const mastery =
    version === 'scorm12'
      ? `\n        <adlcp:masteryscore>${Math.round(MASTERY * 100)}</adlcp:masteryscore>`
      : `
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="${xml(lesson.id)}-mastery" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${MASTERY}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>`;
  return `      <item identifier="item-${xml(lesson.id)}" identifierref="sco-${xml(lesson.id)}"${version === 'scorm12' ? ' isvisible="true"' : ''}>
        <title>${xml(lesson.title)}</title>${scored ? mastery : ''}
      </item>`;
}

/** A lesson's SCO: its launch href, index.html, and the site's files through the shared asset. */
function scoResource(version, lesson) {
  const type = version === 'scorm12' ? 'adlcp:scormtype' : 'adlcp:scormType';
  return `    <resource identifier="sco-${xml(lesson.id)}" type="webcontent" ${type}="sco" href="${launchHref(version, lesson.id)}">
      <file href="index.html"/>
      <dependency identifierref="${ASSETS}"/>
    </resource>`;
}

/**
 * imsmanifest.xml of a package: an item and a SCO per lesson, in the order given.
 * @param {'scorm12' | 'scorm2004'} version
 * @param {{ identifier: string, title: string, lessons: { id: string, title: string, exerciseIds: string[] }[], files: string[] }} pack
 */
export function manifest(version, { identifier, title, lessons, files }) {
  if (lessons.length === 0) throw new Error('a package needs at least one lesson');
  const type = version === 'scorm12' ? 'adlcp:scormtype' : 'adlcp:scormType';
  const head =
    version === 'scorm12'
      ? `<manifest identifier="${xml(identifier)}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="${SCHEMA_LOCATION.scorm12}">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>`
      : `<manifest identifier="${xml(identifier)}" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="${SCHEMA_LOCATION.scorm2004}">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>`;
  // 2004: the learner may choose any lesson and go on to the next (Continue / Previous).
  const flow =
    version === 'scorm2004'
      ? `\n      <imsss:sequencing>\n        <imsss:controlMode choice="true" flow="true"/>\n      </imsss:sequencing>`
      : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
${head}
  <organizations default="${xml(identifier)}-organization">
    <organization identifier="${xml(identifier)}-organization">
      <title>${xml(title)}</title>
${lessons.map((lesson) => item(version, lesson)).join('\n')}${flow}
    </organization>
  </organizations>
  <resources>
${lessons.map((lesson) => scoResource(version, lesson)).join('\n')}
    <resource identifier="${ASSETS}" type="webcontent" ${type}="asset">
${fileList(files)}
    </resource>
  </resources>
</manifest>
`;
}

/** The site's course files and their bytes, once for every package. */
async function siteContents(siteDir) {
  if (!existsSync(siteDir)) {
    throw new Error(`${siteDir} does not exist: build the site first (npm run build, or node scripts/build.mjs --web)`);
  }
  const files = (await listFiles(siteDir)).filter(isCourseFile);
  if (!files.includes('index.html')) {
    throw new Error(
      `${siteDir} has no index.html: build the site first (npm run build, or node scripts/build.mjs --web)`,
    );
  }
  const contents = {};
  for (const file of files) contents[file] = await readFile(path.join(siteDir, file));
  return { files, contents };
}

/** Each version's schema files by name. */
async function schemaFiles() {
  const schemas = {};
  for (const version of VERSIONS) {
    schemas[version] = {};
    for (const file of await listFiles(path.join(schemasDir, version))) {
      schemas[version][file] = await readFile(path.join(schemasDir, version, file));
    }
  }
  return schemas;
}

/** Writes one zip: the manifest, the schemas it names, the site. */
async function writePackage(target, version, pack, site, schemas) {
  const text = manifest(version, { ...pack, files: site.files });
  const missing = namedSchemas(text).filter((name) => !schemas[version][name]);
  if (missing.length) throw new Error(`the ${version} manifest names ${missing.join(', ')}, not in ${schemasDir}`);
  const zip = zipSync(
    { 'imsmanifest.xml': new TextEncoder().encode(text), ...schemas[version], ...site.contents },
    { level: 9, mtime: new Date('2020-01-01T00:00:00Z') },
  );
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, zip);
  return target;
}

/**
 * The lessons `ids` names, in course order; an unknown or repeated id, or none, is an error that
 * lists the course's ids.
 */
export function chooseLessons(course, ids) {
  const known = new Map(course.map((lesson) => [lesson.id, lesson]));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) {
    throw new Error(
      `no lesson ${unknown.map((id) => `"${id}"`).join(', ')}; the lessons are ${[...known.keys()].join(', ')}`,
    );
  }
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length) throw new Error(`lesson ${repeated.join(', ')} named twice`);
  if (ids.length === 0) throw new Error(`no lessons named; the lessons are ${[...known.keys()].join(', ')}`);
  return course.filter((lesson) => ids.includes(lesson.id));
}

/**
 * Packs the lessons `ids` (course order kept) as `<slug of title>-scorm12.zip` and `-scorm2004.zip`
 * in `outDir`. Returns { scorm12, scorm2004 }: the paths written.
 * @param {{ ids: string[], title: string, siteDir?: string, outDir?: string, lessonsDir?: string }} options
 */
export async function writeChosenPackages({
  ids,
  title,
  siteDir = path.join(root, 'dist', 'site'),
  outDir = scormDir,
  lessonsDir,
}) {
  const name = slug(title);
  if (!name)
    throw new Error(`the title ${JSON.stringify(title ?? '')} has no letters or digits to name the package by`);
  const lessons = chooseLessons(await courseLessons(lessonsDir), ids);
  const [site, schemas] = await Promise.all([siteContents(siteDir), schemaFiles()]);
  const written = {};
  for (const version of VERSIONS) {
    const pack = { identifier: `attnbook-${name}-${version}`, title, lessons };
    written[version] = await writePackage(path.join(outDir, `${name}-${version}.zip`), version, pack, site, schemas);
  }
  return written;
}

/**
 * Writes the course zips and every lesson's zips from `siteDir` (default dist/site). Returns
 * { course: { scorm12, scorm2004 }, lessons: { <id>: { scorm12, scorm2004 } } }: the paths.
 * @param {{ siteDir?: string, outDir?: string, lessonsDir?: string }} [options]
 */
export async function writeScormPackages({
  siteDir = path.join(root, 'dist', 'site'),
  outDir = scormDir,
  lessonsDir,
} = {}) {
  const [course, site, schemas] = await Promise.all([courseLessons(lessonsDir), siteContents(siteDir), schemaFiles()]);
  await rm(path.join(outDir, 'lessons'), { recursive: true, force: true }); // no zip of a removed lesson
  const written = { course: {}, lessons: {} };
  for (const version of VERSIONS) {
    const pack = { identifier: `attnbook-${version}`, title: COURSE_TITLE, lessons: course };
    written.course[version] = await writePackage(
      path.join(outDir, path.basename(PACKAGES[version])),
      version,
      pack,
      site,
      schemas,
    );
    for (const lesson of course) {
      const target = path.join(outDir, 'lessons', `${lesson.id}-${version}.zip`);
      const one = { identifier: `attnbook-${lesson.id}-${version}`, title: lesson.title, lessons: [lesson] };
      written.lessons[lesson.id] ??= {};
      written.lessons[lesson.id][version] = await writePackage(target, version, one, site, schemas);
    }
  }
  return written;
}

const USAGE = `usage: node scripts/scorm.mjs [--lessons id1,id2,… --title "Week 5"] [--out DIR]
  without --lessons: the course zips and every lesson's zips (dist/scorm/)
  with --lessons:    one package of those lessons, an item per lesson, named by --title`;

/** The command line's options: { ids, title, outDir } (ids null: every package). */
export function parseScormArgs(args) {
  const options = { ids: null, title: null, outDir: scormDir };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || (inline === undefined && v.startsWith('--')))
        throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    if (flag === '--lessons')
      options.ids = value()
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
    else if (flag === '--title') options.title = value();
    else if (flag === '--out') options.outDir = path.resolve(value());
    else if (flag === '--help' || flag === '-h') throw new Error(USAGE);
    else throw new Error(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`);
  }
  if (options.title !== null && options.ids === null)
    throw new Error(`--title names a chosen set: give --lessons too\n${USAGE}`);
  if (options.ids !== null && options.title === null)
    throw new Error(`--lessons needs --title (the package's name in the LMS)\n${USAGE}`);
  return options;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  (async () => {
    const { ids, title, outDir } = parseScormArgs(process.argv.slice(2));
    if (ids) {
      const written = await writeChosenPackages({ ids, title, outDir });
      console.log(`written: ${Object.values(written).join(', ')}`);
    } else {
      const written = await writeScormPackages({ outDir });
      const count = Object.keys(written.lessons).length;
      console.log(
        `written: ${Object.values(written.course).join(', ')} and ${count * 2} lesson zips in ${path.join(outDir, 'lessons')}`,
      );
    }
  })().catch((error) => {
    console.error(`SCORM packages failed: ${error.message}`);
    process.exitCode = 1;
  });
}
