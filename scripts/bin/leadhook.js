#!/usr/bin/env node
// `pnpm leadhook …` finds no script of that name and runs this bin through
// `pnpm exec`, which, unlike a package script, prints no banner on stdout: the
// command's stdout is exactly its result (docs/api.md, "The command line": one JSON line).
process.removeAllListeners('warning');
await import('../dist/leadhook.js');
