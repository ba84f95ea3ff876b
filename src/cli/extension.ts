// `branchgate extension` command group.
import type { Command } from 'commander';

/** Adds the `extension` command group to the program. */
export function registerExtension(_program: Command): void {}
