#!/usr/bin/env node
// Entry point of the `branchgate` command: the compiled CLI in dist/ (built by `npm run build`,
// shipped in the package). Nothing is compiled at start-up.
await import('../dist/cli/main.js');
