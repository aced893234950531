/**
 * `node bench/dist/profileSummary.js <file.cpuprofile> [top]`: where a `--cpu-prof` profile (as
 * `npm run bench -- --profile` writes them) spent its time — self time by function, and total
 * (inclusive) time by package or product folder.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/dist/profileSummary.js <file.cpuprofile> [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  const ours = /\/(contracts|eventstore|projections|workers|command-api|cli|bench)\/dist\/(.*)$/.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  return url.startsWith('node:') ? url : url ? url.replace(/^.*\//, '') : '(native)';
};
const label = (node: Node) => `${node.callFrame.functionName || '(anonymous)'} ${where(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;

const selfByLabel = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  const key = label(node);
  selfByLabel.set(key, (selfByLabel.get(key) ?? 0) + us);
}
const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled\n\nself time by function:\n`);
for (const [key, us] of [...selfByLabel].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(us)}  ${key}\n`);

// Inclusive time per module/folder: each sample counts once for every distinct module on its stack.
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const node = byId.get(at)!;
    const url = node.callFrame.url;
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    const ours = /\/(contracts|eventstore|projections|workers|command-api|cli)\/dist\/([^/]+(?:\/[^/]+)?)/.exec(url);
    const key = m ? m[1] : ours ? `${ours[1]}/${ours[2]}` : null;
    if (key && !seen.has(key)) {
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
}
process.stdout.write('\ninclusive time by package or product file:\n');
for (const [key, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(us)}  ${key}\n`);
