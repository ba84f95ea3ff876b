#!/usr/bin/env node
// Runs a TypeScript file (a benchmark or a script) through tsx's loader: `node bin/run-ts.js file.ts args...`.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const file = process.argv[2];
if (!file) {
  console.error('usage: node bin/run-ts.js <file.ts> [args...]');
  process.exit(2);
}
process.argv.splice(2, 1);
register();
await import(pathToFileURL(resolve(file)).href);
