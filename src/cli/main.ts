// `branchgate`: one CLI for every area. Each command group lives in its own file and loads its
// implementation lazily, so `branchgate geo ...` never pays for the server's imports.
import { Command, CommanderError } from 'commander';
import { AppError } from '../shared/errors.js';
import { VERSION } from '../shared/version.js';
import { registerCommands } from './commands.js';

const program = new Command('branchgate')
  .description("branchgate: a branch gateway's CDR, SMS and geo interfaces")
  .version(VERSION)
  // The program's own options (--version) only before a command: `geo convert --version 3` is the command's.
  .enablePositionalOptions()
  .showHelpAfterError()
  .exitOverride();

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode;
  } else if (err instanceof AppError) {
    process.stderr.write(`branchgate: ${err.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(
      `branchgate: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  }
}
