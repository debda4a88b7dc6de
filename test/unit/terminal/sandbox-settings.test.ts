/**
 * Which setting keys the agent sandbox policy is read from: VS Code's current keys, and where the
 * person has not set one, its older names in VS Code's order (VS Code's sandboxSettingsReader
 * DEPRECATED_SANDBOX_FALLBACKS, then the VS Code 1.109 `chat.tools.terminal.sandbox.*` keys), with
 * VS Code's normalisation (true = "on", false = "off"), one key per setting. Read through the
 * plain-Node reader the VS Code layer hands `get` and `inspect` to, then the policy.
 */
import * as assert from 'node:assert/strict';
import { sandboxPolicy } from '../../../src/terminal/sandbox/policy';
import { ReadSetting, SANDBOX_SETTING_SECTIONS, SettingRead, sandboxSettingValues } from '../../../src/terminal/sandbox/settingKeys';

type Layers = Omit<SettingRead, 'value'>;

/** A configuration of keys and their layers; the value in force is computed as VS Code merges them. */
function reader(keys: Record<string, Layers>, log?: string[]): ReadSetting {
  return (key) => {
    log?.push(key);
    const l = keys[key];
    if (!l) return { value: undefined };
    return { ...l, value: l.policyValue ?? l.workspaceFolderValue ?? l.workspaceValue ?? l.globalValue ?? l.defaultValue };
  };
}
const user = (globalValue: unknown): Layers => ({ globalValue });
const FOLDERS = { workspaceFolders: ['/w/one'], storageFolder: '/s/store', tempFolder: '/t/tmp' };
const policyOf = (keys: Record<string, Layers>, platform: NodeJS.Platform = 'linux') =>
  sandboxPolicy(sandboxSettingValues(reader(keys), platform), FOLDERS, '/home/u');
/** VS Code 1.139 declares the current keys with these defaults. */
const DECLARED: Record<string, Layers> = {
  'chat.agent.sandbox.enabled': { defaultValue: 'off' },
  'chat.agent.sandbox.allowNetwork': { defaultValue: true },
  'chat.agent.sandbox.fileSystem.linux': { defaultValue: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] } },
  'chat.agent.sandbox.allowUnsandboxedCommands': { defaultValue: true },
};

