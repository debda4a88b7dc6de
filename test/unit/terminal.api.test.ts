/**
 * The facades other extensions get (`exports.terminal`, `exports.navigation`), on a real service
 * with the real pty-bash backend: from them, nothing leads to another owner, another owner's
 * sessions, the service's tables or another provider's object.
 */
import * as assert from 'node:assert/strict';
import { LspService } from '../../src/lsp/service';
import { createNavigationApi } from '../../src/lsp/navigationApi';
import { LspError } from '../../src/lsp/types';
import type { LspProvider } from '../../src/lsp/types';
import { TerminalError } from '../../src/terminal/errors';
import { createTerminalApi } from '../../src/terminal/terminalApi';
import { Harness, harness } from './support/terminal';
import { element } from '../helpers/element';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS, shared with the api-consumer extension
const { reachable, findings } = require('../fixtures/api-consumer/crawl.js') as {
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
    assert.throws(() => (terminal.onDidChangeSessions as unknown as (l: unknown) => unknown)(() => undefined), (e: Error) => (roots.push(e), e instanceof TerminalError && e.code === 'INVALID_ARGUMENT'));
    const opened = await terminal.open(mine, { name: 'mine' });
    roots.push(opened, await terminal.send(mine, opened.sessionId, { input: 'echo mine' }), terminal.read(mine, opened.sessionId), terminal.list(mine));
    for (const call of [
      () => terminal.read(mine, tools.sessionId),
      () => terminal.signal(mine, tools.sessionId, 'SIGINT'),
      () => terminal.list(toolsOwner),
      () => terminal.read({ label: 'x', disposed: false, dispose() {} }, tools.sessionId),
    ]) {
      assert.throws(call, (e: Error) => (roots.push(e), e instanceof TerminalError));
    }
    await assert.rejects(terminal.close(mine, tools.sessionId), (e: Error) => (roots.push(e), /another owner/.test(e.message)));
    await h.service.send(toolsOwner, tools.sessionId, { input: 'echo more' });
    assert.equal(await terminal.close(mine, opened.sessionId), true);

    assert.deepEqual(findings(reachable(roots), api, mine, [], ['tools-secret-42', 'tools-owner-label']), []);
    assert.ok(events.length >= 2 && events.every((e) => JSON.stringify(Object.keys(e)) === '["kind","sessionId"]' && (e as { sessionId: string }).sessionId === opened.sessionId), JSON.stringify(events));
    assert.deepEqual(h.service.list(toolsOwner).map((s) => s.sessionId), [tools.sessionId]);
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
    const answer = await navigation.query({ operation: 'hover', uri: 'file:///w/a.mi', position: { line: 0, character: 0 }, workspaceUri: 'file:///w' });
    assert.deepEqual(answer, { kind: 'hover', contents: 'hover of file:///w/a.mi' });
    assert.equal((calls[0] as { id: string }).id, 'mine', 'the query runs with the provider as this');
    await assert.rejects(
      navigation.query({ operation: 'hover', uri: 'file:///w/a.th', position: { line: 0, character: 0 }, workspaceUri: 'file:///w' }),
      (e: Error) => (roots.push(e), e instanceof LspError && e.code === 'provider_failed' && /their bug/.test(e.message) && e.cause === undefined),
    );
    roots.push(answer);
    assert.deepEqual(findings(reachable(roots), { terminal: { list: () => { throw new Error('no'); } } }, {}, ['mine'], ['md-internal-state']), []);
    reg.dispose();
    assert.equal(navigation.providerFor('file:///w/a.mi'), undefined);
  });
});
