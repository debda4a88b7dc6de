/**
 * `npx tsx scripts/bench-previews.ts`: the cost of `dsh_lsp` previews of locations on very long
 * lines (a minified bundle's single line, up to the 8 MiB navigation read cap). Prints, for lines
 * of 1, 4 and 8 MiB, the time of one `preview` and of shaping 50 locations on that line (the
 * default page), in ms. Prints figures, asserts nothing. The extension host runs every extension on
 * one thread, so this time is time no extension runs.
 */
import { preview } from '../src/lsp/previewLine';
import { shapeLocations } from '../src/lsp/shapeLocations';
import type { NavLocation } from '../src/lsp/types';
import { now } from '../test/bench/timing';

const MiB = 1024 * 1024;

void (async () => {
  for (const size of [1, 4, 8]) {
    const line = 'a=1;'.repeat((size * MiB) / 4);
    let t = now();
    preview(line);
    const one = now() - t;
    const locations: NavLocation[] = Array.from({ length: 50 }, (_, i) => ({
      uri: 'file:///ws/dist/bundle.min.js',
      range: { start: { line: 0, character: i * 4 }, end: { line: 0, character: i * 4 + 1 } },
    }));
    t = now();
    await shapeLocations(locations, {
      operation: 'findReferences',
      resolvedWorkspaceUri: 'file:///ws',
      otherRoots: [],
      offset: 0,
      limit: 50,
      readLines: async () => [line],
    });
    console.log(`${size} MiB line: preview ${one.toFixed(1)} ms; 50 locations shaped ${(now() - t).toFixed(1)} ms`);
  }
})();
