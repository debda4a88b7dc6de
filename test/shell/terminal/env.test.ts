/** The environment of a new session: what it inherits from the extension host and what it never does. */
import * as assert from 'node:assert/strict';
import { sessionEnv } from '../../../src/terminal/session/sessionEnv';
import { Harness, harness } from '../../helpers/terminalHarness';

/** Variables VS Code's extension host carries that describe VS Code itself, not the user's shell. */
const HOST_PRIVATE = {
  ELECTRON_RUN_AS_NODE: '1',
  ELECTRON_NO_ATTACH_CONSOLE: '1',
  VSCODE_PID: '4242',
  VSCODE_IPC_HOOK_CLI: '/tmp/vscode-ipc-test.sock',
  VSCODE_NLS_CONFIG: '{}',
  VSCODE_HANDLES_UNCAUGHT_ERRORS: 'true',
  VSCODE_CODE_CACHE_PATH: '/tmp/cache',
  SNAP: '/snap/code/1',
  SNAP_REVISION: '1',
  GDK_PIXBUF_MODULE_FILE: '/snap/loaders.cache',
  // Another window's MCP endpoint and secret, inherited when this VS Code was started from that
  // window's terminal: no program in a session may reach that window's tools with it.
  DSH_BRIDGE_MCP: '/run/user/1000/dsh-bridge/w.sock#c2VjcmV0',
};

describe('session environment', function () {
  this.timeout(60_000);

  it('drops the extension host’s private variables (as VS Code’s integrated terminal does) and keeps the user’s', () => {
    const env = sessionEnv(
      {},
      {},
      {
        ...HOST_PRIVATE,
        HOME: '/home/u',
        PATH: '/usr/bin',
        VSCODE_SHELL_LOGIN: '1',
        VSCODE_PORTABLE: '/p',
        ELECTRONIC: 'yes',
        SNAPSHOT: 'kept',
      },
    );
    for (const name of Object.keys(HOST_PRIVATE)) assert.equal(env[name], undefined, name);
    assert.equal(env.HOME, '/home/u');
    assert.equal(env.PATH, '/usr/bin');
    // The ones VS Code's own terminal keeps: they are the user's, not the host's.
    assert.equal(env.VSCODE_SHELL_LOGIN, '1');
    assert.equal(env.VSCODE_PORTABLE, '/p');
    assert.equal(env.ELECTRONIC, 'yes');
    assert.equal(env.SNAPSHOT, 'kept');
    assert.equal(env.PAGER, 'cat');
    assert.equal(env.DSH_BRIDGE_SESSION, '1');
  });

  it('a variable the user sets in dsh.terminal.env or the caller asks for is applied, whatever its name', () => {
    const env = sessionEnv({ VSCODE_PID: 'mine', PAGER: null }, { ELECTRON_RUN_AS_NODE: 'asked' }, { ...HOST_PRIVATE });
    assert.equal(env.VSCODE_PID, 'mine');
    assert.equal(env.ELECTRON_RUN_AS_NODE, 'asked');
    assert.equal(env.PAGER, undefined);
  });

  describe('a real session', () => {
    let h: Harness;
    const saved: Record<string, string | undefined> = {};
    before(() => {
      for (const [k, v] of Object.entries(HOST_PRIVATE)) {
        saved[k] = process.env[k];
        process.env[k] = v;
      }
      h = harness();
    });
    after(async () => {
      await h.dispose();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });

    it('started from a host that has them shows none of them in `env`', async () => {
      const { sessionId } = await h.service.open(h.owner);
      const out = (await h.service.send(h.owner, sessionId, { input: 'env | sort' })).output;
      const names = out.split(/\r?\n/).map((l) => l.split('=')[0]);
      assert.ok(names.includes('HOME') && names.includes('DSH_BRIDGE_SESSION'), `env printed: ${names.join(' ')}`);
      for (const name of Object.keys(HOST_PRIVATE)) assert.ok(!names.includes(name), `${name} reached the session`);
    });
  });
});
