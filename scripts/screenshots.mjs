// @ts-check
// `npm run screenshots`: takes the pictures README.md opens with, in the real host, and writes them
// to media/ as PNG. It packages the VSIX, installs it into code-server with VS Code 1.139 (the
// newest tested host, installed on first use into ~/.cache/dsh-bridge; `-- --vscode 1.100` or
// DSH_VSCODE_VERSIONS picks another), opens a plain window (not extension-test mode, so VS Code
// shows its dialogs) in headless Chromium at a 1280x800 viewport with the default dark theme, on a
// small workspace it writes to <tmpdir>/dsh-bridge-screenshots/greeter (a fixed path, so the
// pictures do not change from run to run). Then it plays an agent outside Copilot: the MCP SDK's
// Client, named "demo-agent", launching the stdio bridge shipped in the VSIX with the window's
// DSH_BRIDGE_MCP as a new integrated terminal of the window has it. It opens a session, asks to run
// `node --test --watch` and takes:
//   media/confirmation.png  the approval dialog showing the exact command, before it is allowed;
//   media/take-over.png     the window with the agent's session in the terminal panel, after a
//                           key was typed into it, offering Take Over;
//   media/status-bar.png    the extension's status bar item with its tooltip.
// Everything it starts (code-server, Chromium, the bridge, the session, the workspace and the
// profile) is stopped and removed when it ends, fails, times out (DSH_SCREENSHOTS_TIMEOUT_MS,
// default 15 minutes) or is interrupted.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanupScope, guard, shutdown, sleep } from './lib/cleanup.mjs';
import { startCodeServer } from './lib/code-server.mjs';
import { describeHost, requestedVersions, resolveHost } from './lib/hosts.mjs';
import { packageVsix } from './lib/package-vsix.mjs';
import { ROOT } from './lib/paths.mjs';
import { tempDir } from './lib/profile.mjs';
import { openWorkbench } from './lib/workbench.mjs';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {{ x: number, y: number, width: number, height: number }} Box */

const MEDIA = path.join(ROOT, 'media');
const VIEWPORT = { width: 1280, height: 800 };
/** The MCP client name the dialogs and the panel show. */
const CLIENT_NAME = 'demo-agent';
/** The command the agent asks to run: a test watcher, so the session stays busy. */
const COMMAND = 'node --test --watch';
/** How an agent session's panel terminal is named: this, its session id, its client's name. */
const MIRROR_PREFIX = 'DSH';
/** The environment variable the extension sets in the window's integrated terminals. */
const ENDPOINT_ENV = 'DSH_BRIDGE_MCP';
/** How long (ms) one step in the window may take (a loaded machine is slow). */
const STEP_TIMEOUT_MS = 120_000;
/** How long (ms) the workbench may take to appear (it starts the extension host first). */
const LOAD_TIMEOUT_MS = 300_000;

