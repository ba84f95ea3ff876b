// `branchgate cdr` command group.
import type { Command } from 'commander';

/** Adds the `cdr` command group to the program. */
export function registerCdr(_program: Command): void {}
