/**
 * The worker side of secret redaction (secretRedactor.ts): bundled on its own
 * (`dist/redactionWorker.js`) and loaded by each redaction worker, where `run` redacts one job's
 * texts with the rules (redact.ts) and posts them back in one reply.
 */
import { redactSecrets } from './redact';
import type { UserSecretPattern } from './secretRules';

/** One redaction job: texts redacted alike, and the settings they are redacted with. */
export interface RedactionJob {
  texts: string[];
  /** The person's patterns as sources (compiled here with `g`, plus their own flags). */
  patterns: { label: string; source: string; flags: string }[];
  columns?: number;
}

/** The reply: the texts redacted, in the job's order, and how many secrets were replaced. */
export interface RedactionReply {
  texts: string[];
  count: number;
}

/** The last patterns compiled, by their JSON: a job with the same settings reuses them. */
let compiled: { key: string; patterns: UserSecretPattern[] } | undefined;

function patternsOf(job: RedactionJob): UserSecretPattern[] {
  const key = JSON.stringify(job.patterns);
  if (compiled?.key !== key) {
    compiled = {
      key,
      patterns: job.patterns.map((p) => ({ label: p.label, regex: new RegExp(p.source, p.flags.includes('g') ? p.flags : `${p.flags}g`) })),
    };
  }
  return compiled.patterns;
}

/** Redacts one job (see RedactionJob) and posts one RedactionReply. */
export function run(job: RedactionJob, post: (reply: RedactionReply) => void): void {
  const patterns = patternsOf(job);
  let count = 0;
  const texts = job.texts.map((text) => {
    const r = redactSecrets(text, { patterns, columns: job.columns });
    count += r.count;
    return r.text;
  });
  post({ texts, count });
}
