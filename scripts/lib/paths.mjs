// @ts-check
// Where the launchers find the repository's parts.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (absolute). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The packaged extension `npm run package` writes. */
export const VSIX = path.join(ROOT, 'dist/dsh-bridge.vsix');

/**
 * The extension under development while tests run: a test-only second extension that uses DSH
 * Bridge's API. VS Code runs `extensionTestsPath` only in extension development mode, which needs
 * an `extensionDevelopmentPath` (checked: code-server 4.100.3 ignores extensionTestsPath alone);
 * DSH Bridge itself loads from the installed VSIX, which the suite asserts.
 */
export const API_CONSUMER = path.join(ROOT, 'test/fixtures/api-consumer');

/** The workspace the suite and the demo open. */
export const FIXTURE_WORKSPACE = path.join(ROOT, 'test/fixtures/workspace');

/** The workspace of the first-call suite (test/integration/*.fresh.test.ts), opened in a fresh window. */
export const FRESH_WORKSPACE = path.join(ROOT, 'test/fixtures/fresh');

/** The bundled in-host test runner (esbuild.mjs writes it; test/integration/index.ts). */
export const INTEGRATION_TESTS = path.join(ROOT, 'dist/test/integration/index.js');
