// @ts-check
// `node scripts/profile-top.mjs FILE.cpuprofile [N]`: the N (default 25) functions with the most
// self time in a V8 CPU profile (as written by --cpu-prof or DSH_BENCH_CPU_PROFILE), in ms and % of
// the profile, with their file and line.
import fs from 'node:fs';

const [file, top = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: node scripts/profile-top.mjs FILE.cpuprofile [N]');
/** @type {{ nodes: { id: number, callFrame: { functionName: string, url: string, lineNumber: number } }[], samples: number[], timeDeltas: number[] }} */
const p = JSON.parse(fs.readFileSync(file, 'utf8'));
/** @type {Map<number, number>} µs per node */
const spent = new Map();
p.samples.forEach((id, i) => spent.set(id, (spent.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
/** @type {Map<string, number>} */
const self = new Map();
for (const n of p.nodes) {
  const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (spent.get(n.id) ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
for (const [key, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
}
