// Notes in a folder that another program makes and then fills (`git clone`, `unzip`, an agent
// writing a new vault) are indexed, all of them: the notes written after the folder appeared and
// after a first look inside it found it empty, in a subfolder made in the same instant.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { runNodeChild } from '../helpers/host/nodeChild';
import { until } from '../helpers/wait';

interface SymbolsAnswer {
  symbols?: { name: string; path: string; line: number }[];
}

describe('notes: a folder made and then filled by another program is indexed whole', function () {
  this.timeout(120_000);
  const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const made = () => path.join(root(), 'made-then-filled');

  before(async () => {
    await waitForTools(['dsh_symbols', 'dsh_lsp']);
    // The index of the workspace is built before the folder appears.
    await invokeTool('dsh_lsp', { operation: 'findReferences', filePath: 'vault/one note.md', line: 1, column: 1 });
  });
  after(() => fs.rmSync(made(), { recursive: true, force: true }));

  it('`mkdir -p made/inner`, a pause, then 300 notes in `inner`: the last note is found by its title with dsh_symbols', async () => {
    await runNodeChild(
      `const fs = require('node:fs'), path = require('node:path');
       const inner = path.join(process.argv[1], 'inner');
       fs.mkdirSync(inner, { recursive: true });
       setTimeout(() => {
         for (let i = 0; i < 300; i++) fs.writeFileSync(path.join(inner, 'filled-' + i + '.md'), '# Filled note ' + i + '\\n\\n## Filled section ' + i + '\\n');
       }, 1500);`,
      [made()],
    );
    const found = await until(
      'the last note written into the made folder to be indexed',
      async () => {
        const r = (await invokeTool<SymbolsAnswer>('dsh_symbols', { query: 'Filled note 299' })).json;
        return r.symbols?.find((s) => s.path === 'made-then-filled/inner/filled-299.md' && s.name === 'Filled note 299');
      },
      60_000,
      1000,
    );
    assert.equal(found.line, 1);
  });
});
