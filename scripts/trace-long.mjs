// @ts-check
// `node scripts/trace-long.mjs FILE.json [MIN_MS=100] [N=12]`: the longest tasks of the window's
// renderer main thread (the thread every extension's calls to the window wait on) in a Chrome trace
// written with DSH_BROWSER_TRACE, each at least MIN_MS long, the N longest first, with the events
// that took most of each (garbage collection, layout, a function of the workbench). Each task's
// start is given from the trace's first event and on the monotonic clock, as bench:host prints its
// slow calls when DSH_BROWSER_TRACE is set, so the two can be matched.
import fs from 'node:fs';

const [file, minMs = '100', top = '12'] = process.argv.slice(2);
if (!file) throw new Error('usage: node scripts/trace-long.mjs FILE.json [MIN_MS] [N]');
/** @typedef {{ ph: string, name: string, pid: number, tid: number, ts?: number, dur?: number, args?: { name?: string, data?: { functionName?: string, url?: string, lineNumber?: number } } }} TraceEvent */
/** @type {TraceEvent[] | { traceEvents: TraceEvent[] }} */
const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
const events = Array.isArray(raw) ? raw : raw.traceEvents;
const thread = (/** @type {TraceEvent} */ e) => `${e.pid}:${e.tid}`;
/** Renderer main threads (one per page and iframe process). */
const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map(thread));
/** @type {Array<TraceEvent & { ts: number, dur: number }>} */
const complete = [];
let first = Infinity;
for (const e of events) {
  if (typeof e.ts === 'number' && e.ts > 0 && e.ts < first) first = e.ts;
  if (e.ph === 'X' && typeof e.ts === 'number' && typeof e.dur === 'number' && mains.has(thread(e)))
    complete.push({ ...e, ts: e.ts, dur: e.dur });
}
const tasks = complete
  .filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.dur / 1000 >= Number(minMs))
  .sort((a, b) => b.dur - a.dur)
  .slice(0, Number(top));
const what = (/** @type {TraceEvent} */ e) => {
  const d = e.args?.data;
  return e.name === 'FunctionCall'
    ? `FunctionCall ${d?.functionName || '(anonymous)'} ${(d?.url ?? '').split('/').slice(-1)[0]}:${d?.lineNumber ?? ''}`
    : e.name;
};
for (const t of tasks) {
  /** @type {Map<string, number>} */
  const byWhat = new Map();
  for (const e of complete) {
    if (e === t || thread(e) !== thread(t) || e.ts < t.ts || e.ts + e.dur > t.ts + t.dur) continue;
    byWhat.set(what(e), (byWhat.get(what(e)) ?? 0) + e.dur);
  }
  const filled = [...byWhat]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k, d]) => `${k} ${(d / 1000).toFixed(0)}`);
  console.log(
    `+${((t.ts - first) / 1e6).toFixed(2)} s (${(t.ts / 1e6).toFixed(2)} s monotonic)  ${(t.dur / 1000).toFixed(0)} ms: ${filled.join(' | ')}`,
  );
}
