// The wiki-link index skips notes it must not read, and says so: a note linked to
// /proc/self/environ (the host's environment), to /dev/zero, to a file outside the workspace, and a
// FIFO named like a note. The build completes, updates for those files return promptly, and nothing
// of their content reaches any answer.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LspService } from '../../../src/lsp/service';
import { LspResult } from '../../../src/lsp/types';
import { MdLinksProvider } from '../../../src/lsp/wikilinks/provider';
import { NodeWorkspaceFs } from '../../../src/lsp/wikilinks/nodeFs';
import { pathToFileUri } from '../../../src/lsp/uri';
import { makeVaultDir } from '../../helpers/wikiVault';
import { mkfifo, releaseFifo } from '../../helpers/files';
import { within } from '../../helpers/wait';

const PROMPT_MS = 5000;

describe('wiki links: notes that must not be read are skipped and reported', () => {
  let dir: string;
  let outside: string;
  let pipe: string;
  const skipped: Array<{ uri: string; message: string }> = [];
  let service: LspService;
  let provider: MdLinksProvider;
  /** One entry of the host's environment as the kernel holds it: it must appear in no answer. */
  const envEntry =
    fs
      .readFileSync('/proc/self/environ', 'utf8')
      .split('\0')
      .find((e) => e.length > 6) ?? 'PATH=';
  const uri = (rel: string) => pathToFileUri(path.join(dir, rel));
  const ask = (operation: 'goToDefinition' | 'findReferences' | 'hover', rel: string, character: number): Promise<LspResult> =>
    within(
      PROMPT_MS,
      `${operation} in ${rel}`,
      service.query({ operation, uri: uri(rel), position: { line: 0, character }, workspaceUri: pathToFileUri(dir) }),
    );

  before(() => {
    dir = makeVaultDir({ 'index.md': '[[env]] [[zero]] [[pipe]] [[outside]] [[ok]]\n', 'ok.md': '# OK\n\nok body\n' });
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-wiki-out-')));
    fs.writeFileSync(path.join(outside, 'secret.md'), '# Secret\n\noutside-secret-text\n');
    fs.symlinkSync('/proc/self/environ', path.join(dir, 'env.md'));
    fs.symlinkSync('/dev/zero', path.join(dir, 'zero.md'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(dir, 'outside.md'));
    pipe = mkfifo(path.join(dir, 'pipe.md'));
    provider = new MdLinksProvider(new NodeWorkspaceFs({ workspaceFolders: [dir] }), {
      onSkip: (u, message) => skipped.push({ uri: u, message }),
    });
    service = new LspService();
    service.registerProvider(provider);
  });
  after(() => {
    releaseFifo(pipe);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('the build completes; each skipped note is reported with the reason', async () => {
    const index = await within(PROMPT_MS, 'building the index', provider.index(pathToFileUri(dir)));
    assert.deepEqual([...index.allNotes()].map((n) => n.relPath).sort(), ['index.md', 'ok.md']);
    const reasons = Object.fromEntries(skipped.map((s) => [path.basename(s.uri), s.message]));
    assert.match(reasons['env.md'] ?? '', /under \/proc: navigation does not read \/proc or \/sys files/);
    assert.match(reasons['zero.md'] ?? '', /character device/);
    assert.match(reasons['pipe.md'] ?? '', /FIFO/);
    assert.match(reasons['outside.md'] ?? '', /is outside the workspace/);
    assert.deepEqual(
      index
        .stats()
        .problems.map((p) => path.basename(p.uri))
        .sort(),
      ['env.md', 'outside.md', 'pipe.md', 'zero.md'],
    );
  });

  it('links to them are unresolved; hovers and references carry nothing of their content', async () => {
    const answers: LspResult[] = [];
    for (const character of [2, 10, 19, 28]) {
      const def = await ask('goToDefinition', 'index.md', character);
      assert.ok(def.kind === 'locations' && def.locations.length === 1 && def.locations[0]!.unresolved, JSON.stringify(def));
      answers.push(def, await ask('hover', 'index.md', character), await ask('findReferences', 'index.md', character));
    }
    const ok = await ask('hover', 'index.md', 41);
    assert.ok(ok.kind === 'hover' && /ok body/.test(ok.contents ?? ''), 'a readable note still answers');
    const text = JSON.stringify(answers);
    assert.ok(!text.includes(envEntry), 'nothing of the environment');
    assert.ok(!text.includes('outside-secret-text'), 'nothing of the file outside');
  });

  it('watcher updates for them return promptly, are reported, and leave the index working', async () => {
    skipped.length = 0;
    for (const rel of ['pipe.md', 'env.md', 'zero.md', 'outside.md'])
      await within(PROMPT_MS, `the update of ${rel}`, provider.onFileChanged(uri(rel)));
    assert.deepEqual(
      skipped.map((s) => path.basename(s.uri)),
      ['pipe.md', 'env.md', 'zero.md', 'outside.md'],
    );
    const index = await provider.index(pathToFileUri(dir));
    assert.deepEqual([...index.allNotes()].map((n) => n.relPath).sort(), ['index.md', 'ok.md']);
    const refs = await ask('findReferences', 'ok.md', 0);
    assert.ok(refs.kind === 'locations' && refs.locations.length === 2, JSON.stringify(refs));
  });

  it('a note that turns into a FIFO leaves the index (no stale text) and is reported', async () => {
    skipped.length = 0;
    const p = path.join(dir, 'ok.md');
    fs.rmSync(p);
    mkfifo(p);
    try {
      await within(PROMPT_MS, 'the update of ok.md', provider.onFileChanged(uri('ok.md')));
      assert.match(skipped[0]?.message ?? '', /FIFO/);
      const index = await provider.index(pathToFileUri(dir));
      assert.equal(index.note('ok.md'), undefined);
    } finally {
      releaseFifo(p);
    }
  });
});
