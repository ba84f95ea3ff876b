// The list of command groups; one register function per file in src/cli/.
import type { Command } from 'commander';

/** Adds every command group to the program. */
export function registerCommands(_program: Command): void {}
