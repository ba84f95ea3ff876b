// `branchgate serve` command group.
import type { Command } from 'commander';

/** Adds the `serve` command group to the program. */
export function registerServe(_program: Command): void {}
