// `branchgate config check FILE` (is it a valid serve config file?) and `branchgate config print
// [--config FILE]` (serve's effective settings from flags' defaults, the file and the environment,
// each with where it came from; passwords in URLs masked).
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { registerServe } from './serve.js';

/** A fresh `serve` command to read options against (its action replaced: nothing starts). */
function serveCommand(): Command {
  const program = new Command('branchgate').exitOverride();
  registerServe(program);
  const serve = program.commands.find((c) => c.name() === 'serve') as Command;
  serve.action(() => undefined);
  return serve;
}

/** Adds the `config` command group. */
export function registerConfig(program: Command): void {
  const group = program.command('config').description('the serve config file');
  group
    .command('check <file>')
    .description('check a serve config file: every key a serve flag, every value of the right type')
    .action(async (file: string) => {
      const { readConfigFile } = await import('../server/config-file.js');
      const values = await readConfigFile(file, serveCommand());
      process.stdout.write(`${file}: ${values.size} settings, all valid\n`);
    });

  group
    .command('print')
    .description("serve's effective settings (flag > environment > file > default), secrets masked")
    .option(
      '--config <file>',
      'the config file (default: BRANCHGATE_CONFIG, else /etc/branchgate/config.yaml when present)',
    )
    .action(async (o: { config?: string }) => {
      const { applyConfigFile, maskSecrets } = await import('../server/config-file.js');
      const serve = serveCommand();
      await (serve.parent as Command).parseAsync(['serve', ...(o.config ? ['--config', o.config] : [])], {
        from: 'user',
      });
      const file = await applyConfigFile(serve, serve.opts().config, existsSync);
      process.stdout.write(`# effective serve settings${file ? ` (config file ${file})` : ''}\n`);
      for (const option of serve.options) {
        const name = option.long?.replace(/^--/, '') ?? '';
        if (name === 'config') continue;
        const value = serve.getOptionValue(option.attributeName()) as string | string[] | undefined;
        const source = serve.getOptionValueSource(option.attributeName()) ?? 'default';
        const text =
          value === undefined
            ? '(default)'
            : Array.isArray(value)
              ? `[${value.map((v) => JSON.stringify(maskSecrets(v))).join(', ')}]`
              : JSON.stringify(maskSecrets(value));
        process.stdout.write(`${name}: ${text}  # ${source}\n`);
      }
    });
}
