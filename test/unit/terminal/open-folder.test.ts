// The folder a new session opens in: its confirmation names where the given path really leads,
// and the open starts there or refuses when the path leads elsewhere by then (real symbolic links).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TerminalError } from '../../../src/terminal/errors';
import { confirmedOpenFolder, openFolderText, resolveOpenFolder } from '../../../src/vscode/tools/terminal/openFolder';

describe('terminal tools: the folder a session opens in', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-open-folder-')));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a plain folder is named as given and opened there', async () => {
    const stated = await resolveOpenFolder(dir);
    assert.equal(openFolderText(stated), `\`${dir}\``);
    assert.equal(await confirmedOpenFolder(stated), dir);
  });

  it('a folder reached through a symbolic link is named by its real path and the link, and opened at the real path', async () => {
    const docs = path.join(dir, 'docs');
    fs.symlinkSync('/', docs);
    const stated = await resolveOpenFolder(docs);
    assert.equal(openFolderText(stated), `\`/\` (reached through \`${docs}\`)`);
    assert.equal(await confirmedOpenFolder(stated), '/');
  });

  it('a link swapped after the confirmation refuses the open, naming both places', async () => {
    const target = path.join(dir, 'project');
    fs.mkdirSync(target);
    const link = path.join(dir, 'work');
    fs.symlinkSync(target, link);
    const stated = await resolveOpenFolder(link);
    fs.rmSync(link);
    fs.symlinkSync(os.homedir(), link);
    await assert.rejects(
      confirmedOpenFolder(stated),
      (e: unknown) =>
        e instanceof TerminalError &&
        e.code === 'RECEIVER_CHANGED' &&
        e.message ===
          `no session was opened: the confirmation showed "${link}" leading to "${target}", but now it leads to "${fs.realpathSync(os.homedir())}". Call dsh_terminal_open again to confirm where the session starts`,
    );
  });

  it('a folder missing at the confirmation is named as given; made as a link meanwhile, the open is refused', async () => {
    const later = path.join(dir, 'later');
    const stated = await resolveOpenFolder(later);
    assert.equal(stated.realPath, undefined);
    assert.equal(openFolderText(stated), `\`${later}\``);
    assert.equal(await confirmedOpenFolder(stated), later, 'still missing: the open itself says it does not exist');
    fs.symlinkSync('/', later);
    await assert.rejects(confirmedOpenFolder(stated), /showed ".*later" leading to nothing that exists, but now it leads to "\/"/);
  });

  it("a relative path is not resolved (it would lead from the extension host's folder): no real path, passed on as given", async () => {
    for (const given of ['.', 'src/..', 'docs']) {
      const stated = await resolveOpenFolder(given);
      assert.deepEqual(stated, { given });
      assert.equal(await confirmedOpenFolder(stated), given);
    }
  });
});
