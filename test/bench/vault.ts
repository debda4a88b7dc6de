// A generated vault of wiki-linked notes on disk, the same on every run, for benchmarks and the
// host-thread budget tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { seededRandom } from '../helpers/random';

/** A deterministic PRNG (mulberry32) so the generated vault is the same on every run. */
export const rng = seededRandom;

/** The file name (without `.md`) of generated note `i`: `note-00042`. */
export const noteName = (i: number): string => `note-${String(i).padStart(5, '0')}`;

/** The workspace-relative path of generated note `i`: `area-42/note-00042.md`. */
export const notePath = (i: number): string => `area-${String(i % 100).padStart(2, '0')}/${noteName(i)}.md`;

/** Write `n` notes in 100 folders of `dir`, each with a title, prose, ~6 links (aliases, headings, embeds) and a code fence. */
export function generateVault(dir: string, n: number): void {
  const rand = rng(42);
  const name = noteName;
  for (let i = 0; i < n; i++) {
    const folder = path.join(dir, `area-${String(i % 100).padStart(2, '0')}`);
    if (i < 100) fs.mkdirSync(folder, { recursive: true });
    const links: string[] = [];
    for (let k = 0; k < 6; k++) {
      const t = name(Math.floor(rand() * n));
      const r = rand();
      links.push(r < 0.6 ? `[[${t}]]` : r < 0.8 ? `[[${t}|see ${t}]]` : r < 0.9 ? `[[${t}#Details]]` : `![[${t}]]`);
    }
    const body = [
      `# Note ${i}`,
      '',
      `Some prose about topic ${i} that links to ${links[0]} and ${links[1]}, with \`inline [[code]]\` too.`,
      '',
      '## Details',
      '',
      `- point one ${links[2]}`,
      `- point two ${links[3]} ^point-${i}`,
      '',
      '```md',
      `[[${name((i + 1) % n)}]] in a code example is not a link`,
      '```',
      '',
      `More text. ${links[4]} ${links[5]}`,
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(folder, `${name(i)}.md`), body);
  }
}

/** The big note of the host-thread benchmarks: `bytes` of `# h` lines (8 MiB: 2 097 152 headings). */
export function bigHeadingsNote(bytes = 8 * 1024 * 1024): string {
  return '# h\n'.repeat(Math.floor(bytes / 4));
}
