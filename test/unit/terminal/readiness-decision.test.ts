/**
 * The readiness decision as a pure function of a snapshot (readiness.ts): table-driven, no PTY.
 * Each row is one moment of a send: the marker state, the PTY's foreground process group, the
 * probe's waits, quiet and time, and the decision expected.
 */
import * as assert from 'node:assert/strict';
import type { TtyWait } from '../../../src/proc/procProbe';
import { ReadinessDecision, ReadinessSnapshot, decideReadiness } from '../../../src/terminal/readiness/readiness';

const SHELL = 1000;
const PROGRAM = 2000;
const NOW = 1_000_000;
const GRACE = 50;
const QUIET_LIMIT = 30_000;

/** A moment of a send that has just started at the shell's prompt (seq 3), overridden by `o`. */
function snapshot(o: {
  exited?: boolean;
  quietMs?: number;
  last?: ReadinessSnapshot['marker']['last'];
  promptSeq?: number;
  promptTextSeen?: boolean;
  continuationTextSeen?: boolean;
  sawContinuation?: boolean;
  typeAhead?: boolean;
  keysAtPrompt?: boolean;
  probeFrom?: number;
  seenWait?: ReadinessSnapshot['send']['seenWait'];
  lastForegroundGroup?: number;
  foregroundGroup?: number | undefined;
  probe?: boolean;
  waits?: TtyWait[];
}): ReadinessSnapshot {
  return {
    now: NOW,
    exited: o.exited ?? false,
    quietMs: o.quietMs ?? 0,
    marker: {
      last: 'last' in o ? o.last : 'start',
      promptSeq: o.promptSeq ?? 3,
      promptTextSeen: o.promptTextSeen ?? false,
      continuationTextSeen: o.continuationTextSeen ?? false,
    },
    send: {
      baselineSeq: 3,
      sawContinuation: o.sawContinuation ?? false,
      keysAtPrompt: o.keysAtPrompt ?? false,
      typeAhead: o.typeAhead ?? false,
      probeFrom: o.probeFrom ?? NOW - 1,
      seenWait: o.seenWait,
      lastForegroundGroup: 'lastForegroundGroup' in o ? o.lastForegroundGroup : SHELL,
    },
    shellPid: SHELL,
    foregroundGroup: 'foregroundGroup' in o ? o.foregroundGroup : SHELL,
    probe: o.probe ?? true,
    waits: o.waits,
    timing: { promptGraceMs: GRACE, quietThresholdMs: QUIET_LIMIT },
  };
}

const wait = (pid: number, via: TtyWait['via'] = 'read', switches = 7): TtyWait => ({ pid, tid: pid, switches, via });
const prompted = { last: 'prompt' as const, promptSeq: 4, promptTextSeen: true };

