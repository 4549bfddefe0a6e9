// `make activity`: bundles src/ (with @discord/embedded-app-sdk) into bot/activity/static/,
// the files the bot serves; then records the sources' hash there, which the test suite
// compares with the sources (tests/activity/test_built_client.py) where Node is absent.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] || join(here, '..', '..', 'bot', 'activity', 'static');
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(here, 'src', 'main.js')],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  outfile: join(out, 'app.js'),
  logLevel: 'warning',
});
await build({
  entryPoints: [join(here, 'src', 'style.css')],
  bundle: true,
  minify: true,
  outfile: join(out, 'app.css'),
  logLevel: 'warning',
});
copyFileSync(join(here, 'index.html'), join(out, 'index.html'));

// The same list and order as tests/activity/test_built_client.py's source_hash().
const files = ['build.mjs', 'index.html', 'package.json', 'package-lock.json',
  ...readdirSync(join(here, 'src')).sort().map((f) => `src/${f}`)];
const hash = createHash('sha256');
for (const f of files) {
  hash.update(`${f}\n`);
  hash.update(readFileSync(join(here, f)));
}
writeFileSync(join(out, 'SOURCES.sha256'), `${hash.digest('hex')}\n`);
