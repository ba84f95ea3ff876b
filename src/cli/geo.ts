// `branchgate geo` command group.
import type { Command } from 'commander';

/** Adds the `geo` command group to the program. */
export function registerGeo(_program: Command): void {}