describe('agent sandbox settings: the current keys and their older names', () => {
  it('reads the current keys: the value in force and where it came from', () => {
    assert.equal(policyOf(DECLARED).on, false);
    const explicit = policyOf({ ...DECLARED, 'chat.agent.sandbox.enabled': { defaultValue: 'off', globalValue: 'on' } });
    assert.equal(explicit.on, true);
    assert.equal(explicit.reason, 'chat.agent.sandbox.enabled is "on"');
    assert.match(
      policyOf({ ...DECLARED, 'chat.agent.sandbox.enabled': { defaultValue: 'off', policyValue: 'on' } }).reason,
      /organisation policy/,
    );
    const mac = {
      'chat.agent.sandbox.fileSystem.mac': user({ allowWrite: ['/mac'] }),
      'chat.agent.sandbox.fileSystem.linux': user({ allowWrite: ['/linux'] }),
      'dsh.terminal.sandbox': user('on'),
    };
    assert.ok(policyOf(mac, 'darwin').writableRoots.includes('/mac'));
    assert.ok(policyOf(mac, 'linux').writableRoots.includes('/linux'));
  });

  it('an older name of chat.agent.sandbox.enabled turns the sandbox on where the current key is not set, normalised as VS Code does', () => {
    const old = policyOf({ ...DECLARED, 'chat.agent.sandbox': user(true) });
    assert.equal(old.on, true);
    assert.equal(old.reason, 'chat.agent.sandbox is true (an older name of chat.agent.sandbox.enabled)');
    assert.deepEqual(old.network, { kind: 'all' }, 'allowNetwork keeps its default');
    assert.equal(policyOf({ 'chat.agent.sandbox': user('on') }).on, true, 'a VS Code that declares none of the keys');
    assert.equal(policyOf({ ...DECLARED, 'chat.agent.sandbox': user(false) }).on, false);
    const era = policyOf({ ...DECLARED, 'chat.tools.terminal.sandbox.enabled': user(true) });
    assert.equal(era.on, true);
    assert.match(era.reason, /^chat\.tools\.terminal\.sandbox\.enabled is true \(an older name of chat\.agent\.sandbox\.enabled\)/);
    const dshOff = policyOf({ ...DECLARED, 'chat.agent.sandbox': user(true), 'dsh.terminal.sandbox': user('off') });
    assert.equal(dshOff.on, true, 'set by the person: dsh.terminal.sandbox "off" cannot weaken it');
    assert.match(
      dshOff.reason,
      /chat\.agent\.sandbox is true \(an older name of chat\.agent\.sandbox\.enabled\) explicitly; dsh\.terminal\.sandbox "off" cannot weaken it/,
    );
    const policyLocked = policyOf({ 'chat.tools.terminal.sandbox.enabled': { policyValue: true } });
    assert.equal(policyLocked.on, true);
    assert.match(policyLocked.reason, /organisation policy/);
    assert.equal(policyOf({ 'chat.agent.sandbox': user('maybe') }).on, true);
    assert.match(
      policyOf({ 'chat.agent.sandbox': user('maybe') }).problems.join('\n'),
      /chat\.agent\.sandbox has the value "maybe", which VS Code counts as on/,
    );
  });

  it("one key decides: the older names in VS Code's order, the first one set wins", () => {
    const first = policyOf({ ...DECLARED, 'chat.agent.sandbox': user(false), 'chat.tools.terminal.sandbox.enabled': user(true) });
    assert.equal(first.on, false);
    assert.match(first.reason, /chat\.agent\.sandbox is false \(an older name of chat\.agent\.sandbox\.enabled\)/);
  });

  it('a current key the person set wins over every older name ("off" set explicitly stays off); a policy value counts as set', () => {
    for (const layer of ['globalValue', 'workspaceValue', 'workspaceFolderValue'] as const) {
      const off = policyOf({
        ...DECLARED,
        'chat.agent.sandbox.enabled': { defaultValue: 'off', [layer]: 'off' },
        'chat.agent.sandbox': user(true),
        'chat.tools.terminal.sandbox.enabled': user(true),
      });
      assert.equal(off.on, false, layer);
      assert.match(off.reason, /^chat\.agent\.sandbox\.enabled is not "on"/);
    }
    const locked = policyOf({
      ...DECLARED,
      'chat.agent.sandbox.enabled': { defaultValue: 'off', policyValue: 'on' },
      'chat.agent.sandbox': user(false),
    });
    assert.equal(locked.on, true);
    const fsSet = policyOf({
      'dsh.terminal.sandbox': user('on'),
      'chat.agent.sandbox.fileSystem.linux': user({ allowWrite: ['/current'] }),
      'chat.agent.sandboxFileSystem.linux': user({ allowWrite: ['/older'] }),
    });
    assert.deepEqual(fsSet.writableRoots, ['/w/one', '/s/store', '/t/tmp', '/current']);
  });

  it('chat.agent.sandbox holding the current keys beneath it (an object) is not the older setting', () => {
    const p = policyOf({ ...DECLARED, 'chat.agent.sandbox': { globalValue: { enabled: 'off', allowNetwork: false } } });
    assert.equal(p.on, false);
    assert.match(p.reason, /^chat\.agent\.sandbox\.enabled is not "on"/);
  });

  it('a workspace\'s older "off" cannot weaken your user settings\' older "on"', () => {
    const p = policyOf({ ...DECLARED, 'chat.agent.sandbox': { globalValue: true, workspaceValue: false } });
    assert.equal(p.on, true);
    assert.equal(
      policyOf({ ...DECLARED, 'chat.tools.terminal.sandbox.enabled': { globalValue: false, workspaceValue: true } }).on,
      true,
      'a workspace may make it stricter',
    );
  });

  it("file-system rules and domain lists: the current key, else its older names in VS Code's order; problems name the key used", () => {
    const on = { 'dsh.terminal.sandbox': user('on'), 'chat.agent.sandbox.allowNetwork': user(false) };
    const both = policyOf({
      ...on,
      'chat.agent.sandboxFileSystem.linux': user({ allowWrite: ['/a', 'rel'] }),
      'chat.tools.terminal.sandbox.linuxFileSystem': user({ allowWrite: ['/b'] }),
    });
    assert.deepEqual(both.writableRoots, ['/w/one', '/s/store', '/t/tmp', '/a']);
    assert.match(both.problems.join('\n'), /chat\.agent\.sandboxFileSystem\.linux\.allowWrite: "rel" is not an absolute path/);
    assert.deepEqual(policyOf({ ...on, 'chat.tools.terminal.sandbox.linuxFileSystem': user({ denyRead: ['~/.ssh'] }) }).denyRead, [
      '/home/u/.ssh',
    ]);
    assert.deepEqual(policyOf({ ...on, 'chat.tools.terminal.sandbox.macFileSystem': user({ denyRead: ['/m'] }) }, 'darwin').denyRead, [
      '/m',
    ]);

    const domains = policyOf({
      ...on,
      'chat.agent.sandbox.allowedNetworkDomains': user(['a.example']),
      'chat.agent.sandboxNetwork.allowedDomains': user(['b.example']),
      'chat.agent.sandboxNetwork.deniedDomains': user(['bad.example']),
    });
    assert.deepEqual(domains.network, { kind: 'domains', allowedDomains: ['a.example'], deniedDomains: ['bad.example'] });
    const current = policyOf({
      ...on,
      'chat.agent.allowedNetworkDomains': user(['c.example']),
      'chat.agent.sandbox.allowedNetworkDomains': user(['a.example']),
    });
    assert.deepEqual(current.network, { kind: 'domains', allowedDomains: ['c.example'], deniedDomains: [] });
    assert.match(
      policyOf({ ...on, 'chat.agent.sandboxNetwork.deniedDomains': user('x') }).problems.join('\n'),
      /chat\.agent\.sandboxNetwork\.deniedDomains must be a list of strings/,
    );
  });

  it("VS Code 1.109's chat.tools.terminal.sandbox.enabled brings its network rule: blocked but allowedDomains, minus deniedDomains; allowTrustedDomains cannot be honoured", () => {
    const era = (more: Record<string, Layers> = {}) =>
      policyOf({ ...DECLARED, 'chat.tools.terminal.sandbox.enabled': user(true), ...more });
    assert.deepEqual(era().network, { kind: 'domains', allowedDomains: [], deniedDomains: [] }, 'no network without allowedDomains');
    const some = era({
      'chat.tools.terminal.sandbox.network': user({ allowedDomains: ['*.example.com'], deniedDomains: ['bad.example.com'] }),
    });
    assert.deepEqual(some.network, { kind: 'domains', allowedDomains: ['*.example.com'], deniedDomains: ['bad.example.com'] });
    assert.match(
      some.reason,
      /network as in VS Code 1\.109 \(chat\.tools\.terminal\.sandbox\.enabled\): blocked but chat\.tools\.terminal\.sandbox\.network\.allowedDomains \(minus chat\.tools\.terminal\.sandbox\.network\.deniedDomains\)/,
    );
    assert.deepEqual(some.problems, []);
    const trusted = era({ 'chat.tools.terminal.sandbox.network': user({ allowedDomains: ['a.example'], allowTrustedDomains: true }) });
    assert.deepEqual(trusted.network, { kind: 'domains', allowedDomains: ['a.example'], deniedDomains: [] });
    assert.match(
      trusted.problems.join('\n'),
      /chat\.tools\.terminal\.sandbox\.network\.allowTrustedDomains is true.*cannot.*treated as false/,
    );
    // The person's current network keys decide instead.
    assert.deepEqual(era({ 'chat.agent.sandbox.allowNetwork': { defaultValue: true, globalValue: true } }).network, { kind: 'all' });
    assert.deepEqual(
      era({
        'chat.agent.sandbox.allowNetwork': { defaultValue: true, globalValue: false },
        'chat.agent.allowedNetworkDomains': user(['c.example']),
        'chat.tools.terminal.sandbox.network': user({ allowedDomains: ['a.example'] }),
      }).network,
      { kind: 'domains', allowedDomains: ['c.example'], deniedDomains: [] },
    );
    assert.deepEqual(
      era({ 'chat.agent.allowedNetworkDomains': user(['c.example']) }).network,
      { kind: 'domains', allowedDomains: ['c.example'], deniedDomains: [] },
      'domain lists without allowNetwork: still blocked but them',
    );
    // Not when the sandbox is on through another key.
    assert.deepEqual(
      policyOf({
        ...DECLARED,
        'chat.agent.sandbox': user(true),
        'chat.tools.terminal.sandbox.network': user({ allowedDomains: ['a.example'] }),
      }).network,
      { kind: 'all' },
    );
  });

  it('the policy lists each older name read and the current key it stands for, as VS Code warns; none where only current keys are set', () => {
    const p = policyOf({
      ...DECLARED,
      'chat.tools.terminal.sandbox.enabled': user(true),
      'chat.agent.sandboxFileSystem.linux': user({ allowWrite: ['/a'] }),
      'chat.agent.sandboxNetwork.allowedDomains': user(['a.example']),
    });
    assert.deepEqual(p.olderSettings, [
      'chat.tools.terminal.sandbox.enabled is read because chat.agent.sandbox.enabled is not set (its older name; rename it)',
      'chat.agent.sandboxNetwork.allowedDomains is read because chat.agent.allowedNetworkDomains is not set (its older name; rename it)',
      "chat.tools.terminal.sandbox.network.deniedDomains is read because chat.agent.deniedNetworkDomains is not set (VS Code 1.109's network rule)",
      'chat.agent.sandboxFileSystem.linux is read because chat.agent.sandbox.fileSystem.linux is not set (its older name; rename it)',
    ]);
    assert.equal(
      policyOf({ ...DECLARED, 'chat.agent.sandbox.enabled': { defaultValue: 'off', globalValue: 'on' } }).olderSettings,
      undefined,
    );
  });

  it('a change of any key read makes the policy be read again: each is inside a section the change listeners watch', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const keys: string[] = [];
      sandboxSettingValues(reader({ 'chat.tools.terminal.sandbox.enabled': user(true) }, keys), platform);
      assert.ok(keys.length > 10, keys.join(', '));
      // As VS Code's ConfigurationChangeEvent.affectsConfiguration matches: the key or a parent section.
      const uncovered = keys.filter((key) => !SANDBOX_SETTING_SECTIONS.some((s) => key === s || key.startsWith(`${s}.`)));
      assert.deepEqual(uncovered, [], platform);
      for (const older of [
        'chat.agent.sandbox',
        'chat.agent.sandboxFileSystem.linux',
        'chat.agent.sandboxNetwork.allowedDomains',
        'chat.tools.terminal.sandbox.network',
      ]) {
        if (platform === 'linux') assert.ok(keys.includes(older), older);
      }
    }
  });
});
