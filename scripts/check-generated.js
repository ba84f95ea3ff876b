#!/usr/bin/env node
// CI check: regenerates the protobuf code and the WebAssembly cores (src/geo/gen) and fails when
// they differ from what is committed.
import { execFileSync } from 'node:child_process';

execFileSync('npx', ['buf', 'generate'], { stdio: 'inherit' });
execFileSync('node', ['scripts/generate-wasm.js'], { stdio: 'inherit' });
try {
  execFileSync('git', ['diff', '--exit-code', '--stat', '--', 'src/geo/gen'], { stdio: 'inherit' });
  const untracked = execFileSync('git', [
    'ls-files',
    '--others',
    '--exclude-standard',
    '--',
    'src/geo/gen',
  ]).toString();
  if (untracked.trim()) throw new Error(`untracked generated files:\n${untracked}`);
} catch (err) {
  console.error(
    'generated code differs from the committed code: run `npm run generate` and commit',
    String(err),
  );
  process.exit(1);
}
console.log('generated code is up to date');
