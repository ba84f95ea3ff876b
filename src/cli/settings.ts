// `branchgate settings` command group.
import type { Command } from 'commander';

/** Adds the `settings` command group to the program. */
export function registerSettings(_program: Command): void {}
