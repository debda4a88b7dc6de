// `npm run package` writes one VSIX per platform (scripts/package.mjs). Each is opened here as the
// zip it is: its native binaries must be for its own platform only (ELF x86-64 for linux-x64,
// Mach-O x86_64 / arm64 for darwin-x64 / darwin-arm64, none in the universal one), every file must
// be on the allowlist below, and the README it renders must load its pictures from absolute URLs.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as yauzl from 'yauzl';
import { binaryTarget } from '../helpers/nativeBinary';

const ROOT = path.join(__dirname, '../..');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const X = 'extension/node_modules';

/**
 * Each target's native files (exact entry names). The programs among them (all but the `.node`
 * modules, which Node loads with dlopen) must be executable: node-pty starts every shell on macOS
 * through `spawn-helper`, and the agent sandbox on Linux runs `apply-seccomp`.
 */
const NATIVE: Record<string, string[]> = {
  'linux-x64': [`${X}/node-pty/build/Release/pty.node`, `${X}/@anthropic-ai/sandbox-runtime/vendor/seccomp/x64/apply-seccomp`],
  'darwin-x64': [`${X}/node-pty/prebuilds/darwin-x64/pty.node`, `${X}/node-pty/prebuilds/darwin-x64/spawn-helper`],
  'darwin-arm64': [`${X}/node-pty/prebuilds/darwin-arm64/pty.node`, `${X}/node-pty/prebuilds/darwin-arm64/spawn-helper`],
  universal: [],
};

/** Every other entry a VSIX may hold: the manifest, the bundles, and what loads of the external packages. */
const ALLOWED: RegExp[] = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/(package\.json|readme\.md|changelog\.md|LICENSE\.txt|media\/icon\.png)$/,
  /^extension\/dist\/[\w-]+\.js$/,
  /^extension\/node_modules\/node-pty\/(package\.json|LICENSE|lib\/([\w-]+\/)*[\w-]+(?<!\.test)\.js)$/,
  /^extension\/node_modules\/@anthropic-ai\/sandbox-runtime\/(package\.json|LICENSE|dist\/([\w-]+\/)*[\w-]+\.js|vendor\/java-proxy-agent\/srt-proxy-agent\.jar)$/,
  /^extension\/node_modules\/@anthropic-ai\/sandbox-runtime\/node_modules\/zod\/(package\.json|LICENSE|([\w-]+\/)*[\w.-]+\.js)$/,
  /^extension\/node_modules\/@pondwader\/socks5-server\/(package\.json|LICENSE|dist\/index\.m?js)$/,
  /^extension\/node_modules\/commander\/(package\.json|LICENSE|index\.js|esm\.mjs|lib\/[\w-]+\.js)$/,
  /^extension\/node_modules\/node-forge\/(package\.json|LICENSE|lib\/[\w.-]+\.js)$/,
  // tree-sitter's runtime and the bash grammar (WebAssembly), which the auto-approval worker loads.
  /^extension\/node_modules\/@vscode\/tree-sitter-wasm\/(package\.json|LICENSE|wasm\/tree-sitter\.js|wasm\/tree-sitter\.wasm|wasm\/tree-sitter-bash\.wasm)$/,
];

interface Entry {
  name: string;
  /** Unix permission bits (the upper half of the zip's external attributes). */
  mode: number;
  /** The entry's first bytes (up to 512). */
  head: Buffer;
}

/**
 * Every entry of the zip at `file`, with its mode and first bytes, and the whole text of the
 * entries named in `texts`.
 */
async function readZip(file: string, texts: string[]): Promise<{ entries: Entry[]; text: Map<string, string> }> {
  // lazyEntries: each entry comes when asked for, so none is emitted before the listeners exist.
  const zip = await yauzl.openPromise(file, { autoClose: false, lazyEntries: true });
  try {
    const raw: yauzl.Entry[] = [];
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (e: yauzl.Entry) => {
        raw.push(e);
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    });
    const read = async (e: yauzl.Entry, limit: number): Promise<Buffer> => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of await zip.openReadStreamPromise(e)) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size >= limit) break;
      }
      return Buffer.concat(chunks).subarray(0, limit);
    };
    const entries: Entry[] = [];
    const text = new Map<string, string>();
    for (const e of raw) {
      entries.push({ name: e.fileName, mode: (e.externalFileAttributes >>> 16) & 0o7777, head: await read(e, 512) });
      if (texts.includes(e.fileName)) text.set(e.fileName, (await read(e, Number.MAX_SAFE_INTEGER)).toString('utf8'));
    }
    return { entries, text };
  } finally {
    zip.close();
  }
}

describe('npm run package: a VSIX per platform', function () {
  // Four vsce runs after a production build: about 1.5 minutes on a quiet 2-core machine.
  this.timeout(900_000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-vsix-test-'));

  before(async () => {
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/package.mjs'), '--out-dir', out], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  for (const target of Object.keys(NATIVE)) {
    it(`${target}: its native binaries are for ${target} only, and every other file is on the allowlist`, async () => {
      const { entries, text } = await readZip(path.join(out, `dsh-bridge-${target}-${VERSION}.vsix`), ['extension.vsixmanifest']);
      const names = entries.map((e) => e.name);
      const natives = entries.filter((e) => binaryTarget(e.head) !== undefined);
      assert.deepEqual(
        natives.map((e) => `${e.name}: ${binaryTarget(e.head)}`).sort(),
        NATIVE[target]!.map((n) => `${n}: ${target}`).sort(),
        'the native binaries and the platform each is for',
      );
      for (const name of NATIVE[target]!.filter((n) => !n.endsWith('.node'))) {
        assert.equal(entries.find((e) => e.name === name)!.mode & 0o111, 0o111, `${name} is executable`);
      }
      const outside = names.filter((n) => !NATIVE[target]!.includes(n) && !ALLOWED.some((re) => re.test(n)));
      assert.deepEqual(outside, [], 'files outside the allowlist');
      for (const must of [
        'extension/dist/extension.js',
        'extension/dist/mcp-bridge.js',
        `${X}/node-pty/lib/index.js`,
        'extension/media/icon.png',
        'extension/dist/approvalWorker.js',
        `${X}/@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm`,
      ]) {
        assert.ok(names.includes(must), `holds ${must}`);
      }
      const manifest = text.get('extension.vsixmanifest') ?? '';
      if (target === 'universal') assert.doesNotMatch(manifest, /TargetPlatform=/);
      else assert.match(manifest, new RegExp(`TargetPlatform="${target}"`));
    });
  }

  it('the README the extension page renders loads its pictures from absolute URLs and links nowhere relative', async () => {
    const { text } = await readZip(path.join(out, `dsh-bridge-linux-x64-${VERSION}.vsix`), ['extension/readme.md']);
    const readme = text.get('extension/readme.md') ?? '';
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    assert.ok(images.length >= 3, `the README shows its pictures (${images.length} found)`);
    for (const src of images) assert.match(src, /^https:\/\/raw\.githubusercontent\.com\/[\w-]+\/[\w-]+\/main\/media\/[\w-]+\.png$/, src);
    const relative = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((href) => !/^(https:\/\/|#)/.test(href));
    assert.deepEqual(relative, [], 'links that would not resolve on the extension page');
    assert.ok(readme.split('\n').length <= 250, 'the README is at most 250 lines');
  });
});
