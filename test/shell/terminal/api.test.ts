/**
 * The facades other extensions get (`exports.terminal`, `exports.navigation`), on a real service
 * with the real pty-bash backend: from them, nothing leads to another owner, another owner's
 * sessions, the service's tables or another provider's object.
 */
import * as assert from 'node:assert/strict';
import { LspService } from '../../../src/lsp/service';
import { createNavigationApi } from '../../../src/lsp/navigationApi';
import { LspError } from '../../../src/lsp/types';
import type { LspProvider } from '../../../src/lsp/types';
import { TerminalError } from '../../../src/terminal/errors';
import { createTerminalApi } from '../../../src/terminal/terminalApi';
import { Harness, harness } from '../../helpers/terminalHarness';
import { element } from '../../helpers/element';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS, shared with the api-consumer extension
const { reachable, findings } = require('../../fixtures/api-consumer/crawl.js') as {
  reachable: (roots: unknown[]) => { objects: object[]; strings: Set<string> };
  findings: (reached: unknown, api: unknown, ownOwner: object, ownProviderIds: string[], forbidden: string[]) => string[];
};

describe('the API facades', function () {
  this.timeout(60_000);
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.dispose());

  it('an owner handle acts on its own sessions only; nothing reachable from the facade, its results, errors or events leads further', async () => {
    const terminal = createTerminalApi(h.service);
    const navigation = createNavigationApi(new LspService());
    const api = { terminal, navigation };
    const toolsOwner = h.service.createOwner('tools-owner-label');
    const tools = await h.service.open(toolsOwner, { name: 'tools' });
    await h.service.send(toolsOwner, tools.sessionId, { input: 'echo tools-secret-$((6*7))' });

    const mine = terminal.createOwner('consumer');
    const events: object[] = [];
    const roots: unknown[] = [api, mine, events];
    roots.push(terminal.onDidChangeSessions(mine, (e) => events.push(e)));
    assert.throws(
      () => (terminal.onDidChangeSessions as unknown as (l: unknown) => unknown)(() => undefined),
      (e: Error) => (roots.push(e), e instanceof TerminalError && e.code === 'INVALID_ARGUMENT'),
    );
    const opened = await terminal.open(mine, { name: 'mine' });
    roots.push(
      opened,
      await terminal.send(mine, opened.sessionId, { input: 'echo mine' }),
      await terminal.read(mine, opened.sessionId),
      terminal.list(mine),
    );
    for (const call of [() => terminal.signal(mine, tools.sessionId, 'SIGINT'), () => terminal.list(toolsOwner)]) {
      assert.throws(call, (e: Error) => (roots.push(e), e instanceof TerminalError));
    }
    for (const call of [
      () => terminal.read(mine, tools.sessionId),
      () => terminal.read({ label: 'x', disposed: false, dispose() {} }, tools.sessionId),
    ]) {
      await assert.rejects(call(), (e: Error) => (roots.push(e), e instanceof TerminalError));
    }
    await assert.rejects(terminal.close(mine, tools.sessionId), (e: Error) => (roots.push(e), /another owner/.test(e.message)));
    await h.service.send(toolsOwner, tools.sessionId, { input: 'echo more' });
    assert.equal(await terminal.close(mine, opened.sessionId), true);

    assert.deepEqual(findings(reachable(roots), api, mine, [], ['tools-secret-42', 'tools-owner-label']), []);
    assert.ok(
      events.length >= 2 &&
        events.every(
          (e) => JSON.stringify(Object.keys(e)) === '["kind","sessionId"]' && (e as { sessionId: string }).sessionId === opened.sessionId,
        ),
      JSON.stringify(events),
    );
    assert.deepEqual(
      h.service.list(toolsOwner).map((s) => s.sessionId),
      [tools.sessionId],
    );
    await h.service.close(toolsOwner, tools.sessionId);
  });

  it('results are copies: changing one changes nothing inside', async () => {
    const terminal = createTerminalApi(h.service);
    const mine = terminal.createOwner('consumer');
    const { sessionId } = await terminal.open(mine);
    const listed = terminal.list(mine);
    (listed[0] as { name: string }).name = 'changed';
    assert.equal(element(terminal.list(mine), 0, 'listed session').name, sessionId);
    mine.dispose();
    assert.equal(mine.disposed, true);
    await assert.rejects(terminal.open(mine), (e: Error) => e instanceof TerminalError && e.code === 'OWNER_DISPOSED');
  });

  it("history, command and search: the command record as the tools give it, of the caller's sessions only", async () => {
    const terminal = createTerminalApi(h.service);
    const toolsOwner = h.service.createOwner('tools-owner-label');
    const tools = await h.service.open(toolsOwner, { name: 'tools' });
    await h.service.send(toolsOwner, tools.sessionId, { input: 'echo tools-secret-$((6*7))' });
    const mine = terminal.createOwner('consumer');
    const { sessionId } = await terminal.open(mine);
    const ok = await terminal.send(mine, sessionId, { input: "seq -f 'row %g' 1 300" });
    const failed = await terminal.send(mine, sessionId, { input: 'echo failing; (exit 3)' });

    // dsh_terminal_history's result without the sessionId the caller passed.
    const page = terminal.history(mine, sessionId);
    assert.deepEqual(Object.keys(page).sort(), ['commands', 'matching', 'recorded', 'total']);
    assert.deepEqual(
      page.commands.map((c) => [c.index, c.command, c.exitCode, c.state, c.typedBy]),
      [
        [failed.command, 'echo failing; (exit 3)', 3, 'finished', 'agent'],
        [ok.command, "seq -f 'row %g' 1 300", 0, 'finished', 'agent'],
      ],
    );
    assert.deepEqual([page.matching, page.recorded, page.total], [2, 2, 2]);
    assert.deepEqual(
      terminal.history(mine, sessionId, { failed: true, count: 1 }).commands.map((c) => c.index),
      [failed.command],
    );
    const seq = terminal.command(mine, sessionId, ok.command!);
    assert.deepEqual(seq, page.commands[1]);
    assert.equal(seq.output.lineCount, 300);
    assert.equal((await terminal.read(mine, sessionId, { command: ok.command, count: 2 })).text, 'row 299\nrow 300');

    // dsh_terminal_read {search}'s result: newest match first, with context and the command that printed it.
    const found = await terminal.search(mine, sessionId, { pattern: '^row (7|250)$', regex: true, context: 1 });
    assert.deepEqual(
      found.matches.map((m) => [m.text, m.command, m.before, m.after]),
      [
        ['row 250', ok.command, ['row 249'], ['row 251']],
        ['row 7', ok.command, ['row 6'], ['row 8']],
      ],
    );
    const inFailed = await terminal.search(mine, sessionId, { pattern: 'ROW', ignoreCase: true, command: failed.command });
    assert.deepEqual(inFailed.matches, []);

    // Bad input is named; another owner's session is out of reach; results are copies.
    assert.throws(
      () => terminal.history(mine, sessionId, { count: 0 }),
      (e: Error) => e instanceof TerminalError && e.code === 'INVALID_ARGUMENT' && /count/.test(e.message),
    );
    assert.throws(
      () => terminal.history(mine, sessionId, 'all' as never),
      (e: Error) =>
        e instanceof TerminalError &&
        /^exports\.terminal\.history: the input is not an object \(got "all"\); valid: an object of exports\.terminal\.history's inputs: offset\?, count\?, failed\?, contains\?/.test(
          e.message,
        ),
    );
    assert.throws(
      () => terminal.history(mine, sessionId, { count: 5, fail: true } as never),
      (e: Error) => e instanceof TerminalError && /`fail` is not one of .*Did you mean `failed`\?$/.test(e.message),
    );
    assert.throws(
      () => terminal.command(mine, sessionId, 99),
      (e: Error) => e instanceof TerminalError && /no such command/.test(e.message),
    );
    await assert.rejects(
      terminal.search(mine, sessionId, { pattern: '(', regex: true }),
      (e: Error) => e instanceof TerminalError && e.code === 'INVALID_ARGUMENT',
    );
    await assert.rejects(
      terminal.search(mine, sessionId, undefined as never),
      (e: Error) => e instanceof TerminalError && /request must be an object/.test(e.message),
    );
    const roots: unknown[] = [page, seq, found];
    for (const call of [() => terminal.history(mine, tools.sessionId), () => terminal.command(mine, tools.sessionId, 1)]) {
      assert.throws(call, (e: Error) => (roots.push(e), e instanceof TerminalError && e.code === 'NOT_SESSION_OWNER'));
    }
    await assert.rejects(
      terminal.search(mine, tools.sessionId, { pattern: 'tools-secret' }),
      (e: Error) => (roots.push(e), e instanceof TerminalError && e.code === 'NOT_SESSION_OWNER'),
    );
    assert.deepEqual(findings(reachable(roots), { terminal }, mine, [], ['tools-secret-42', 'tools-owner-label']), []);
    (page.commands[0] as { command: string }).command = 'changed';
    found.matches.length = 0;
    assert.equal(terminal.history(mine, sessionId).commands[0]!.command, 'echo failing; (exit 3)');
    assert.equal((await terminal.search(mine, sessionId, { pattern: 'row 250' })).matches.length, 1);
    await h.service.close(toolsOwner, tools.sessionId);
  });

  it('a cancellation signal that is not an AbortSignal is refused, naming what is valid, and nothing starts or is typed', async () => {
    const terminal = createTerminalApi(h.service);
    const mine = terminal.createOwner('consumer');
    const refused = (e: Error) =>
      e instanceof TerminalError &&
      e.code === 'INVALID_ARGUMENT' &&
      /signal must be an AbortSignal/.test(e.message) &&
      /AbortController/.test(e.message);
    for (const bad of [{}, 'abort', 5]) {
      await assert.rejects(terminal.open(mine, { signal: bad as never }), refused);
    }
    assert.deepEqual(terminal.list(mine), []);
    const { sessionId } = await terminal.open(mine);
    const tools = await h.service.open(h.owner);
    for (const bad of [{}, 'abort', { aborted: false }]) {
      await assert.rejects(terminal.send(mine, sessionId, { input: 'echo typed > sent.txt', signal: bad as never }), refused);
      assert.throws(() => terminal.startBackground(mine, sessionId, { input: 'echo typed > sent.txt', signal: bad as never }), refused);
      await assert.rejects(h.service.wait(h.owner, tools.sessionId, { signal: bad as never }), refused);
    }
    const after = await terminal.send(mine, sessionId, { input: 'ls sent.txt 2>&1; echo ok', signal: new AbortController().signal });
    assert.match(after.output, /No such file[\s\S]*ok/);
    assert.equal(after.waitReason, 'stdin_read');
  });

  it('a terminal size out of range is refused naming the value and the range, and nothing starts', async () => {
    const terminal = createTerminalApi(h.service);
    const mine = terminal.createOwner('consumer');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ cols: 0 }, /^cols must be an integer in 2\.\.1000 \(got 0\)$/],
      [{ cols: 1e9 }, /^cols must be an integer in 2\.\.1000 \(got 1000000000\)$/],
      [{ cols: 80.5 }, /^cols must be an integer in 2\.\.1000 \(got 80\.5\)$/],
      [{ rows: 'x' }, /^rows must be an integer in 2\.\.1000 \(got "x"\)$/],
      [{ rows: -1 }, /^rows must be an integer in 2\.\.1000 \(got -1\)$/],
    ];
    for (const [options, message] of cases) {
      await assert.rejects(
        terminal.open(mine, options),
        (e: Error) => e instanceof TerminalError && e.code === 'INVALID_ARGUMENT' && message.test(e.message),
        JSON.stringify(options),
      );
    }
    assert.deepEqual(terminal.list(mine), []);
    const { sessionId } = await terminal.open(mine, { cols: 80, rows: 24 });
    assert.equal((await terminal.send(mine, sessionId, { input: 'stty size' })).output, '24 80');
  });

  it('navigation: a provider registers and answers; other providers stay out of reach, errors carry no cause', async () => {
    const service = new LspService();
    const secret = { internal: 'md-internal-state' };
    const theirs: LspProvider & { secret: object } = {
      id: 'theirs',
      extensions: { '.th': 'plaintext' },
      secret,
      query: async () => {
        throw new Error('their bug');
      },
    };
    service.registerProvider(theirs);
    const navigation = createNavigationApi(service);
    const calls: unknown[] = [];
    const reg = navigation.registerProvider({
      id: 'mine',
      extensions: { '.mi': 'plaintext' },
      async query(request) {
        calls.push(this);
        return { kind: 'hover', contents: `hover of ${request.uri}` };
      },
    });
    const roots: unknown[] = [navigation, reg, navigation.describe(), navigation.providerFor('file:///w/a.th')];
    const answer = await navigation.query({
      operation: 'hover',
      uri: 'file:///w/a.mi',
      position: { line: 0, character: 0 },
      workspaceUri: 'file:///w',
    });
    assert.deepEqual(answer, { kind: 'hover', contents: 'hover of file:///w/a.mi' });
    assert.equal((calls[0] as { id: string }).id, 'mine', 'the query runs with the provider as this');
    await assert.rejects(
      navigation.query({ operation: 'hover', uri: 'file:///w/a.th', position: { line: 0, character: 0 }, workspaceUri: 'file:///w' }),
      (e: Error) => (
        roots.push(e),
        e instanceof LspError && e.code === 'provider_failed' && /their bug/.test(e.message) && e.cause === undefined
      ),
    );
    roots.push(answer);
    assert.deepEqual(
      findings(
        reachable(roots),
        {
          terminal: {
            list: () => {
              throw new Error('no');
            },
          },
        },
        {},
        ['mine'],
        ['md-internal-state'],
      ),
      [],
    );
    reg.dispose();
    assert.equal(navigation.providerFor('file:///w/a.mi'), undefined);
  });
});
