// @ts-check
// The workbench client of a code-server: headless Chromium (Debian's package) driven by
// playwright-core. The extension host starts only when a workbench connects.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { API_CONSUMER } from './paths.mjs';

const CHROMIUM = process.env.DSH_CHROMIUM ?? '/usr/bin/chromium';
/** How long (ms) the workbench page may take to start loading. */
const GOTO_TIMEOUT_MS = 300_000;
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Opens the workbench of `server` in headless Chromium at `folder`. With `testsModule` (an absolute
 * path on this machine) the window runs it as the extension-tests module with
 * test/fixtures/api-consumer as the extension under development; without it the window is a plain
 * one, as a person opens it: no extension under development, and VS Code shows its dialogs
 * (extension-test mode answers them without showing them). Resolves once the page is loading, to
 * `{exitCode, close, page}`: `exitCode` settles with the code VS Code reports when the module's
 * `run()` settled (`window.codeAutomationExit`; never for a plain window); `close()` closes the
 * browser, which `scope` also does; `page` is the Playwright page. `viewport` is the page's size in
 * CSS pixels (default Playwright's 1280x720). The page's console goes to
 * `<tmp>/browser-console.log`.
 * @param {object} o
 * @param {import('./code-server.mjs').CodeServer} o.server
 * @param {string} o.tmp
 * @param {string} o.folder
 * @param {string} [o.testsModule]
 * @param {{ width: number, height: number }} [o.viewport]
 * @param {import('./cleanup.mjs').CleanupScope} o.scope
 * @returns {Promise<{ exitCode: Promise<number>, close: () => Promise<void>, page: import('playwright-core').Page }>}
 */
export async function openWorkbench({ server, tmp, folder, testsModule, viewport, scope }) {
  const { chromium } = await import('playwright-core');
  // Plain paths instead of vscode-remote URIs fail: "No extension host found that can launch the
  // test runner".
  const remote = (/** @type {string} */ p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [
    ...(testsModule === undefined
      ? []
      : [
          ['extensionDevelopmentPath', remote(API_CONSUMER)],
          ['extensionTestsPath', remote(testsModule)],
        ]),
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const url = `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const page = await browser.newPage(viewport ? { viewport } : {});
  // DSH_BROWSER_TRACE=<file>: a Chrome trace of the window (its renderer's main thread: tasks,
  // V8, garbage collection, painting), written when the browser closes; open it in Chrome's
  // Performance panel or read it with scripts/trace-long.mjs.
  const trace = process.env.DSH_BROWSER_TRACE;
  if (trace) await browser.startTracing(page, { path: trace, categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-v8.gc'] });
  const close = async () => {
    if (trace) await browser.stopTracing().catch(() => undefined);
    await browser.close();
  };
  scope.add(close);
  const consoleLog = path.join(tmp, 'browser-console.log');
  page.on('console', (msg) => fs.appendFileSync(consoleLog, `[${msg.type()}] ${msg.text()}\n`));
  page.on('pageerror', (err) => fs.appendFileSync(consoleLog, `[pageerror] ${err.stack ?? err}\n`));
  /** @type {(code: number) => void} */
  let reportExit = () => {};
  /** @type {Promise<number>} */
  const exitCode = new Promise((resolve) => (reportExit = resolve));
  await page.exposeFunction('codeAutomationExit', (/** @type {number} */ code) => reportExit(code));
  // Only the navigation itself is awaited: the suite's end is `exitCode`, bounded by the caller.
  // Playwright's default 30 s was too short for the first response on a loaded machine.
  await page.goto(url, { waitUntil: 'commit', timeout: GOTO_TIMEOUT_MS });
  return { exitCode, close, page };
}
