// Build step (issue 20): a Brotli (best quality) and a gzip (level 9) copy beside every text file
// of the built app, written once here so the server sends them without compressing per request
// (command-api's staticWeb picks the copy the browser accepts). A copy that is not smaller than
// its file is not written.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt', '.xml']);

function* filesUnder(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

let files = 0;
let before = 0;
let afterBrotli = 0;
for (const path of filesUnder(dist)) {
  if (!COMPRESSIBLE.has(extname(path))) continue;
  const content = readFileSync(path);
  const brotli = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  const gzip = gzipSync(content, { level: 9 });
  if (brotli.length < content.length) writeFileSync(`${path}.br`, brotli);
  if (gzip.length < content.length) writeFileSync(`${path}.gz`, gzip);
  files += 1;
  before += content.length;
  afterBrotli += Math.min(brotli.length, content.length);
}
console.log(`precompressed ${files} files: ${(before / 1024).toFixed(0)} KB, ${(afterBrotli / 1024).toFixed(0)} KB as Brotli`);
