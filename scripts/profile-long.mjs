// @ts-check
// `node scripts/profile-long.mjs FILE.cpuprofile [MIN_MS=50] [N=10]`: the thread's longest busy
// stretches in a V8 CPU profile (runs of samples not in "(idle)"), each at least MIN_MS long, the
// N longest first, with the functions that took most of each stretch (inclusive time, ms) and the
// bundle or file they are in. A busy stretch is time the thread answered nothing else: on the
// extension host thread, what every extension waited for.
import fs from 'node:fs';

const [file, minMs = '50', top = '10'] = process.argv.slice(2);
if (!file) throw new Error('usage: node scripts/profile-long.mjs FILE.cpuprofile [MIN_MS] [N]');
/** @type {{ nodes: { id: number, parent?: number, children?: number[], callFrame: { functionName: string, url: string, lineNumber: number } }[], samples: number[], timeDeltas: number[], startTime: number }} */
const p = JSON.parse(fs.readFileSync(file, 'utf8'));
/** @type {Map<number, (typeof p.nodes)[number]>} */
const byId = new Map(p.nodes.map((n) => [n.id, n]));
/** @type {Map<number, number>} */
const parentOf = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const label = (/** @type {number} */ id) => {
  const f = byId.get(id)?.callFrame;
  if (!f) return '?';
  return `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
};
const idle = (/** @type {number} */ id) => ['(idle)'].includes(byId.get(id)?.callFrame.functionName ?? '');

/** @type {Array<{ start: number, ms: number, samples: number[] }>} */
const stretches = [];
let t = p.startTime;
/** @type {{ start: number, ms: number, samples: number[] } | undefined} */
let cur;
p.samples.forEach((id, i) => {
  const dt = p.timeDeltas[i] ?? 0;
  t += dt;
  if (idle(id)) {
    if (cur) stretches.push(cur);
    cur = undefined;
    return;
  }
  if (!cur) cur = { start: t, ms: 0, samples: [] };
  cur.ms += dt / 1000;
  cur.samples.push(id);
});
if (cur) stretches.push(cur);
const long = stretches
  .filter((s) => s.ms >= Number(minMs))
  .sort((a, b) => b.ms - a.ms)
  .slice(0, Number(top));
console.log(`${stretches.filter((s) => s.ms >= Number(minMs)).length} busy stretches of ${minMs} ms or more; the longest:`);
for (const s of long) {
  /** @type {Map<number, number>} inclusive sample counts per node, except the root */
  const inclusive = new Map();
  for (const id of s.samples) {
    const seen = new Set();
    for (let n = id; n !== undefined && parentOf.has(n); n = /** @type {number} */ (parentOf.get(n))) {
      const key = label(n);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(n, (inclusive.get(n) ?? 0) + 1);
    }
  }
  const per = s.ms / s.samples.length;
  /** @type {Map<string, number>} */
  const rows = new Map();
  for (const [id, count] of inclusive) rows.set(label(id), Math.max(rows.get(label(id)) ?? 0, count));
  console.log(`\n${s.ms.toFixed(0)} ms at +${((s.start - p.startTime) / 1000).toFixed(0)} ms:`);
  for (const [key, count] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${(count * per).toFixed(0).padStart(6)} ms  ${key}`);
}
