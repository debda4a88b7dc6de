/**
 * Nothing model-facing bypasses secret redaction: every function of the extension API and every
 * public method of the TerminalService is listed here as one that returns terminal text (and is
 * checked to hold no secret), one that returns none, or the person's own view (the panel). A new
 * function fails the enumeration until it is classified and checked.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Harness, harness } from '../../helpers/terminalHarness';
import { SECRETS, probeOf } from '../../helpers/secretCorpus';
import { until } from '../../helpers/wait';
import { createTerminalApi } from '../../../src/terminal/terminalApi';
import { TerminalService } from '../../../src/terminal/service';

/** What a function gives: terminal text an agent reads, no terminal text, or the person's view. */
type Kind = 'agent text' | 'no text' | 'person' | 'private';

const API: Record<string, Kind> = {
  createOwner: 'no text',
  backendTypes: 'no text',
  open: 'agent text',
  motd: 'agent text',
  send: 'agent text',
  startBackground: 'no text',
  output: 'agent text',
  read: 'agent text',
  history: 'agent text',
  command: 'agent text',
  search: 'agent text',
  signal: 'agent text',
  list: 'agent text',
  close: 'no text',
  // What a close ended and kept: command lines.
  end: 'agent text',
  wait: 'agent text',
  processes: 'agent text',
  takeOverLine: 'no text',
  typeLine: 'no text',
  onDidChangeSessions: 'no text',
  // The raw stream a view mirrors, as the panel does (docs/secrets.md says so).
  onOutput: 'person',
};

const SERVICE: Record<string, Kind> = {
  registerBackend: 'no text',
  backendTypes: 'no text',
  onDidChangeSessions: 'no text',
  takeOver: 'no text',
  takeOverLine: 'no text',
  handBack: 'no text',
  writeUserInput: 'no text',
  onOutput: 'person',
  onCommand: 'person',
  createOwner: 'no text',
  hasOwnerActivity: 'no text',
  open: 'agent text',
  // What a confirmation shows the person (the command line a program runs, where a send goes).
  sendTarget: 'person',
  motd: 'agent text',
  send: 'agent text',
  wait: 'agent text',
  startBackground: 'no text',
  output: 'agent text',
  // The panel's backlog: the person's view; agents read through readAsync.
  read: 'person',
  readAsync: 'agent text',
  history: 'agent text',
  command: 'agent text',
  search: 'agent text',
  signal: 'agent text',
  settled: 'no text',
  list: 'agent text',
  info: 'agent text',
  find: 'agent text',
  processes: 'agent text',
  close: 'no text',
  end: 'agent text',
  setKeepByDefault: 'no text',
  // A refusal's text: counts and the setting's name.
  sessionLimitRefusal: 'no text',
  dispose: 'no text',
  closeAll: 'no text',
  // Private to the service (TypeScript's `private`, visible at run time).
  checkOwner: 'private',
  emit: 'private',
  entriesOf: 'private',
  entry: 'private',
  holdSlot: 'private',
  setTakenOver: 'private',
  withCommand: 'private',
};

const ghp = SECRETS[0]!.value;
const probes = SECRETS.map(probeOf);
const leaks = (value: unknown) => {
  const text = JSON.stringify(value);
  return probes.filter((p) => text.includes(JSON.stringify(p).slice(1, -1)));
};

