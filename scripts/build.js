#!/usr/bin/env node
// `npm run build`: dist/ from src/ with tsc (ESM, .d.ts, source maps), plus the files the code
// reads at run time beside itself (the console's assets). dist/ is emptied first, so a deleted
// source file never lingers in the package.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
cpSync(join(root, 'src/web/assets'), join(root, 'dist/web/assets'), { recursive: true });