/** The small project the window opens: a module and its tests, for `node --test`. */
const WORKSPACE_FILES = {
  'package.json': `${JSON.stringify({ name: 'greeter', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
  'greet.mjs': `/** "Hello, <name>!" for a name with surrounding spaces removed. */
export function greet(name) {
  return \`Hello, \${name.trim()}!\`;
}
`,
  'greet.test.mjs': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { greet } from './greet.mjs';

test('greets by name', () => {
  assert.equal(greet('Ada'), 'Hello, Ada!');
});

test('trims the name', () => {
  assert.equal(greet('  Grace '), 'Hello, Grace!');
});
`,
  'README.md': '# greeter\n\n`npm test` runs the tests.\n',
};

/** User settings of the window: the default dark theme and a quiet, deterministic layout. */
const WINDOW_SETTINGS = {
  'workbench.colorTheme': 'Default Dark Modern',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'extensions.ignoreRecommendations': true,
  'update.showReleaseNotes': false,
  'editor.minimap.enabled': false,
  'editor.lightbulb.enabled': 'off',
  // The DOM renderer: the terminal's text can be waited for, and headless Chromium has no GPU.
  'terminal.integrated.gpuAcceleration': 'off',
  'terminal.integrated.enablePersistentSessions': false,
  // A loaded machine may take longer than the default 30 s to reach the session's first prompt.
  'dsh.terminal.openTimeoutMs': 120_000,
};

const timeoutMs = Number(process.env.DSH_SCREENSHOTS_TIMEOUT_MS ?? 900_000);
const outcome = { failed: true };
guard(timeoutMs, (why) => `screenshots: ${why}`);
/** Where a failed run leaves what the window showed (the run's kept temporary folder). */
/** @type {{ page: Page, file: string } | undefined} */
let failureShot;

try {
  const host = resolveHost(requestedVersions(process.argv.slice(2), ['1.139']));
  if (host.kind !== 'code-server')
    throw new Error('screenshots need a code-server host (the workbench runs in headless Chromium); unset DSH_VSCODE_EXECUTABLE');
  console.error(`screenshots: ${describeHost(host)}`);
  const vsix = packageVsix();
  const scope = cleanupScope();
  const tmp = tempDir(scope, outcome);
  const folder = writeWorkspace(scope);
  const probeFile = path.join(tmp, 'endpoint');

  const server = await startCodeServer({ host, tmp, vsix, env: {}, trusted: true, extensionTests: false, scope });
  addSettings(server.profile.userData, {
    ...WINDOW_SETTINGS,
    // A new terminal writes the value the extension gives the window's terminals, then exits.
    'terminal.integrated.profiles.linux': {
      'endpoint probe': { path: '/bin/sh', args: ['-c', `printf %s "$${ENDPOINT_ENV}" > "$0.tmp" && mv "$0.tmp" "$0"`, probeFile] },
    },
    'terminal.integrated.defaultProfile.linux': 'endpoint probe',
  });
  console.error(`screenshots: code-server listening on ${server.url}, opening ${folder}`);
  const { page } = await openWorkbench({ server, tmp, folder, viewport: VIEWPORT, scope });
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  failureShot = { page, file: path.join(tmp, 'failure.png') };
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: LOAD_TIMEOUT_MS });
  await openFile(page, 'greet.test.mjs');

  const endpoint = await endpointFromTerminal(page, probeFile);
  // A plain shell may remain (a terminal opened before the probe profile was in force, or the one
  // VS Code opens in a visible, empty terminal panel): hide the panel, then close every terminal.
  // The panel toggle's key (Ctrl+J), since the palette may not list "View: Hide Panel" while a
  // terminal in the panel holds the focus.
  if (await page.locator('.part.panel').isVisible()) {
    await page.locator('.tabs-container .tab.active').click();
    await page.keyboard.press('Control+J');
    await page.locator('.part.panel').waitFor({ state: 'hidden' });
  }
  await runCommand(page, 'Terminal: Kill All Terminals');
  const agent = await connectAgent(server.profile.extensions, endpoint, scope);

  console.error('screenshots: the agent opens a session');
  const opened = agent.callTool({ name: 'dsh_terminal_open', arguments: { name: 'tests' } }, undefined, { timeout: 3 * STEP_TIMEOUT_MS });
  await answerDialog(page, 'Open an agent terminal?', 'Allow Once');
  const { sessionId } = JSON.parse(firstText(await opened));

  console.error(`screenshots: the agent asks to run ${COMMAND} in ${sessionId}`);
  const sent = agent.callTool({ name: 'dsh_terminal_send', arguments: { sessionId, input: COMMAND, timeoutMs: 4000 } }, undefined, {
    timeout: 3 * STEP_TIMEOUT_MS,
  });
  const dialog = await waitForDialog(page, `Run in agent terminal ${sessionId}?`);
  await dialog.getByText(COMMAND, { exact: false }).first().waitFor();
  await capture(page, 'confirmation.png', await padded(page, [await boxOf(dialog)], 8));
  await dialog.getByRole('button', { name: 'Allow Once' }).click();
  const result = JSON.parse(firstText(await sent));
  console.error(`screenshots: the send returned ${result.waitReason} (the watcher keeps running)`);

  await showTerminal(page, `${MIRROR_PREFIX} ${sessionId} · ${CLIENT_NAME}`);
  const terminal = page.locator('.terminal-wrapper.active .xterm');
  await terminal.locator('.xterm-rows', { hasText: 'pass 2' }).waitFor();
  await growPanel(page, 3); // room for the command line above the test report
  await runCommand(page, 'Notifications: Clear All Notifications');
  await terminal.click();
  await page.keyboard.type('q'); // the person types: the read-only session offers Take Over
  const toast = page.locator('.notification-toast', { hasText: 'Take it over to type into it?' });
  await toast.getByRole('button', { name: 'Take Over' }).waitFor();
  await settle(page);
  await capture(page, 'take-over.png', undefined);

  await runCommand(page, 'Notifications: Clear All Notifications');
  const item = page.locator('.part.statusbar .statusbar-item', { hasText: /\d+ agents? · \d+ busy/ });
  await item.hover();
  const hover = page.locator('.workbench-hover-container, .monaco-hover', { hasText: `${sessionId} tests: busy` }).first();
  await hover.waitFor();
  await settle(page);
  // The status bar's left end up to the item, with the tooltip above it.
  const statusBar = await boxOf(page.locator('.part.statusbar'));
  await capture(page, 'status-bar.png', await padded(page, [{ ...statusBar, width: 1 }, await boxOf(item), await boxOf(hover)], 8));

  await agent.close(); // the client disconnects: the extension closes its session,
  await item.waitFor({ state: 'hidden' }); // and the status bar item goes with the last one
  outcome.failed = false;
  await shutdown(0, `screenshots: wrote ${['confirmation.png', 'take-over.png', 'status-bar.png'].map((f) => `media/${f}`).join(', ')}`);
} catch (err) {
  if (failureShot) {
    const { page, file } = failureShot;
    await page.screenshot({ path: file, timeout: 10_000 }).then(
      () => console.error(`screenshots: the window at the failure: ${file}`),
      () => {},
    );
  }
  await shutdown(1, `screenshots: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}

/**
 * Writes {@link WORKSPACE_FILES} to <tmpdir>/dsh-bridge-screenshots/greeter (replacing what an
 * earlier, interrupted run left there) and has `scope` remove it. Returns the folder.
 * @param {import('./lib/cleanup.mjs').CleanupScope} scope
 */
function writeWorkspace(scope) {
  const parent = path.join(os.tmpdir(), 'dsh-bridge-screenshots');
  fs.rmSync(parent, { recursive: true, force: true });
  const folder = path.join(parent, 'greeter');
  fs.mkdirSync(folder, { recursive: true });
  scope.add(() => fs.rmSync(parent, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(WORKSPACE_FILES)) fs.writeFileSync(path.join(folder, name), text);
  return folder;
}

/**
 * Adds `settings` to the profile's user settings, and to its machine settings (code-server's
 * window is a remote one: terminal profiles are resolved on the remote side).
 * @param {string} userData
 * @param {Record<string, unknown>} settings
 */
function addSettings(userData, settings) {
  for (const file of [path.join(userData, 'User/settings.json'), path.join(userData, 'Machine/settings.json')]) {
    const current = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    fs.writeFileSync(file, JSON.stringify({ ...current, ...settings }, null, 2));
  }
}

/**
 * Runs the workbench command titled `title` through the command palette (F1).
 * @param {Page} page
 * @param {string} title  the exact title shown in the palette, e.g. "Terminal: Focus Terminal"
 */
async function runCommand(page, title) {
  await pick(page, 'F1', `>${title}`, title);
}

/**
 * Opens the workspace file `name` (at the folder's top level) from the Explorer and waits for its
 * editor tab. Quick Open is not used: right after start-up its file search may answer "No matching
 * results" and does not refresh.
 * @param {Page} page
 * @param {string} name
 */
async function openFile(page, name) {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }).dblclick();
  await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
}

