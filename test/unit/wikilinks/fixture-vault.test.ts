// The small sample vault in test/fixtures/vault (for the in-host dsh_lsp tests): pins the answers
// the md-links provider gives on it, so integration tests can rely on them. Read only.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { snapshot, Vault } from '../../helpers/wikiVault';

const FIXTURE = path.resolve(__dirname, '../../fixtures/vault');

describe('wiki links: test/fixtures/vault', () => {
  const v = new Vault(FIXTURE);
  const untouched = snapshot(FIXTURE);
  after(() => assert.deepEqual(snapshot(FIXTURE), untouched, 'the fixture must not be modified'));

  const definitions: Array<[string, number, number, string[]]> = [
    ['one note.md', 3, 17, ['another note.md:1:1']],
    ['one note.md', 5, 12, ['Topics/todo.md:1:1']],
    ['one note.md', 5, 32, ['another note.md:5:1']],
    ['index.md', 3, 3, ['one note.md:1:1']],
    ['index.md', 4, 3, ['Topics/todo.md:1:1 ambiguous[Topics/todo.md,archive/todo.md]']],
    ['index.md', 5, 3, ['another note.md:7:1']],
    ['index.md', 6, 3, ['index.md:6:3 unresolved(missing note)']],
    ['index.md', 7, 4, []],
    ['index.md', 10, 1, []],
    ['index.md', 13, 3, ['another note.md:1:1']],
    ['index.md', 17, 9, ['one note.md:1:1']],
  ];
  for (const [file, line, column, want] of definitions) {
    it(`definition at ${file}:${line}:${column} -> ${want.join(', ') || 'nothing'}`, async () => {
      assert.deepEqual(v.render(await v.query('goToDefinition', file, line, column)), want);
    });
  }

  it('references of "another note": the declaration, the embed, the link after the emoji, the block link (not the fence)', async () => {
    assert.deepEqual(v.render(await v.query('findReferences', 'one note.md', 3, 17)), [
      'another note.md:1:1 declaration',
      'index.md:5:3',
      'index.md:13:3',
      'one note.md:3:15',
      'one note.md:5:30 embed',
    ]);
  });

  it('hover on [[another note]]', async () => {
    assert.deepEqual(await v.query('hover', 'one note.md', 3, 17), {
      kind: 'hover',
      contents: 'Another note (another note.md)\n\nBody of another note.\n\n## Details\n\nA paragraph with a block. ^detail-block',
    });
  });
});
