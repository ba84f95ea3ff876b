// `branchgate user` command group.
import type { Command } from 'commander';

/** Adds the `user` command group to the program. */
export function registerUser(_program: Command): void {}