/**
 * Shows the panel terminal whose name starts with `title` through Quick Open's terminal list
 * ("term ", entries labelled "<icon> <group>: <name>"), which makes it the active terminal without
 * creating one (as "Terminal: Focus Terminal" does when no terminal is active).
 * @param {Page} page
 * @param {string} title
 */
async function showTerminal(page, title) {
  await pick(page, 'Control+P', `term ${title}`, new RegExp(`^\\s*(\\d+(\\.\\d+)?: )?${escapeRegExp(title)}`));
  await page.locator('.part.panel .terminal-wrapper.active').waitFor();
}

/**
 * Opens the quick input with the key `open`, types `query` and accepts the entry whose label is
 * exactly `label` (or matches it, for a regular expression). An entry that is not there within
 * 10 s (a command whose part of the workbench is still starting; the list does not refresh) is
 * looked for again in a newly opened quick input, for up to one step's time; so is one that could not
 * be clicked because the quick input closed.
 * @param {Page} page
 * @param {string} open  e.g. "F1" or "Control+P"
 * @param {string} query
 * @param {string | RegExp} label
 */
async function pick(page, open, query, label) {
  const widget = page.locator('.quick-input-widget');
  const match = typeof label === 'string' ? new RegExp(`^${escapeRegExp(label)}$`) : label;
  const entry = widget
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: match }) })
    .first();
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    await page.keyboard.press(open);
    await widget.locator('input.input').fill(query);
    // The quick input can also close under the click (a terminal taking focus as it starts): then
    // the whole pick is tried again.
    const picked = await entry
      .waitFor({ timeout: 10_000 })
      .then(() => entry.click({ timeout: 10_000 }))
      .then(
        () => true,
        (/** @type {unknown} */ e) => {
          if (Date.now() > deadline) throw e;
          return false;
        },
      );
    if (picked) break;
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden' });
  }
  await widget.waitFor({ state: 'hidden' });
}

