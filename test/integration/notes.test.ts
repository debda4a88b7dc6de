// The extension host thread stays free while a big note arrives: an 8 MiB note (`# h` lines) written
// into the workspace is indexed by the md-links provider in its worker thread; meanwhile a timer in
// the host ticks every 10 ms and the longest time the thread was held between ticks (a gap less
// its wait for a CPU) must stay under 200 ms (a hang detector: before the note parser moved off the host thread, this note held it for 27 s). Wiki
// navigation on the note still answers, and what is not indexed is said ("indexed partly").
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { Session } from 'node:inspector';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { until } from '../helpers/wait';
import { heldText, startLagProbe, type LagFigures } from '../helpers/eventLoopLag';
import { emit } from '../helpers/host/report';
import { bigHeadingsNote } from '../bench/vault';

/** The goal of the host-thread budget, in ms (issue: no single piece of work over ~50 ms; 200 ms as a hang detector). */
const HOST_HOLD_LIMIT_MS = 200;

interface Sym {
  name: string;
  line: number;
}
interface Answer {
  total: number;
  outline?: Sym[];
  freshnessNote?: string;
  diagnostics?: unknown[];
}

/**
 * Profiles the extension host thread (once started) until the returned function writes `<DSH_TEST_CPU_PROFILE>/<name>.cpuprofile`
 * (for Chrome DevTools or `node scripts/profile-top.mjs`); a no-op without DSH_TEST_CPU_PROFILE.
 */
async function cpuProfile(name: string): Promise<() => Promise<void>> {
  const dir = process.env.DSH_TEST_CPU_PROFILE;
  if (!dir) return async () => {};
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) => session.post(method, (err, result) => (err ? reject(err) : resolve(result))));
  // Starting the profiler holds the thread ~300 ms itself: it starts before anything is measured.
  await post('Profiler.enable');
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}-${vscode.version}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

describe('notes: a big note never holds the extension host thread', function () {
  this.timeout(240_000);
  const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const big = () => path.join(root(), 'vault', 'big-note.md');
  const linking = () => path.join(root(), 'vault', 'links to big.md');

  before(async () => {
    await waitForTools(['dsh_lsp', 'dsh_symbols', 'dsh_diagnostics']);
    // The index of the vault is built before the probe starts (that is not what is measured here).
    await invokeTool('dsh_lsp', { operation: 'findReferences', filePath: 'vault/one note.md', line: 1, column: 1 });
    await fs.promises.writeFile(linking(), '# Links\n\nSee [[big-note]] and [[big-note#h]].\n');
    // VS Code's own markdown extension activates when the first markdown document opens: loading
    // it holds the thread ~600 ms, VS Code's work, not ours. It is done before the probe starts.
    await vscode.workspace.openTextDocument(vscode.Uri.file(linking()));
    await vscode.extensions.getExtension('vscode.markdown-language-features')?.activate();
  });
  after(async () => {
    await fs.promises.rm(big(), { force: true });
    await fs.promises.rm(linking(), { force: true });
  });

  it('writing an 8 MiB note: the host thread is held no more than 200 ms beyond the idle host; navigation answers, the rest is "indexed partly"', async () => {
    const text = bigHeadingsNote();
    const profiled = await cpuProfile('big-note');
    // What the host shows with nothing of ours to do, on this machine now (a loaded machine delays timers too).
    const idle = startLagProbe(10);
    await new Promise((r) => setTimeout(r, 10_000));
    const baseline = idle.stop();
    const probe = startLagProbe(10);
    let figures: LagFigures | undefined;
    try {
      await fs.promises.writeFile(big(), text);
      // Diagnostics of the note once the index has it whole: they say what is not indexed. (The
      // watcher may report the file while it is still being written: the index then has a part of
      // it, and reads it again when the write ends.)
      const diag = await until(
        'the index to have the whole big note, indexed partly',
        async () => {
          const r = (await invokeTool<Answer>('dsh_diagnostics', { filePath: 'vault/big-note.md' })).json;
          return /indexed partly: .* of 2097153 indexed/.test(r.freshnessNote ?? '') ? r : undefined;
        },
        180_000,
        1000,
      );
      assert.match(diag.freshnessNote ?? '', /vault\/big-note\.md: lines 1–20000 of 2097153 indexed/);
      // Its outline: 20 000 headings, then the "indexed partly" entry.
      const outline = (await invokeTool<Answer>('dsh_symbols', { filePath: 'vault/big-note.md', offset: 20_000, limit: 5 })).json;
      assert.equal(outline.total, 20_001);
      assert.match(outline.outline?.at(-1)?.name ?? '', /^\(indexed partly: vault\/big-note\.md: lines 1–20000 of 2097153 indexed/);
      // Navigation on the note, in the editor (VS Code's definition provider answered by md-links).
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(linking()));
      const defs = await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink>>(
        'vscode.executeDefinitionProvider',
        doc.uri,
        new vscode.Position(2, 8),
      );
      const targets = defs.map((d) => ('targetUri' in d ? d.targetUri : d.uri).fsPath);
      assert.ok(targets.includes(big()), `definitions: ${targets.join(', ')}`);
    } finally {
      figures = probe.stop();
      await profiled();
    }
    const said = `the extension host thread was ${heldText(figures)}; idle on this machine just before: ${heldText(baseline)}`;
    emit({ text: `    notes: ${said}` });
    // Held: a gap less the time the thread waited for a CPU (other programs on a busy machine). The
    // limit is the goal plus what the idle host already shows here: on a quiet machine that is ~200 ms.
    assert.ok(figures.maxHeldMs < HOST_HOLD_LIMIT_MS + baseline.maxHeldMs, `${said}; limit ${HOST_HOLD_LIMIT_MS} ms + the idle figure`);
  });
});
