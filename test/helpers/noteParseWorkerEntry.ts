// The note parser's worker script for tests and benchmarks run from source: the entry
// (src/lsp/wikilinks/noteParseWorker.ts) bundled by esbuild as esbuild.mjs bundles it for the
// extension, once per process, into a temp folder removed at exit.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

let built: string | undefined;

/** Absolute path of the bundled worker script (built on the first call). */
export function noteParseWorkerEntry(): string {
  if (built) return built;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-note-worker-'));
  const out = path.join(dir, 'noteParseWorker.js');
  esbuild.buildSync({
    entryPoints: [path.resolve(__dirname, '../../src/lsp/wikilinks/noteParseWorker.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  built = out;
  return out;
}
