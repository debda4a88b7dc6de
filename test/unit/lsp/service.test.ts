// Rules of the navigation seam (src/lsp/service.ts, src/lsp/types.ts): atomic registration,
// extension validation, disposal, the fallback provider, selection by extension, languageId
// derivation, errors.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  assertNever,
  isLspError,
  LSP_OPERATIONS,
  LspError,
  LspOperation,
  LspProvider,
  LspRequest,
  LspResult,
} from '../../../src/lsp/types';
import { LspService } from '../../../src/lsp/service';
import { extensionOfUri } from '../../../src/lsp/uri';

/** A provider that records the requests it receives and answers a fixed result per operation. */
class RecordingProvider implements LspProvider {
  readonly requests: LspRequest[] = [];
  constructor(
    readonly id: string,
    readonly extensions: Record<string, string>,
  ) {}
  async query(request: LspRequest): Promise<LspResult> {
    this.requests.push(request);
    if (request.operation === 'hover') return { kind: 'hover', contents: `${this.id} hover` };
    return {
      kind: 'locations',
      locations: [{ uri: request.uri, range: { start: request.position, end: request.position } }],
      resolvedWorkspaceUri: 'file:///ws',
    };
  }
}

const signal = () => new AbortController().signal;
const q = (uri: string, operation: LspOperation = 'goToDefinition') => ({
  operation,
  uri,
  position: { line: 0, character: 0 },
  workspaceUri: 'file:///ws',
});

function registrationError(fn: () => unknown): LspError {
  try {
    fn();
  } catch (e) {
    assert.ok(isLspError(e), `expected an LspError, got ${String(e)}`);
    assert.equal(e.code, 'invalid_registration');
    return e;
  }
  assert.fail('expected registerProvider to throw');
}

