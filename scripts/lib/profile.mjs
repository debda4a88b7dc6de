// @ts-check
// Throwaway folders and VS Code profiles for one host run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Creates a temporary folder that `scope` removes when it closes; kept (and its path printed)
 * when `outcome.failed` is then true or DSH_KEEP_TMP=1, because it holds the host's logs.
 * @param {import('./cleanup.mjs').CleanupScope} scope
 * @param {{ failed: boolean }} outcome
 */
export function tempDir(scope, outcome) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bridge-host-'));
  scope.add(() => {
    if (outcome.failed || process.env.DSH_KEEP_TMP === '1') console.error(`host: logs kept in ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/**
 * The person's choices the MCP tests rely on (machine-scoped settings): the endpoint on (in
 * Restricted Mode it must still refuse), and one test client name whose side effects run without
 * a dialog.
 */
const MCP_CHOICES = { 'dsh.mcp.enabled': true, 'dsh.mcp.autoApprove': ['dsh-test-approved'] };

/**
 * A throwaway VS Code profile under `tmp`: `user-data` and `extensions` folders. Workspace trust is
 * off when `trusted`; otherwise trust is on, nothing is trusted yet and no dialog asks, so the
 * folder opens in Restricted Mode.
 * @param {string} tmp
 * @param {boolean} trusted
 * @returns {{ userData: string, extensions: string }}
 */
export function makeProfile(tmp, trusted) {
  const userData = path.join(tmp, 'user-data');
  const extensions = path.join(tmp, 'extensions');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.mkdirSync(extensions, { recursive: true });
  fs.writeFileSync(path.join(userData, 'User/settings.json'), JSON.stringify(profileSettings(trusted), null, 2));
  // code-server's window is a remote one: machine-scoped settings apply from its Machine settings
  // (and from User settings only until those are next rewritten), so they go to both.
  fs.mkdirSync(path.join(userData, 'Machine'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'Machine/settings.json'), JSON.stringify(MCP_CHOICES, null, 2));
  return { userData, extensions };
}

/**
 * User settings of a test profile: trust as {@link makeProfile} says, no telemetry, no update
 * checks, no start-up editor. Also used by .vscode-test.mjs.
 * @param {boolean} trusted
 * @returns {Record<string, unknown>}
 */
export function profileSettings(trusted) {
  return {
    ...(trusted
      ? { 'security.workspace.trust.enabled': false }
      : {
          'security.workspace.trust.enabled': true,
          'security.workspace.trust.startupPrompt': 'never',
          'security.workspace.trust.banner': 'never',
          'security.workspace.trust.emptyWindow': false,
        }),
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'workbench.startupEditor': 'none',
    ...MCP_CHOICES,
  };
}