/** `text` with the characters that are special in a regular expression escaped. */
function escapeRegExp(/** @type {string} */ text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The value of DSH_BRIDGE_MCP as a new integrated terminal of the window has it: new terminals
 * (the "endpoint probe" profile) are opened until one writes a value to `probeFile`. The extension
 * activates on startup and the value reaches new terminals asynchronously, and on a loaded machine
 * the first terminal may not start at all, hence a new terminal every 15 s without an answer and
 * every 0.5 s after an empty one, for up to three steps' time.
 * @param {Page} page
 * @param {string} probeFile
 */
async function endpointFromTerminal(page, probeFile) {
  const deadline = Date.now() + 3 * STEP_TIMEOUT_MS;
  for (;;) {
    fs.rmSync(probeFile, { force: true });
    await runCommand(page, 'Terminal: Create New Terminal');
    const answerBy = Date.now() + 15_000;
    while (!fs.existsSync(probeFile) && Date.now() < answerBy) await sleep(100);
    const value = fs.existsSync(probeFile) ? fs.readFileSync(probeFile, 'utf8') : undefined;
    if (value) return value;
    if (Date.now() > deadline) {
      throw new Error(
        value === undefined
          ? 'no integrated terminal ran the endpoint probe'
          : `${ENDPOINT_ENV} never reached the window's integrated terminals; is dsh.mcp.enabled on?`,
      );
    }
    if (value === '') await sleep(500);
  }
}

/**
 * Connects the MCP SDK's Client named {@link CLIENT_NAME} through the stdio bridge of the installed
 * extension (under `extensionsDir`) to the window `endpoint` names. `scope` closes it (which ends
 * the bridge).
 * @param {string} extensionsDir
 * @param {string} endpoint
 * @param {import('./lib/cleanup.mjs').CleanupScope} scope
 */
async function connectAgent(extensionsDir, endpoint, scope) {
  const installed = fs.readdirSync(extensionsDir).find((d) => d.startsWith('dsh.dsh-bridge-'));
  if (!installed) throw new Error(`DSH Bridge is not installed in ${extensionsDir}`);
  const bridge = path.join(extensionsDir, installed, 'dist/mcp-bridge.js');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bridge],
    env: { PATH: process.env.PATH ?? '', [ENDPOINT_ENV]: endpoint },
    stderr: 'inherit',
  });
  const client = new Client({ name: CLIENT_NAME, version: '1.0.0' });
  scope.add(() => client.close());
  await client.connect(transport);
  return client;
}

