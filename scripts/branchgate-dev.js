#!/usr/bin/env node
// The `branchgate` CLI straight from the TypeScript sources through tsx's loader, for development:
// the tests and benchmarks spawn this, so they always run the code as it is in src/, never a stale
// dist/. The published command (bin/branchgate.js) runs the compiled dist/ and needs no tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
