/**
 * Which shell a session gets (shellChoice.ts): each step of the order VS Code follows for its own
 * agent terminals, a shell DSH Bridge cannot drive (bash runs, and the choice says why), and the
 * choice carried through the service to a real shell.
 */
import * as assert from 'node:assert/strict';
import { chooseShell, drivenShell } from '../../../src/terminal/shellChoice';
import { harness } from '../../helpers/terminalHarness';
import { PtyBashBackend } from '../../../src/terminal/bash/ptyBash';
import { resolveTerminalConfig } from '../../../src/terminal/config';
import { nodePty } from '../../helpers/terminalHarness';

const zshProfiles = { zsh: { path: '/usr/bin/zsh' }, bash: { path: '/bin/bash' }, fish: { path: '/usr/bin/fish' } };

describe('shell choice', () => {
  it('1. dsh.terminal.shell wins over every other step', () => {
    const c = chooseShell({
      configured: 'zsh',
      agentProfile: { path: '/bin/bash' },
      defaultProfile: 'bash',
      profiles: zshProfiles,
      envShell: '/bin/bash',
    });
    assert.deepEqual([c.shell, c.executable, c.source], ['zsh', 'zsh', 'setting']);
    assert.match(c.why, /dsh\.terminal\.shell/);
  });

  it('2. then chat.tools.terminal.terminalProfile.<os> (its path; the first of a path list)', () => {
    const c = chooseShell({
      agentProfile: { path: ['/usr/bin/zsh', '/bin/zsh'] },
      defaultProfile: 'bash',
      profiles: zshProfiles,
      envShell: '/bin/bash',
    });
    assert.deepEqual([c.shell, c.executable, c.source], ['zsh', '/usr/bin/zsh', 'agentProfile']);
    assert.match(c.why, /terminalProfile/);
  });

  it('3. then the default terminal profile and its profiles entry', () => {
    const c = chooseShell({ agentProfile: null, defaultProfile: 'zsh', profiles: zshProfiles, envShell: '/bin/bash' });
    assert.deepEqual([c.shell, c.executable, c.source], ['zsh', '/usr/bin/zsh', 'defaultProfile']);
    assert.match(c.why, /default terminal profile "zsh"/);
  });

  it('a default profile that names no profile entry falls through to $SHELL', () => {
    const c = chooseShell({ defaultProfile: 'missing', profiles: zshProfiles, envShell: '/usr/bin/zsh' });
    assert.deepEqual([c.shell, c.source], ['zsh', 'SHELL']);
  });

  it('4. then $SHELL', () => {
    const c = chooseShell({ envShell: '/bin/zsh' });
    assert.deepEqual([c.shell, c.executable, c.source], ['zsh', '/bin/zsh', 'SHELL']);
  });

  it('5. nothing named: bash, saying so', () => {
    const c = chooseShell({});
    assert.deepEqual([c.shell, c.executable, c.source], ['bash', 'bash', 'none']);
    assert.match(c.why, /no setting/);
  });

  it('a default profile naming fish: bash runs, and the choice says why', () => {
    const c = chooseShell({ defaultProfile: 'fish', profiles: zshProfiles, envShell: '/usr/bin/zsh' });
    assert.deepEqual([c.shell, c.executable, c.source], ['bash', 'bash', 'defaultProfile']);
    assert.match(c.why, /\/usr\/bin\/fish, a shell DSH Bridge cannot drive/);
  });

  it('nu, pwsh in the agent profile or $SHELL: bash with the reason', () => {
    for (const named of ['/usr/bin/nu', '/usr/local/bin/pwsh', 'fish']) {
      assert.equal(chooseShell({ agentProfile: { path: named } }).shell, 'bash');
      assert.match(chooseShell({ envShell: named }).why, /cannot drive/);
    }
  });

  it('tells bash and zsh by file name, versions and login dashes included, nothing else', () => {
    assert.equal(drivenShell('/bin/zsh'), 'zsh');
    assert.equal(drivenShell('zsh-5.9'), 'zsh');
    assert.equal(drivenShell('-zsh'), 'zsh');
    assert.equal(drivenShell('/opt/homebrew/bin/bash'), 'bash');
    assert.equal(drivenShell('bash5'), 'bash');
    assert.equal(drivenShell('/usr/bin/zshell'), undefined);
    assert.equal(drivenShell('/usr/bin/rbash-wrapper'), undefined);
    assert.equal(drivenShell('/usr/bin/fish'), undefined);
  });

  it('the choice reaches a real shell: a service whose default is the chosen backend starts zsh at the chosen path', async function () {
    this.timeout(30_000);
    const choice = chooseShell({ defaultProfile: 'zsh', profiles: zshProfiles });
    const h = harness({}, {}, choice.shell);
    try {
      h.service.registerBackend(new PtyBashBackend(nodePty, () => resolveTerminalConfig(), h.log));
      const info = await h.service.open(h.owner, { shellPath: choice.executable });
      assert.equal(info.backend, 'pty-zsh');
      const r = await h.service.send(h.owner, info.sessionId, { input: 'echo "$ZSH_VERSION $(readlink /proc/$$/exe)"' });
      assert.match(r.output, /^5\.\d+ \/usr\/bin\/zsh$/);
      const bash = await h.service.open(h.owner, { backend: 'pty-bash' });
      assert.match((await h.service.send(h.owner, bash.sessionId, { input: 'echo "$BASH_VERSION"' })).output, /^\d+\.\d+/);
      await assert.rejects(h.service.open(h.owner, { backend: 'pty-bash', shellPath: '/usr/bin/zsh' }), /is not bash/);
    } finally {
      await h.dispose();
    }
  });
});
