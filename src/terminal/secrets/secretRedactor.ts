/**
 * The one redaction step of the text an agent reads from a terminal (plain Node, no `vscode`
 * import). Every model-facing path of a session goes through a `SecretRedactor`: send and wait
 * results, reads, pages and screens, searches (which match the redacted text), `until` patterns
 * (likewise), background job output, the command record, the message of the day and the commands
 * named in results. The person's panel is fed from the raw output and never passes here.
 *
 * Where it runs: the rules (secretRules.ts) are not all linear on hostile text, so any text longer
 * than SYNC_MAX_UNITS is redacted in a worker thread within REDACT_BOUND_MS (common/boundedWorker.ts);
 * a job that runs past it is stopped and its text withheld (fail closed: WITHHELD_NOTICE, the line
 * count kept). Short strings (a command line, a process's command) are redacted on the caller's
 * thread with the built-in rules only (the person's patterns are not bounded by us), which costs
 * at most a few hundred steps per character of such a string.
 *
 * Off (`dsh.terminal.redactSecrets: false`): texts pass unchanged and `enabled` says so; the tools
 * then say so in every result.
 */
import { BoundedWorkers } from '../../common/boundedWorker';
import { errorMessage } from '../../common/errorMessage';
import type { Log } from '../../common/log';
import { redactSecrets } from './redact';
import type { RedactionJob, RedactionReply } from './redactionWorker';
import { run as runOnThisThread } from './redactionWorker';

/** A pattern of the person's own, as settings give it: a label and a JavaScript regular expression's source. */
export interface SecretPatternSetting {
  label: string;
  pattern: string;
}

/** What redaction is set to, read at each call. */
export interface RedactionSettings {
  /** `dsh.terminal.redactSecrets`. */
  enabled: boolean;
  /** `dsh.terminal.secretPatterns`, validated (config.ts). */
  patterns: readonly SecretPatternSetting[];
}

/** Longest text redacted on the caller's thread (UTF-16 code units); longer text goes to the worker. */
export const SYNC_MAX_UNITS = 4096;
/** Longest a redaction job may run in its worker (ms) before its text is withheld. */
export const REDACT_BOUND_MS = 3000;
/** What a worker redacts to warm up: a line that runs the rules' common paths (a secret-named variable, a URL). */
const WARM_UP_TEXT = 'export API_TOKEN=warm-up-0000 https://user:warm-up@example.com\n';
/** Replaces a text whose redaction could not finish: its first line; the text's other lines are kept empty. */
export const WITHHELD_NOTICE =
  '⟪withheld: checking this output for secrets did not finish in time; it may hold secrets and is not shown to the agent⟫';

/** `text` withheld: the notice, then as many line ends as it had, so line counts stay true. */
export function withheld(text: string): string {
  const lineEnds = text.match(/\n/g)?.length ?? 0;
  return WITHHELD_NOTICE + '\n'.repeat(lineEnds);
}

/**
 * A short string (an error message, a command line) redacted on the caller's thread with the
 * built-in rules; one longer than SYNC_MAX_UNITS is withheld whole (its line count kept).
 */
export function redactShortText(text: string): string {
  if (text.length === 0) return text;
  if (text.length > SYNC_MAX_UNITS) return withheld(text);
  return redactSecrets(text).text;
}

/** See the module comment. */
export class SecretRedactor {
  private readonly workers: BoundedWorkers | undefined;
  /** The warm-up job (see warm), once posted. */
  private warming: Promise<void> | undefined;

  /**
   * @param entry absolute path of the bundle of redactionWorker.ts (`dist/redactionWorker.js`);
   *   undefined runs every redaction on the caller's thread (sources under a test runner without
   *   a bundle).
   * @param settings read at each call.
   */
  constructor(
    entry: string | undefined,
    private readonly settings: () => RedactionSettings,
    private readonly log?: Log,
    private readonly boundMs = REDACT_BOUND_MS,
  ) {
    this.workers =
      entry === undefined
        ? undefined
        : new BoundedWorkers(
            `const __redaction = require(${JSON.stringify(entry)});\nfunction run(job, post) { __redaction.run(job, post); }`,
            1,
            'secret redaction',
          );
  }

  /**
   * Starts a worker and has it redact a line, when redaction is on and no worker was started yet:
   * loading the rules and compiling their regular expressions takes a worker 100–250 ms (2-core
   * machine), which the first long text (a send's viewport) would otherwise wait for. A job posted
   * meanwhile waits for it and takes that worker. Never throws; a failure shows in the first job.
   */
  warm(): void {
    if (this.warming || !this.workers || !this.settings().enabled) return;
    const job: RedactionJob = { texts: [WARM_UP_TEXT], patterns: [] };
    this.warming = this.workers
      .run<RedactionReply, void>(
        job,
        [],
        () => ({ done: undefined }),
        this.boundMs,
        () => undefined,
      )
      .catch(() => undefined);
  }

  /** Whether redaction is on now. */
  get enabled(): boolean {
    return this.settings().enabled;
  }

  /**
   * `texts` with their secrets redacted, in order, each redacted on its own (a secret never spans
   * two of them). In the worker when any is longer than SYNC_MAX_UNITS; every text is withheld
   * (WITHHELD_NOTICE) when the job passes its bound or the worker fails.
   * @param columns the terminal's width: lines wrapped there are read joined (redact.ts).
   */
  async redactAll(texts: readonly string[], columns?: number): Promise<string[]> {
    const settings = this.settings();
    if (!settings.enabled || texts.every((t) => t.length === 0)) return [...texts];
    const job: RedactionJob = {
      texts: [...texts],
      patterns: settings.patterns.map((p) => ({ label: p.label, source: p.pattern, flags: '' })),
      columns,
    };
    const long = texts.reduce((n, t) => n + t.length, 0) > SYNC_MAX_UNITS;
    if (!this.workers || (!long && job.patterns.length === 0)) {
      let reply: RedactionReply | undefined;
      runOnThisThread(job, (r) => (reply = r));
      return reply!.texts;
    }
    // The worker warming up is the one this job takes (a second would load the rules again).
    await this.warming;
    try {
      return await this.workers.run<RedactionReply, string[]>(
        job,
        [],
        (reply) => ({ done: reply.texts }),
        this.boundMs,
        () => {
          this.log?.warn(
            `secret redaction of ${texts.length} texts (${texts.reduce((n, t) => n + t.length, 0)} code units) ran past ${this.boundMs} ms; withheld`,
          );
          return texts.map(withheld);
        },
      );
    } catch (error) {
      this.log?.warn(`secret redaction failed; the text is withheld: ${errorMessage(error)}`);
      return texts.map(withheld);
    }
  }

  /** One text redacted (see redactAll). */
  async redact(text: string, columns?: number): Promise<string> {
    return (await this.redactAll([text], columns))[0]!;
  }

  /**
   * A short string (a command line, a process's command) redacted on the caller's thread with the
   * built-in rules; one longer than SYNC_MAX_UNITS is withheld whole (its line count kept).
   */
  redactLine(text: string): string {
    return this.enabled ? redactShortText(text) : text;
  }

  /**
   * Ends the redaction workers and resolves once their threads exited; a redaction asked
   * afterwards that needs a worker is withheld, as when its worker fails. Idempotent.
   */
  async dispose(): Promise<void> {
    await this.workers?.dispose();
  }
}
