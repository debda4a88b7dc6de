// Which workspace folders hold notes, for the Problems panel's md-links publisher: each folder is
// looked up once (in VS Code a ripgrep run), however many refreshes follow; a note created later in
// a folder looked up as empty is learned from its file event, not from another search.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NoteFolders } from '../../../src/lsp/wikilinks/noteFolders';
import { fileUriToPath, pathToFileUri } from '../../../src/lsp/uri';
import { makeVaultDir } from '../../helpers/wikiVault';

/** A real lookup: walks the folder on disk for a `.md` or `.markdown` file, counting its runs. */
function diskLookup(): { lookup: (folderUri: string) => Promise<boolean>; runs: string[] } {
  const runs: string[] = [];
  const lookup = async (folderUri: string) => {
    runs.push(folderUri);
    const files = fs.readdirSync(fileUriToPath(folderUri), { recursive: true }) as string[];
    return files.some((f) => /\.(md|markdown)$/i.test(f) && !f.split(path.sep).includes('node_modules'));
  };
  return { lookup, runs };
}

describe('wiki links: which workspace folders hold notes', () => {
  it('a folder is looked up once, however many refreshes ask', async () => {
    const notes = makeVaultDir({ 'a.md': '# A\n', 'src/x.ts': '' });
    const code = makeVaultDir({ 'src/x.ts': '', 'node_modules/p/README.md': '# not a note of the workspace\n' });
    try {
      const { lookup, runs } = diskLookup();
      const folders = new NoteFolders(lookup);
      for (let i = 0; i < 50; i++) {
        assert.equal(await folders.holdsNotes(pathToFileUri(notes)), true);
        assert.equal(await folders.holdsNotes(pathToFileUri(code)), false);
      }
      assert.deepEqual(runs, [pathToFileUri(notes), pathToFileUri(code)]);
      assert.equal(folders.lookupCount, 2);
    } finally {
      fs.rmSync(notes, { recursive: true, force: true });
      fs.rmSync(code, { recursive: true, force: true });
    }
  });

  it('a note created in a folder looked up as empty is learned from its event, without a new lookup; other files change nothing', async () => {
    const dir = makeVaultDir({ 'src/x.ts': '' });
    const other = makeVaultDir({ 'b.txt': '' });
    try {
      const { lookup, runs } = diskLookup();
      const folders = new NoteFolders(lookup);
      const ws = [pathToFileUri(dir), pathToFileUri(other)];
      assert.equal(await folders.holdsNotes(ws[0]!), false);
      assert.equal(await folders.holdsNotes(ws[1]!), false);
      fs.writeFileSync(path.join(dir, 'src', 'y.ts'), '');
      folders.noteSeen(pathToFileUri(path.join(dir, 'src', 'y.ts')), ws);
      assert.equal(await folders.holdsNotes(ws[0]!), false, 'a .ts file is not a note');
      fs.writeFileSync(path.join(dir, 'New Note.MD'), '# New\n');
      folders.noteSeen(pathToFileUri(path.join(dir, 'New Note.MD')), ws);
      assert.equal(await folders.holdsNotes(ws[0]!), true);
      assert.equal(await folders.holdsNotes(ws[1]!), false, 'the note is not in the other folder');
      assert.equal(runs.length, 2, `lookups: ${runs.join(', ')}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('a failed lookup counts as "no notes" and is not repeated; forget() looks again', async () => {
    let calls = 0;
    const folders = new NoteFolders(async () => {
      calls++;
      if (calls === 1) throw new Error('the search failed');
      return true;
    });
    const ws = pathToFileUri(path.join(fs.realpathSync('/tmp'), 'no-such-folder-dsh'));
    assert.equal(await folders.holdsNotes(ws), false);
    assert.equal(await folders.holdsNotes(ws), false);
    assert.equal(calls, 1);
    folders.forget(ws);
    assert.equal(await folders.holdsNotes(ws), true);
    assert.equal(calls, 2);
  });
});