describe('every path an agent reads is redacted', function () {
  this.timeout(120_000);
  let h: Harness;

  beforeEach(() => {
    h = harness();
  });
  afterEach(async () => {
    await h.dispose();
  });

  it('the extension API and the service are enumerated whole', () => {
    const api = createTerminalApi(h.service);
    assert.deepEqual(Object.keys(api).sort(), Object.keys(API).sort(), 'classify a new API function here and check it below');
    const methods = Object.getOwnPropertyNames(TerminalService.prototype).filter(
      (n) => n !== 'constructor' && typeof (TerminalService.prototype as unknown as Record<string, unknown>)[n] === 'function',
    );
    assert.deepEqual(methods.sort(), Object.keys(SERVICE).sort(), 'classify a new service method here and check it below');
  });

  it('each function of the extension API that returns terminal text holds no secret', async () => {
    const file = path.join(h.tmp, 'secrets.txt');
    fs.writeFileSync(file, SECRETS.map((s) => s.line).join('\n') + '\n');
    const home = fs.mkdtempSync(path.join(h.tmp, 'home-'));
    fs.writeFileSync(path.join(home, '.bashrc'), `cat ${file}\n`);
    const api = createTerminalApi(h.service);
    const owner = api.createOwner('paths');
    const checked = new Set<string>();
    const check = (name: string, value: unknown) => {
      assert.deepEqual(leaks(value), [], `${name} holds secrets`);
      checked.add(name);
    };
    const opened = await api.open(owner, { env: { HOME: home } });
    check('open', opened);
    const id = opened.sessionId;
    check('motd', api.motd(owner, id));
    check('send', await api.send(owner, id, { input: `cat ${file}; echo ${ghp} >/dev/null` }));
    const { jobId } = api.startBackground(owner, id, { input: `cat ${file}` });
    let job = '';
    await until('the job', async () => {
      const out = await api.output(owner, id, jobId);
      job += JSON.stringify(out);
      return out.done;
    });
    check('output', job);
    for (const request of [{}, { raw: true }, { screen: true }, { command: 1 }, { offset: 3, count: 10 }])
      check('read', await api.read(owner, id, { count: 2000, ...request }));
    check('history', api.history(owner, id, { count: 200 }));
    check('command', api.command(owner, id, 1));
    for (const s of SECRETS) check('search', await api.search(owner, id, { pattern: probeOf(s) }));
    const running = await api.send(owner, id, { input: `bash -c 'sleep 30; true' ${ghp}`, timeoutMs: 300 });
    check('send', running);
    check('wait', await api.wait(owner, id, { timeoutMs: 300 }));
    check('list', api.list(owner));
    check('processes', await api.processes(owner, id));
    check('signal', api.signal(owner, id, 'SIGINT'));
    // The person's view keeps the text.
    let raw = '';
    api.onOutput(owner, id, (text) => (raw += text));
    await api.send(owner, id, { input: `cat ${file}` });
    assert.ok(
      probes.some((p) => raw.includes(p)),
      'onOutput is the raw stream',
    );
    await api.send(owner, id, { input: `bash -c 'sleep 60; true' ${ghp} &` });
    check('end', await api.end(owner, id));
    const agentText = Object.entries(API)
      .filter(([, kind]) => kind === 'agent text')
      .map(([name]) => name);
    assert.deepEqual([...checked].sort(), agentText.sort(), 'every API function that returns terminal text was checked');
    owner.dispose();
  });

  it('each method of the service that returns terminal text holds no secret', async () => {
    const file = path.join(h.tmp, 'secrets.txt');
    fs.writeFileSync(file, SECRETS.map((s) => s.line).join('\n') + '\n');
    const checked = new Set<string>();
    const check = (name: string, value: unknown) => {
      assert.deepEqual(leaks(value), [], `${name} holds secrets`);
      checked.add(name);
    };
    const s = h.service;
    const opened = await s.open(h.owner);
    check('open', opened);
    const id = opened.sessionId;
    check('motd', s.motd(h.owner, id));
    check('send', await s.send(h.owner, id, { input: `cat ${file}; echo ${ghp} >/dev/null` }));
    const started = await s.send(h.owner, id, { input: `sleep 0.2; cat ${file}; bash -c 'sleep 30; true' ${ghp}`, timeoutMs: 50 });
    check('send', started);
    check('wait', await s.wait(h.owner, id, { timeoutMs: 1500 }));
    check('info', s.info(h.owner, id));
    check('find', s.find(h.owner, id));
    check('list', s.list(h.owner));
    check('processes', await s.processes(h.owner, id));
    const signalled = s.signal(h.owner, id, 'SIGINT');
    check('signal', signalled);
    assert.match(
      signalled.foreground?.command ?? '',
      /^bash -c sleep 30; true \[redacted: GitHub token\]$/,
      'the signalled command is named, redacted',
    );
    await s.wait(h.owner, id, { timeoutMs: 5000 }).catch(() => undefined);
    const { jobId } = s.startBackground(h.owner, id, { input: `cat ${file}` });
    let job = '';
    await until('the job', async () => {
      const out = await s.output(h.owner, id, jobId);
      job += JSON.stringify(out);
      return out.done;
    });
    check('output', job);
    check('readAsync', await s.readAsync(h.owner, id, { count: 2000 }));
    check('history', s.history(h.owner, id, { count: 200 }));
    check('command', s.command(h.owner, id, 1));
    for (const secret of SECRETS) check('search', await s.search(h.owner, id, { pattern: probeOf(secret) }));
    assert.ok(
      probes.some((p) => s.read(h.owner, id, { raw: true, count: 2000 }).text.includes(p)),
      'read is the person’s view',
    );
    await s.send(h.owner, id, { input: `bash -c 'sleep 60; true' ${ghp} &` });
    check('end', await s.end(h.owner, id));
    const agentText = Object.entries(SERVICE)
      .filter(([, kind]) => kind === 'agent text')
      .map(([name]) => name);
    assert.deepEqual([...checked].sort(), agentText.sort(), 'every service method that returns terminal text was checked');
  });
});