describe('lsp seam: LspService', () => {
  describe('registration', () => {
    it('registers a provider and describes it with its extensions', () => {
      const s = new LspService();
      s.registerProvider(new RecordingProvider('md-links', { '.md': 'markdown', '.markdown': 'markdown' }));
      s.registerProvider(new RecordingProvider('code', { '.ts': 'typescript' }));
      assert.deepEqual(s.describe(), {
        providers: [
          { id: 'code', extensions: [{ extension: '.ts', languageId: 'typescript' }] },
          {
            id: 'md-links',
            extensions: [
              { extension: '.markdown', languageId: 'markdown' },
              { extension: '.md', languageId: 'markdown' },
            ],
          },
        ],
      });
      assert.deepEqual(s.servedExtensions(), ['.markdown', '.md', '.ts']);
    });

    it('rejects upper-case extensions and case duplicates inside one provider (.TS and .ts), reserving nothing', () => {
      const s = new LspService();
      const e = registrationError(() =>
        s.registerProvider(new RecordingProvider('p', { '.ts': 'typescript', '.TS': 'typescript', '.js': 'javascript' })),
      );
      const problems = e.details.problems as string[];
      assert.ok(
        problems.some((p) => p.includes("'.TS' is not lower case")),
        problems.join('\n'),
      );
      assert.ok(
        problems.some((p) => p.includes("'.TS' duplicates '.ts'")),
        problems.join('\n'),
      );
      assert.match(e.message, /cannot register navigation provider 'p'/);
      // Atomic: neither the valid .js nor the id was reserved.
      assert.deepEqual(s.describe().providers, []);
      s.registerProvider(new RecordingProvider('p', { '.js': 'javascript' }));
    });

    it('rejects invalid extension shapes with what is valid', () => {
      const s = new LspService();
      for (const bad of ['ts', '.d.ts', '.', '. ts', '.a/b', '']) {
        const e = registrationError(() => s.registerProvider(new RecordingProvider('p', { [bad]: 'x' })));
        assert.match(e.message, /one leading dot and no other dot/, bad);
      }
      assert.deepEqual(s.describe().providers, []);
    });

    it('rejects an empty extension map, a bad languageId, a bad id and a missing query function', () => {
      const s = new LspService();
      assert.match(registrationError(() => s.registerProvider(new RecordingProvider('p', {}))).message, /at least one extension/);
      assert.match(registrationError(() => s.registerProvider(new RecordingProvider('p', { '.md': '' }))).message, /languageId for '.md'/);
      assert.match(
        registrationError(() => s.registerProvider(new RecordingProvider('has space', { '.md': 'markdown' }))).message,
        /id "has space" is invalid/,
      );
      assert.match(
        registrationError(() => s.registerProvider({ id: 'p', extensions: { '.md': 'markdown' } } as unknown as LspProvider)).message,
        /query must be a function/,
      );
      assert.match(registrationError(() => s.registerProvider(null as unknown as LspProvider)).message, /must be an object/);
      assert.deepEqual(s.describe().providers, []);
    });

    it('rejects a conflict with another provider atomically: the non-conflicting extensions stay free', () => {
      const s = new LspService();
      s.registerProvider(new RecordingProvider('a', { '.md': 'markdown' }));
      const e = registrationError(() => s.registerProvider(new RecordingProvider('b', { '.txt': 'plaintext', '.md': 'markdown' })));
      assert.match(e.message, /'.md' is already served by provider 'a'/);
      assert.equal(s.providerFor('file:///x.txt'), undefined, '.txt must not have been reserved');
      assert.deepEqual(
        s.describe().providers.map((p) => p.id),
        ['a'],
      );
    });

    it('rejects a duplicate id', () => {
      const s = new LspService();
      s.registerProvider(new RecordingProvider('a', { '.md': 'markdown' }));
      assert.match(
        registrationError(() => s.registerProvider(new RecordingProvider('a', { '.txt': 'plaintext' }))).message,
        /id 'a' is already registered/,
      );
    });

    it('the disposer frees the id and every extension together, is idempotent, and never frees a later registration', () => {
      const s = new LspService();
      const d = s.registerProvider(new RecordingProvider('a', { '.md': 'markdown', '.markdown': 'markdown' }));
      d.dispose();
      assert.deepEqual(s.describe().providers, []);
      assert.deepEqual(s.servedExtensions(), []);
      const later = new RecordingProvider('a', { '.md': 'markdown' });
      s.registerProvider(later);
      d.dispose(); // second dispose of the old registration must not remove the new one
      assert.equal(s.providerFor('file:///n.md')?.providerId, 'a');
      assert.deepEqual(s.servedExtensions(), ['.md']);
    });

    it('copies the extension map at registration: later mutation changes nothing', async () => {
      const s = new LspService();
      const p = new RecordingProvider('a', { '.md': 'markdown' });
      s.registerProvider(p);
      p.extensions['.txt'] = 'plaintext';
      p.extensions['.md'] = 'other';
      await assert.rejects(s.query(q('file:///x.txt'), signal()), (e: LspError) => e.code === 'no_provider');
      await s.query(q('file:///x.md'), signal());
      assert.equal(p.requests[0]!.languageId, 'markdown');
    });
  });

  describe('selection', () => {
    it('picks the provider by extension on every call, independent of registration order', async () => {
      for (const order of [
        ['md', 'ts'],
        ['ts', 'md'],
      ]) {
        const s = new LspService();
        const providers = {
          md: new RecordingProvider('md', { '.md': 'markdown' }),
          ts: new RecordingProvider('ts', { '.ts': 'typescript', '.tsx': 'typescriptreact' }),
        };
        for (const k of order) s.registerProvider(providers[k as 'md' | 'ts']);
        await s.query(q('file:///ws/a.ts'), signal());
        await s.query(q('file:///ws/b.md'), signal());
        await s.query(q('file:///ws/c.tsx'), signal());
        assert.deepEqual(
          providers.ts.requests.map((r) => [r.uri, r.languageId]),
          [
            ['file:///ws/a.ts', 'typescript'],
            ['file:///ws/c.tsx', 'typescriptreact'],
          ],
        );
        assert.deepEqual(
          providers.md.requests.map((r) => [r.uri, r.languageId]),
          [['file:///ws/b.md', 'markdown']],
        );
      }
    });

    it('foo.d.ts is served by .ts; upper-case file extensions match', async () => {
      const s = new LspService();
      const ts = new RecordingProvider('ts', { '.ts': 'typescript' });
      s.registerProvider(ts);
      await s.query(q('file:///ws/types/foo.d.ts'), signal());
      await s.query(q('file:///ws/OLD.TS'), signal());
      assert.equal(ts.requests.length, 2);
      assert.equal(extensionOfUri('file:///ws/foo.d.ts'), '.ts');
    });

    it('dotfiles have no extension and match nothing, even with a provider for that name', async () => {
      const s = new LspService();
      s.registerProvider(new RecordingProvider('sh', { '.bashrc': 'shellscript', '.sh': 'shellscript' }));
      assert.equal(extensionOfUri('file:///home/me/.bashrc'), undefined);
      await assert.rejects(s.query(q('file:///home/me/.bashrc'), signal()), (e: LspError) => {
        assert.equal(e.code, 'no_provider');
        assert.match(e.message, /'.bashrc' has no file extension; extensions served: .bashrc, .sh/);
        return true;
      });
      assert.equal(extensionOfUri('file:///home/me/.config.sh'), '.sh');
    });

    it('a file type with no provider is an explicit "no provider for .xyz" error listing what is served (L06)', async () => {
      const s = new LspService();
      s.registerProvider(new RecordingProvider('md', { '.md': 'markdown' }));
      await assert.rejects(s.query(q('file:///ws/data.xyz'), signal()), (e: unknown) => {
        assert.ok(isLspError(e));
        assert.equal(e.code, 'no_provider');
        assert.equal(e.message, 'no navigation provider for .xyz; extensions served: .md');
        assert.deepEqual(e.details, { extension: '.xyz', servedExtensions: ['.md'] });
        return true;
      });
      const empty = new LspService();
      await assert.rejects(empty.query(q('file:///ws/a.md'), signal()), /no provider is registered/);
    });

    it('decodes the URI path before taking the extension (spaces, #, %, +, non-ASCII)', async () => {
      const s = new LspService();
      const ts = new RecordingProvider('ts', { '.ts': 'typescript' });
      s.registerProvider(ts);
      const uri = 'file:///ws/docs/My%20Notes%20%231/a%25b%2Bc.ts';
      await s.query(q(uri), signal());
      assert.equal(ts.requests[0]!.uri, uri, 'the request URI is handed over unchanged');
    });

    it('hands over a complete request: languageId derived from the provider, position copied', async () => {
      const s = new LspService();
      const md = new RecordingProvider('md', { '.md': 'markdown' });
      s.registerProvider(md);
      const query = {
        operation: 'hover' as const,
        uri: 'file:///ws/a.md',
        position: { line: 3, character: 7 },
        workspaceUri: 'file:///ws',
      };
      const result = await s.query(query, signal());
      assert.deepEqual(result, { kind: 'hover', contents: 'md hover' });
      assert.deepEqual(md.requests[0], { ...query, languageId: 'markdown' });
    });
  });

  describe('requests, results and errors', () => {
    it('validates the request and says what is valid', async () => {
      const s = new LspService();
      s.registerProvider(new RecordingProvider('md', { '.md': 'markdown' }));
      await assert.rejects(
        s.query(
          { operation: 'rename' as LspOperation, uri: 'file:///a.md', position: { line: 0, character: 0 }, workspaceUri: 'file:///' },
          signal(),
        ),
        /operation "rename" is not one of goToDefinition, findReferences, goToImplementation, hover/,
      );
      await assert.rejects(
        s.query({ operation: 'hover', uri: 'file:///a.md', position: { line: -1, character: 0.5 }, workspaceUri: 'file:///' }, signal()),
        (e: LspError) =>
          e.code === 'invalid_request' &&
          /position.line must be an integer ≥ 0, 0-based/.test(e.message) &&
          /position.character/.test(e.message),
      );
      await assert.rejects(
        s.query({ operation: 'hover', uri: 'a.md', position: { line: 0, character: 0 }, workspaceUri: 'file:///' }, signal()),
        /uri: not a URI/,
      );
    });

    it('rejects with cancelled when the signal is already aborted', async () => {
      const s = new LspService();
      const md = new RecordingProvider('md', { '.md': 'markdown' });
      s.registerProvider(md);
      const ac = new AbortController();
      ac.abort();
      await assert.rejects(s.query(q('file:///a.md'), ac.signal), (e: LspError) => e.code === 'cancelled');
      assert.equal(md.requests.length, 0);
    });

    it('wraps a provider crash as provider_failed and checks the result kind', async () => {
      const s = new LspService();
      s.registerProvider({
        id: 'broken',
        extensions: { '.md': 'markdown' },
        query: async () => {
          throw new TypeError('boom');
        },
      });
      await assert.rejects(
        s.query(q('file:///a.md'), signal()),
        (e: LspError) => e.code === 'provider_failed' && /'broken' failed on goToDefinition: boom/.test(e.message),
      );
      const s2 = new LspService();
      s2.registerProvider({ id: 'wrong', extensions: { '.md': 'markdown' }, query: async () => ({ kind: 'hover', contents: null }) });
      await assert.rejects(
        s2.query(q('file:///a.md', 'findReferences'), signal()),
        (e: LspError) => e.code === 'provider_failed' && /expected \{kind:'locations'/.test(e.message),
      );
    });

    it('passes a provider LspError through unchanged', async () => {
      const s = new LspService();
      const err = new LspError('file_not_found', 'file not found: a.md');
      s.registerProvider({ id: 'p', extensions: { '.md': 'markdown' }, query: async () => Promise.reject(err) });
      await assert.rejects(s.query(q('file:///a.md'), signal()), (e) => e === err);
    });
  });

  describe('closed operation union', () => {
    it('has exactly four operations, and assertNever rejects an unknown one at run time', () => {
      assert.deepEqual([...LSP_OPERATIONS], ['goToDefinition', 'findReferences', 'goToImplementation', 'hover']);
      assert.throws(
        () => assertNever('rename' as never),
        /unknown operation "rename"; valid: goToDefinition, findReferences, goToImplementation, hover/,
      );
    });

    it('an exhaustive switch compiles; one missing a case does not (checked by tsc --noEmit)', () => {
      const describeOp = (op: LspOperation): string => {
        switch (op) {
          case 'goToDefinition':
            return 'definition';
          case 'findReferences':
            return 'references';
          case 'goToImplementation':
            return 'implementation';
          case 'hover':
            return 'hover';
          default:
            return assertNever(op);
        }
      };
      assert.equal(describeOp('hover'), 'hover');

      const incomplete = (op: LspOperation): string => {
        switch (op) {
          case 'goToDefinition':
          case 'findReferences':
          case 'goToImplementation':
            return 'navigation';
          default:
            // @ts-expect-error 'hover' is not handled, so `op` is not `never` here: this must not compile.
            return assertNever(op);
        }
      };
      assert.throws(() => incomplete('hover'), /unknown operation "hover"/);

      // The union itself, checked at compile time both ways.
      type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
      const exact: Equal<LspOperation, 'goToDefinition' | 'findReferences' | 'goToImplementation' | 'hover'> = true;
      assert.equal(exact, true);
    });
  });

  describe('the fallback provider', () => {
    /** A fallback over `all` that leaves out what others serve, counting its builds. */
    const fallbackOver = (all: Record<string, string>) => {
      const built: string[][] = [];
      const build = (served: readonly string[]) => {
        const free = Object.fromEntries(Object.entries(all).filter(([e]) => !served.includes(e)));
        built.push(Object.keys(free));
        return Object.keys(free).length > 0 ? new RecordingProvider('vscode', free) : undefined;
      };
      return { build, built };
    };
    const servedBy = (s: LspService) => Object.fromEntries(s.describe().providers.map((p) => [p.id, p.extensions.map((e) => e.extension)]));

    it('serves what no other provider serves; a later provider takes an extension from it and gives it back on dispose', async () => {
      const s = new LspService();
      s.registerProvider(new RecordingProvider('md-links', { '.md': 'markdown' }));
      const f = fallbackOver({ '.md': 'markdown', '.sh': 'shellscript', '.ts': 'typescript' });
      s.registerFallback(f.build);
      assert.deepEqual(servedBy(s), { 'md-links': ['.md'], vscode: ['.sh', '.ts'] });
      const bash = s.registerProvider(new RecordingProvider('bash', { '.sh': 'shellscript' }));
      assert.deepEqual(servedBy(s), { bash: ['.sh'], 'md-links': ['.md'], vscode: ['.ts'] });
      assert.deepEqual(await s.query(q('file:///a.sh', 'hover'), signal()), { kind: 'hover', contents: 'bash hover' });
      bash.dispose();
      assert.deepEqual(servedBy(s), { 'md-links': ['.md'], vscode: ['.sh', '.ts'] });
      bash.dispose();
      assert.deepEqual(servedBy(s), { 'md-links': ['.md'], vscode: ['.sh', '.ts'] }, 'a second dispose changes nothing');
    });

    it('a registration that fails leaves the fallback serving what it served', () => {
      const s = new LspService();
      s.registerProvider(new RecordingProvider('md-links', { '.md': 'markdown' }));
      s.registerFallback(fallbackOver({ '.sh': 'shellscript', '.ts': 'typescript' }).build);
      assert.match(
        registrationError(() => s.registerProvider(new RecordingProvider('bad', { '.sh': 'shellscript', '.md': 'markdown' }))).message,
        /'.md' is already served by provider 'md-links'/,
      );
      assert.deepEqual(servedBy(s), { 'md-links': ['.md'], vscode: ['.sh', '.ts'] });
    });

    it('a provider that does not overlap the fallback does not rebuild it; refresh and dispose do', () => {
      const s = new LspService();
      const f = fallbackOver({ '.ts': 'typescript' });
      const fallback = s.registerFallback(f.build);
      s.registerProvider(new RecordingProvider('md-links', { '.md': 'markdown' }));
      assert.equal(f.built.length, 1);
      fallback.refresh();
      assert.equal(f.built.length, 2);
      fallback.dispose();
      assert.deepEqual(servedBy(s), { 'md-links': ['.md'] });
      fallback.refresh();
      assert.equal(f.built.length, 2, 'a disposed fallback is not rebuilt');
    });

    it('builds nothing when nothing is free, and there is at most one fallback', () => {
      const s = new LspService();
      s.registerProvider(new RecordingProvider('code', { '.ts': 'typescript' }));
      s.registerFallback(fallbackOver({ '.ts': 'typescript' }).build);
      assert.deepEqual(servedBy(s), { code: ['.ts'] });
      assert.match(registrationError(() => s.registerFallback(fallbackOver({}).build)).message, /already registered/);
    });
  });

  describe('layering', () => {
    it('nothing under src/lsp imports vscode (the seam is plain Node)', () => {
      const root = path.resolve(__dirname, '../../../src/lsp');
      const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
      assert.ok(files.length >= 10, `found ${files.length} files`);
      for (const f of files) {
        const text = fs.readFileSync(path.join(root, f), 'utf8');
        assert.doesNotMatch(text, /(from\s+|require\(\s*|import\(\s*)['"]vscode['"]/, `src/lsp/${f} imports vscode`);
      }
    });
  });
});
