// Republishing a whole workspace's diagnostics after every change hands over only the files whose
// diagnostics changed: of a vault of 10 000 notes with problems, one edited note is one file to
// send, not 10 000 (sending all of them at once held the extension host thread ~200 ms).
import * as assert from 'node:assert/strict';
import { PublishedDiagnostics } from '../../../src/lsp/features/diagnosticsDelta';
import type { DiagnosticItem } from '../../../src/lsp/features/types';
import { heldText, withLagProbe } from '../../helpers/eventLoopLag';

const at = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 9 } });
function brokenLinks(
  notes: number,
  perNote: number,
  message = (i: number) => `broken wiki link: no note or file matches 'gone-${i}'`,
): DiagnosticItem[] {
  const out: DiagnosticItem[] = [];
  for (let i = 0; i < notes; i++) {
    for (let k = 0; k < perNote; k++)
      out.push({
        uri: `file:///vault/note-${i}.md`,
        range: at(k),
        severity: 'error',
        message: message(i),
        source: 'md-links',
        code: 'broken-link',
      });
  }
  return out;
}

describe('diagnostics: what changed since the last publication', () => {
  it('the first publication is every file; an unchanged republication is nothing; one changed note is that note, with its whole list', async () => {
    const published = new PublishedDiagnostics();
    const first = await published.update(brokenLinks(100, 3));
    assert.equal(first.changed.size, 100);
    assert.deepEqual(first.cleared, []);
    assert.equal(first.changed.get('file:///vault/note-7.md')?.length, 3);
    const same = await published.update(brokenLinks(100, 3));
    assert.deepEqual([same.changed.size, same.cleared], [0, []]);
    const edited = await published.update(
      brokenLinks(100, 3, (i) => (i === 42 ? 'no heading' : `broken wiki link: no note or file matches 'gone-${i}'`)),
    );
    assert.deepEqual([...edited.changed.keys()], ['file:///vault/note-42.md']);
    assert.deepEqual(
      edited.changed.get('file:///vault/note-42.md')?.map((d) => d.message),
      ['no heading', 'no heading', 'no heading'],
    );
  });

  it('a file whose problems are gone is cleared; a moved range or another severity counts as a change', async () => {
    const published = new PublishedDiagnostics();
    const base = brokenLinks(3, 1);
    await published.update(base);
    const next = [
      { ...base[0]!, range: at(5) },
      { ...base[1]!, severity: 'warning' as const },
    ];
    const delta = await published.update(next);
    assert.deepEqual([...delta.changed.keys()], ['file:///vault/note-0.md', 'file:///vault/note-1.md']);
    assert.deepEqual(delta.cleared, ['file:///vault/note-2.md']);
    published.reset();
    assert.equal((await published.update(next)).changed.size, 2, 'after reset every file is new');
  });

  it('10 000 notes with 3 problems each: compared without holding the thread long (a hang detector, wide margin)', async () => {
    const published = new PublishedDiagnostics();
    const items = brokenLinks(10_000, 3);
    const run = await withLagProbe(async () => {
      await published.update(items);
      return published.update(items);
    });
    assert.equal(run.result.changed.size, 0);
    assert.ok(run.maxHeldMs < 800, `the thread was ${heldText(run)}`);
  });
});