/**
 * The text of a tool result's first content item; throws with it when the call failed.
 * @param {unknown} result  what Client.callTool resolved to
 */
function firstText(result) {
  const r = /** @type {{ content?: { type: string, text?: string }[], isError?: boolean }} */ (result);
  const text = r.content?.[0]?.type === 'text' ? (r.content[0].text ?? '') : '';
  if (r.isError) throw new Error(`the tool call failed: ${text}`);
  return text;
}

/**
 * The modal dialog whose text holds `title`, once shown.
 * @param {Page} page
 * @param {string} title
 */
async function waitForDialog(page, title) {
  const dialog = page.locator('.monaco-dialog-box', { hasText: title });
  await dialog.waitFor();
  await settle(page);
  return dialog;
}

/**
 * Waits for the modal dialog holding `title` and presses its button `button`.
 * @param {Page} page
 * @param {string} title
 * @param {string} button
 */
async function answerDialog(page, title, button) {
  const dialog = await waitForDialog(page, title);
  await dialog.getByRole('button', { name: button }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * Lets animations (dialogs, toasts, hovers fade in) and the terminal's rendering finish.
 * @param {Page} page
 */
async function settle(page) {
  await page.waitForTimeout(800);
}

/**
 * Makes the focused panel taller by `steps` times "Increase Current View Size" (60 CSS pixels
 * each in VS Code); throws when it did not grow.
 * @param {Page} page
 * @param {number} steps
 */
async function growPanel(page, steps) {
  const panel = page.locator('.part.panel');
  const before = await boxOf(panel);
  for (let i = 0; i < steps; i++) await runCommand(page, 'Increase Current View Size');
  const after = await boxOf(panel);
  if (after.height <= before.height) throw new Error(`the panel did not grow (height ${before.height} -> ${after.height})`);
}

/**
 * The bounding box of `locator`'s element (CSS pixels); throws when it is not visible.
 * @param {import('playwright-core').Locator} locator
 * @returns {Promise<Box>}
 */
async function boxOf(locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${String(locator)} is not visible`);
  return box;
}

/**
 * The smallest box holding `boxes`, grown by `margin` on every side and kept inside the viewport.
 * @param {Page} page
 * @param {Box[]} boxes
 * @param {number} margin  CSS pixels
 * @returns {Promise<Box>}
 */
async function padded(page, boxes, margin) {
  const size = page.viewportSize() ?? VIEWPORT;
  const x = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.x)) - margin));
  const y = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.y)) - margin));
  const right = Math.min(size.width, Math.ceil(Math.max(...boxes.map((b) => b.x + b.width)) + margin));
  const bottom = Math.min(size.height, Math.ceil(Math.max(...boxes.map((b) => b.y + b.height)) + margin));
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * Saves a PNG of the page (only `clip` when given) as media/`name` and prints its size.
 * @param {Page} page
 * @param {string} name
 * @param {Box | undefined} clip
 */
async function capture(page, name, clip) {
  const file = path.join(MEDIA, name);
  await page.screenshot({ path: file, type: 'png', ...(clip ? { clip } : {}), animations: 'disabled' });
  console.error(`screenshots: media/${name} (${Math.round(fs.statSync(file).size / 1024)} KiB)`);
}
