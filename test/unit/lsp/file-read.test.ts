// Navigation reads only regular files, up to a cap, without ever blocking: the one read helper
// (src/lsp/fileRead.ts), the Node WorkspaceFs on it, and the containment rules (src/lsp/containment.ts),
// on real FIFOs, devices, sockets, /proc files and symbolic links in temp folders.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  NAVIGATION_READ_CAP_BYTES,
  NavigationReadError,
  NavigationReadOptions,
  readNavigationFile,
  readNavigationText,
} from '../../../src/lsp/fileRead';
import { containmentOf, isInsideFolder, OutsideReadConsents, realFolders } from '../../../src/lsp/containment';
import { NodeWorkspaceFs } from '../../../src/lsp/wikilinks/nodeFs';
import { pathToFileUri } from '../../../src/lsp/uri';
import { mkfifo, releaseFifo, unixSocket } from '../../helpers/files';
import { within } from '../../helpers/wait';

/** How long a refusal may take: generous for a loaded machine, far below "hangs forever". */
const PROMPT_MS = 5000;

describe('navigation reads only regular files, up to a cap, without blocking', () => {
  let dir: string;
  const fifos: string[] = [];
  const fifo = (name: string) => {
    const p = mkfifo(path.join(dir, name));
    fifos.push(p);
    return p;
  };
  const write = (name: string, text: string) => {
    const p = path.join(dir, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
    return p;
  };
  const link = (name: string, target: string) => {
    const p = path.join(dir, name);
    fs.symlinkSync(target, p);
    return p;
  };

  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-read-')));
  });
  afterEach(() => {
    // A reader the code under test left blocked on a FIFO would hold a libuv thread: release it.
    fifos.splice(0).forEach(releaseFifo);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // The same rules whichever way the system calls run: on libuv's thread pool (the default) or
  // synchronously on the calling thread (`blocking`, what the note parser's worker uses).
  for (const blocking of [false, true]) {
    describe(blocking ? 'blocking (synchronous calls)' : 'on the thread pool', () => {
      const read = (p: string, options: NavigationReadOptions = {}) => readNavigationFile(p, { ...options, blocking });
      const readText = (p: string) => readNavigationText(p, { blocking });

      it('reads a regular file, through a symbolic link too, and names its real path', async () => {
        const file = write('src/a.ts', '\ufeffexport const a = 1;\n');
        const viaLink = link('alias.ts', file);
        const r = await readText(viaLink);
        assert.equal(r.text, 'export const a = 1;\n', 'UTF-8, byte order mark dropped');
        assert.equal(r.realPath, file);
        assert.equal((await read(path.join(dir, 'src', '..', 'src', 'a.ts'))).realPath, file);
      });

      it('a FIFO named a.ts is refused promptly, saying it is a FIFO and what is read', async () => {
        const p = fifo('a.ts');
        const err = await within(
          PROMPT_MS,
          'reading a FIFO',
          read(p).then(
            () => undefined,
            (e: unknown) => e,
          ),
        );
        assert.ok(err instanceof NavigationReadError, String(err));
        assert.equal(err.reason, 'not_regular_file');
        assert.match(err.message, /a\.ts is a FIFO \(named pipe\): navigation reads regular files only/);
      });

      it('a symbolic link to a FIFO is refused promptly too', async () => {
        const p = fifo('pipe');
        const l = link('b.ts', p);
        await within(PROMPT_MS, 'reading a link to a FIFO', assert.rejects(read(l), /b\.ts \(real path .*pipe\) is a FIFO/));
      });

      it('eight FIFOs read at once do not starve other file operations (libuv has four threads)', async () => {
        const pipes = Array.from({ length: 8 }, (_, i) => fifo(`p${i}.ts`));
        const file = write('ok.ts', 'ok\n');
        const reads = pipes.map((p) =>
          read(p).then(
            () => 'read',
            (e: unknown) => (e as Error).message,
          ),
        );
        // While the eight are in flight, ordinary file-system work still gets a thread.
        assert.equal(await within(PROMPT_MS, 'reading a regular file while FIFOs are read', fsp.readFile(file, 'utf8')), 'ok\n');
        const outcomes = await within(PROMPT_MS, 'the eight FIFO reads', Promise.all(reads));
        for (const o of outcomes) assert.match(o, /is a FIFO/);
      });

      it('/dev/zero, directly and through a workspace link, is refused as a character device (no read at all)', async () => {
        const before = process.memoryUsage().arrayBuffers;
        await within(
          PROMPT_MS,
          'reading /dev/zero',
          assert.rejects(read('/dev/zero'), /\/dev\/zero is a character device: navigation reads regular files only/),
        );
        const l = link('zero.md', '/dev/zero');
        await within(
          PROMPT_MS,
          'reading a link to /dev/zero',
          assert.rejects(read(l), (e: unknown) => e instanceof NavigationReadError && e.reason === 'not_regular_file'),
        );
        assert.ok(process.memoryUsage().arrayBuffers - before < 16 * 1024 * 1024, 'no buffer grew');
      });

      it('/proc/self/environ through a workspace link is refused, and the message holds nothing of the environment', async () => {
        const l = link('notes.md', '/proc/self/environ');
        const err = await read(l).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(err instanceof NavigationReadError, String(err));
        assert.equal(err.reason, 'pseudo_file');
        assert.match(
          err.message,
          /notes\.md \(real path \/proc\/\d+\/environ\) is a kernel pseudo-file under \/proc: navigation does not read \/proc or \/sys files/,
        );
        assert.ok(!err.message.includes('PATH='), 'no environment in the message');
        await assert.rejects(read('/proc/self/status'), /under \/proc/);
      });

      it('a /sys file is refused', async function () {
        const sysFile = '/sys/devices/system/cpu/online';
        if (!fs.existsSync(sysFile)) this.skip();
        await assert.rejects(
          read(link('cpus.ts', sysFile)),
          (e: unknown) => e instanceof NavigationReadError && e.reason === 'pseudo_file' && /under \/sys/.test(e.message),
        );
      });

      it('a socket and a folder are refused, saying what they are', async () => {
        const server = await unixSocket(path.join(dir, 's.sock'));
        try {
          await within(
            PROMPT_MS,
            'reading a socket',
            assert.rejects(read(link('sock.ts', path.join(dir, 's.sock'))), /is a socket: navigation reads regular files only/),
          );
        } finally {
          server.close();
        }
        fs.mkdirSync(path.join(dir, 'folder.ts'));
        await assert.rejects(read(path.join(dir, 'folder.ts')), /folder\.ts is a folder/);
      });

      it(`a file over the cap (${NAVIGATION_READ_CAP_BYTES} bytes) is refused naming the cap; one at the cap is read`, async () => {
        const big = path.join(dir, 'big.ts');
        fs.writeFileSync(big, '');
        fs.truncateSync(big, NAVIGATION_READ_CAP_BYTES + 1); // sparse: no disk used
        await assert.rejects(
          read(big),
          (e: unknown) =>
            e instanceof NavigationReadError && e.reason === 'too_large' && /navigation reads files up to 8 MiB/.test(e.message),
        );
        fs.truncateSync(big, NAVIGATION_READ_CAP_BYTES);
        assert.equal((await read(big)).bytes.length, NAVIGATION_READ_CAP_BYTES);
        const small = write('small.ts', 'x'.repeat(101));
        await assert.rejects(read(small, { maxBytes: 100 }), /larger than 100 bytes: navigation reads files up to 100 bytes/);
        assert.equal((await read(small, { maxBytes: 101 })).bytes.length, 101);
      });

      it('a missing file rejects with ENOENT (callers say "file not found")', async () => {
        await assert.rejects(read(path.join(dir, 'nope.ts')), (e: unknown) => (e as { code?: string }).code === 'ENOENT');
      });
    });
  }

  describe('the Node WorkspaceFs of the wiki-link index reads through it', () => {
    const nodeFs = new NodeWorkspaceFs();
    it('a FIFO note is refused promptly instead of hanging the index', async () => {
      const p = fifo('pipe.md');
      await within(PROMPT_MS, 'NodeWorkspaceFs.readFile of a FIFO', assert.rejects(nodeFs.readFile(pathToFileUri(p)), /is a FIFO/));
    });
    it('a note linked to /proc/self/environ is refused', async () => {
      await assert.rejects(nodeFs.readFile(pathToFileUri(link('env.md', '/proc/self/environ'))), /under \/proc/);
    });
    it('four FIFO notes at once leave the file system usable', async () => {
      const pipes = Array.from({ length: 4 }, (_, i) => fifo(`n${i}.md`));
      const reads = pipes.map((p) => nodeFs.readFile(pathToFileUri(p)).catch(() => undefined));
      const ok = write('ok.md', 'ok\n');
      assert.equal(
        Buffer.from(await within(PROMPT_MS, 'reading a note while FIFO notes are read', nodeFs.readFile(pathToFileUri(ok)))).toString(),
        'ok\n',
      );
      await within(PROMPT_MS, 'the FIFO note reads', Promise.all(reads));
    });
    it('given workspace folders, a note whose real path is outside them is refused', async () => {
      const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-read-out-')));
      try {
        fs.writeFileSync(path.join(outside, 'secret.md'), 'secret\n');
        const vault = path.join(dir, 'vault');
        fs.mkdirSync(vault);
        fs.writeFileSync(path.join(vault, 'in.md'), 'in\n');
        fs.symlinkSync(path.join(outside, 'secret.md'), path.join(vault, 'out.md'));
        const contained = new NodeWorkspaceFs({ workspaceFolders: [vault] });
        assert.equal(Buffer.from(await contained.readFile(pathToFileUri(path.join(vault, 'in.md')))).toString(), 'in\n');
        await assert.rejects(
          contained.readFile(pathToFileUri(path.join(vault, 'out.md'))),
          (e: unknown) =>
            e instanceof NavigationReadError && e.reason === 'outside_workspace' && e.message.includes(path.join(outside, 'secret.md')),
        );
      } finally {
        fs.rmSync(outside, { recursive: true, force: true });
      }
    });
  });
});

describe('workspace containment by real path', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-contain-')));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('isInsideFolder compares whole path segments', () => {
    assert.equal(isInsideFolder('/w/ws/a.ts', '/w/ws'), true);
    assert.equal(isInsideFolder('/w/ws', '/w/ws/'), true);
    assert.equal(isInsideFolder('/w/ws2/a.ts', '/w/ws'), false);
    assert.equal(isInsideFolder('/w/a.ts', '/w/ws'), false);
    assert.equal(isInsideFolder('/etc/passwd', '/'), true);
  });

  it('a ../ path, an absolute path and a symbolic link are judged by where they lead', async () => {
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'src/a.ts'), 'a\n');
    fs.writeFileSync(path.join(dir, 'outside.ts'), 'o\n');
    fs.symlinkSync(path.join(dir, 'outside.ts'), path.join(ws, 'src/link.ts'));
    fs.symlinkSync(dir, path.join(ws, 'up'));
    const folders = await realFolders([ws, path.join(dir, 'missing')]);
    assert.deepEqual(folders, [ws]);
    assert.deepEqual(await containmentOf(path.join(ws, 'src/a.ts'), folders), {
      realPath: path.join(ws, 'src/a.ts'),
      inside: true,
      folder: ws,
    });
    assert.deepEqual(await containmentOf(path.join(ws, 'src/../../outside.ts'), folders), {
      realPath: path.join(dir, 'outside.ts'),
      inside: false,
    });
    assert.deepEqual(await containmentOf(path.join(ws, 'src/link.ts'), folders), {
      realPath: path.join(dir, 'outside.ts'),
      inside: false,
      via: path.join(ws, 'src/link.ts'),
    });
    assert.deepEqual(await containmentOf(path.join(ws, 'up/ws/src/a.ts'), folders), {
      realPath: path.join(ws, 'src/a.ts'),
      inside: true,
      folder: ws,
      via: path.join(ws, 'up/ws/src/a.ts'),
    });
  });

  it('a consent is used once, by the same call and real path, and expires', () => {
    const c = new OutsideReadConsents(1000);
    c.record('call-1', '/etc/hosts', 0);
    assert.equal(c.consume('call-1', '/etc/passwd', 10), false, 'another real path');
    assert.equal(c.consume('call-2', '/etc/hosts', 10), false, 'another call');
    assert.equal(c.consume('call-1', '/etc/hosts', 10), true);
    assert.equal(c.consume('call-1', '/etc/hosts', 20), false, 'used');
    c.record('call-1', '/etc/hosts', 0);
    assert.equal(c.consume('call-1', '/etc/hosts', 1001), false, 'expired');
  });
});
