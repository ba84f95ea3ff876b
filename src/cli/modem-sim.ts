// `branchgate modem-sim` command group.
import type { Command } from 'commander';

/** Adds the `modem-sim` command group to the program. */
export function registerModemSim(_program: Command): void {}
