#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from WORKER_NODE_ARGS="--cpu-prof …"): self time by
// function and by package, and inclusive time of the functions that matter.
// Usage: node bench/playbook/profile-summary.mjs <file.cpuprofile> [--top 25]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: args, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' } },
  allowPositionals: true,
});
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const top = Number(args.top);
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Self time per node from the samples and their time deltas (µs).
const self = new Map();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

function where(url) {
  if (!url) return '(native/v8)';
  // The last node_modules segment names the package (pnpm nests its store).
  const m = /.*node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(url);
  if (m) return m[1];
  const l = /\/(packages|services)\/([^/]+)\//.exec(url);
  if (l) return `leadhook ${l[1]}/${l[2]}`;
  if (url.startsWith('node:')) return 'node core';
  return url.split('/').slice(-2).join('/');
}
const key = (n) =>
  `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const byFn = new Map();
const byPkg = new Map();
for (const [id, t] of self) {
  const n = nodes.get(id);
  byFn.set(key(n), (byFn.get(key(n)) ?? 0) + t);
  const pkg = ['(garbage collector)', '(idle)', '(program)'].includes(n.callFrame.functionName)
    ? n.callFrame.functionName
    : where(n.callFrame.url);
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + t);
}
// Inclusive time: each sample counts once for every distinct function on its stack.
const incl = new Map();
for (const [id, t] of self) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(nodes.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + t);
  }
}
const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)} %`;
const show = (title, map) => {
  console.log(`\n${title}`);
  for (const [k, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${pct(t)}  ${k}`);
  }
};
console.log(`profile: ${(total / 1e6).toFixed(1)} s sampled`);
show('self time by package', byPkg);
show('self time by function', byFn);
show('inclusive time by function', incl);