const rows: [string, ReadinessSnapshot, ReadinessDecision | ((d: ReadinessDecision) => void)][] = [
  [
    'the shell exited: session_exit before anything else',
    snapshot({ exited: true, ...prompted, quietMs: 100 }),
    { kind: 'finish', reason: 'session_exit' },
  ],
  [
    'a new prompt with its text, quiet past the grace, the shell in the foreground: shell-prompt',
    snapshot({ ...prompted, quietMs: GRACE }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'shell-prompt' },
  ],
  [
    'the same without /proc (foreground unknown): shell-prompt',
    snapshot({ ...prompted, quietMs: GRACE, foregroundGroup: undefined, probe: false }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'shell-prompt' },
  ],
  [
    'the prompt of the baseline (from before the send) does not count',
    snapshot({ ...prompted, promptSeq: 3, quietMs: GRACE, waits: [] }),
    (d) => assert.equal(d.kind, 'continue'),
  ],
  [
    'a prompt marker whose text has not arrived yet does not count',
    snapshot({ ...prompted, promptTextSeen: false, quietMs: GRACE, waits: [] }),
    (d) => assert.equal(d.kind, 'continue'),
  ],
  [
    'a prompt while another process group holds the terminal does not count',
    snapshot({ ...prompted, quietMs: GRACE, foregroundGroup: PROGRAM, waits: [] }),
    (d) => assert.equal(d.kind, 'continue'),
  ],
  [
    'the prompt event itself (no quiet yet) with the shell in the foreground: shell-prompt at once',
    snapshot({ ...prompted, quietMs: 0 }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'shell-prompt' },
  ],
  [
    'without /proc the foreground is unknown: the prompt waits for the grace',
    snapshot({ ...prompted, quietMs: GRACE - 1, foregroundGroup: undefined, probe: false }),
    (d) => assert.equal(d.kind, 'continue'),
  ],
  [
    'several lines typed one at a time: a prompt within the grace may precede the next line, not yet',
    snapshot({ ...prompted, typeAhead: true, quietMs: GRACE - 1, waits: [] }),
    (d) => assert.equal(d.kind, 'continue'),
  ],
  [
    'several lines typed, the last prompt quiet for the grace: shell-prompt',
    snapshot({ ...prompted, typeAhead: true, quietMs: GRACE }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'shell-prompt' },
  ],
  [
    'a continuation marker whose text has not arrived: not yet',
    snapshot({ last: 'continuation', sawContinuation: true, quietMs: 0, waits: [] }),
    (d) => assert.equal(d.kind, 'continue'),
  ],
  [
    'a continuation marker with its text, the shell in the foreground: shell-continuation at once',
    snapshot({ last: 'continuation', sawContinuation: true, continuationTextSeen: true, quietMs: 0 }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'shell-continuation' },
  ],
  [
    'a continuation prompt seen during the send, quiet past the grace: shell-continuation',
    snapshot({ last: 'continuation', sawContinuation: true, quietMs: GRACE }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'shell-continuation' },
  ],
  [
    'a continuation marker from before the send does not count',
    snapshot({ last: 'continuation', sawContinuation: false, quietMs: GRACE, waits: [] }),
    (d) => assert.equal(d.kind, 'continue'),
  ],
  ['a program in the foreground, probe due, waits not read yet: look', snapshot({ foregroundGroup: PROGRAM }), { kind: 'look' }],
  [
    'the probe not due yet: no look, due when it starts',
    snapshot({ foregroundGroup: PROGRAM, probeFrom: NOW + 120 }),
    (d) => assert.deepEqual(d, { kind: 'continue', seenWait: undefined, changed: true, dueInMs: 120 }),
  ],
  ['no probe (no /proc): never a look', snapshot({ foregroundGroup: undefined, probe: false }), (d) => assert.equal(d.kind, 'continue')],
  [
    'a program of the foreground group newly blocked reading: remembered, due again after the grace',
    snapshot({ foregroundGroup: PROGRAM, waits: [wait(PROGRAM + 1, 'epoll')], quietMs: 10 }),
    { kind: 'continue', seenWait: { wait: wait(PROGRAM + 1, 'epoll'), at: NOW }, changed: true, dueInMs: GRACE },
  ],
  [
    "the program's wait still the same after the grace, no output meanwhile: program-input naming it",
    snapshot({
      foregroundGroup: PROGRAM,
      waits: [wait(PROGRAM + 1, 'epoll')],
      quietMs: GRACE,
      seenWait: { wait: wait(PROGRAM + 1, 'epoll'), at: NOW - GRACE },
    }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'program-input', foregroundPid: PROGRAM + 1 },
  ],
  [
    "the program's wait lasting, but output arrived within the grace (its question still coming): not yet",
    snapshot({
      foregroundGroup: PROGRAM,
      waits: [wait(PROGRAM + 1)],
      quietMs: GRACE - 1,
      seenWait: { wait: wait(PROGRAM + 1), at: NOW - GRACE },
    }),
    (d) => assert.deepEqual(d.kind === 'continue' && [d.seenWait, d.dueInMs], [{ wait: wait(PROGRAM + 1), at: NOW - GRACE }, 1]),
  ],
  [
    'the program ran since (its wait has other context switches): seen anew, not an answer',
    snapshot({
      foregroundGroup: PROGRAM,
      waits: [wait(PROGRAM + 1, 'read', 9)],
      quietMs: GRACE,
      seenWait: { wait: wait(PROGRAM + 1), at: NOW - GRACE },
    }),
    (d) => assert.deepEqual(d.kind === 'continue' && d.seenWait, { wait: wait(PROGRAM + 1, 'read', 9), at: NOW }),
  ],
  [
    'a program waiting in select on the terminal counts (vim waits in pselect6)',
    snapshot({
      foregroundGroup: PROGRAM,
      waits: [wait(PROGRAM, 'select')],
      quietMs: GRACE,
      seenWait: { wait: wait(PROGRAM, 'select'), at: NOW - GRACE },
    }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'program-input', foregroundPid: PROGRAM },
  ],
  [
    "the shell's own read, first seen: remembered, not yet an answer",
    snapshot({ last: 'start', waits: [wait(SHELL)], quietMs: GRACE }),
    (d) => assert.deepEqual(d, { kind: 'continue', seenWait: { wait: wait(SHELL), at: NOW }, changed: true, dueInMs: GRACE }),
  ],
  [
    "the shell's read still the same after the grace, quiet: program-input after PS0 (its read builtin)",
    snapshot({ last: 'start', waits: [wait(SHELL)], quietMs: GRACE, seenWait: { wait: wait(SHELL), at: NOW - GRACE } }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'program-input', foregroundPid: SHELL },
  ],
  [
    "the shell's read lasting, without a controlled prompt: shell-prompt",
    snapshot({ last: 'prompt', promptSeq: 3, waits: [wait(SHELL)], quietMs: GRACE, seenWait: { wait: wait(SHELL), at: NOW - GRACE } }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'shell-prompt', foregroundPid: SHELL },
  ],
  [
    "the shell's read re-blocked since (other context switches): seen anew, not an answer",
    snapshot({ last: 'start', waits: [wait(SHELL, 'read', 8)], quietMs: GRACE, seenWait: { wait: wait(SHELL), at: NOW - GRACE } }),
    (d) => assert.deepEqual(d.kind === 'continue' && d.seenWait, { wait: wait(SHELL, 'read', 8), at: NOW }),
  ],
  [
    "the shell's read lasting but output within the grace: not yet",
    snapshot({ last: 'start', waits: [wait(SHELL)], quietMs: GRACE - 1, seenWait: { wait: wait(SHELL), at: NOW - GRACE } }),
    (d) => assert.equal(d.kind, 'continue'),
  ],
  [
    'the shell waiting in pselect6 (readline between keys) is not a read, unless keys were pressed at the prompt',
    snapshot({ last: 'start', waits: [wait(SHELL, 'select')], quietMs: GRACE, seenWait: { wait: wait(SHELL, 'select'), at: NOW - GRACE } }),
    (d) => assert.deepEqual(d.kind === 'continue' && d.seenWait, undefined),
  ],
  [
    'keys at the prompt that did not end the line: readline waiting for the next key is the answer',
    snapshot({
      last: 'prompt',
      promptSeq: 3,
      keysAtPrompt: true,
      waits: [wait(SHELL, 'select')],
      quietMs: GRACE,
      seenWait: { wait: wait(SHELL, 'select'), at: NOW - GRACE },
    }),
    { kind: 'finish', reason: 'stdin_read', waiting: 'shell-prompt', foregroundPid: SHELL },
  ],
  [
    'quiet past the threshold, nothing reading: inferred_idle',
    snapshot({ foregroundGroup: PROGRAM, waits: [], quietMs: QUIET_LIMIT }),
    { kind: 'finish', reason: 'inferred_idle' },
  ],
  [
    'nothing yet: the next look is due at the quiet threshold; an unchanged foreground lets the poll back off',
    snapshot({ foregroundGroup: PROGRAM, lastForegroundGroup: PROGRAM, waits: [], quietMs: 1000 }),
    { kind: 'continue', seenWait: undefined, changed: false, dueInMs: QUIET_LIMIT - 1000 },
  ],
];

describe('readiness decision (no PTY)', () => {
  for (const [name, input, expected] of rows) {
    it(name, () => {
      const decision = decideReadiness(input);
      if (typeof expected === 'function') expected(decision);
      else assert.deepEqual(decision, expected);
    });
  }
});
