// Notes in a folder that another program makes and then fills (`git clone`, `unzip`, an agent
// writing a new vault) are indexed, all of them: the notes written after the folder appeared and
// after a first look inside it found it empty, in a subfolder made in the same instant.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { until } from '../helpers/wait';

interface SymbolsAnswer {
  symbols?: { name: string; path: string; line: number }[];
}

/** Runs `script` in plain Node (this host's binary, ELECTRON_RUN_AS_NODE) with `args`; resolves when it exits 0. */
function runNode(script: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, ...args], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the writer exited with ${code}: ${stderr}`))));
  });
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
    await runNode(
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
