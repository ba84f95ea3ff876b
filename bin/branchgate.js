#!/usr/bin/env node
// Entry point of the `branchgate` CLI: runs the TypeScript sources through tsx's loader, so the
// command works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
