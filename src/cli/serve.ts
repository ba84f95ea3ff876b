// `branchgate serve`: HTTPS on 0.0.0.0:8443 with data in ./data unless told otherwise.

import { existsSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { applyConfigFile, repeatable } from '../server/config-file.js';
import type { ServeFlags } from '../server/index.js';

// A repeatable option: each use adds one value (an environment variable gives one; a config file a list).
const repeat = repeatable;

/** Adds the `serve` command. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the HTTPS API (CDR pull and push, SMS) with the embedded defaults')
    .addOption(
      new Option('--data-dir <dir>', 'data directory (store, TLS certificate)').env('BRANCHGATE_DATA_DIR'),
    )
    .addOption(
      new Option('--listen <host:port>', 'HTTPS address (default 0.0.0.0:8443)').env('BRANCHGATE_LISTEN'),
    )
    .addOption(
      new Option('--http-listen <host:port>', 'also serve plain HTTP here (off by default)').env(
        'BRANCHGATE_HTTP_LISTEN',
      ),
    )
    .addOption(
      new Option(
        '--metrics-listen <host:port>',
        'serve GET /metrics without authentication on this plain HTTP address (off by default; on the API it needs a token)',
      ).env('BRANCHGATE_METRICS_LISTEN'),
    )
    .addOption(
      new Option(
        '--db <path-or-url>',
        'SQLite file or postgres:// URL (default <data-dir>/branchgate.db)',
      ).env('BRANCHGATE_DB'),
    )
    .addOption(
      new Option('--modem <kind>', 'sim | sim-pty | a serial device such as /dev/ttyUSB2 (default sim)').env(
        'BRANCHGATE_MODEM',
      ),
    )
    .addOption(
      new Option(
        '--tls-cert <file>',
        'PEM certificate (default: self-signed, generated into the data dir)',
      ).env('BRANCHGATE_TLS_CERT'),
    )
    .addOption(new Option('--tls-key <file>', 'PEM private key for --tls-cert').env('BRANCHGATE_TLS_KEY'))
    .addOption(
      new Option('--time-zone <iana>', 'time zone CDR times are shown in (default UTC)').env(
        'BRANCHGATE_TIME_ZONE',
      ),
    )
    .addOption(
      new Option('--log-level <level>', 'fatal|error|warn|info|debug|silent (default info)').env(
        'BRANCHGATE_LOG_LEVEL',
      ),
    )
    .addOption(
      new Option(
        '--sms-default-country-code <cc>',
        'country calling code SMS to national numbers take, e.g. 49 (default: national numbers are refused)',
      ).env('BRANCHGATE_SMS_DEFAULT_COUNTRY_CODE'),
    )
    .addOption(
      new Option(
        '--geosite <file>',
        'a geosite.dat for POST /api/geo/lookup (reloaded when it changes or on SIGHUP)',
      ).env('BRANCHGATE_GEOSITE'),
    )
    .addOption(
      new Option(
        '--geoip <file>',
        'a geoip.dat for POST /api/geo/lookup (reloaded when it changes or on SIGHUP)',
      ).env('BRANCHGATE_GEOIP'),
    )
    .addOption(
      new Option(
        '--recording-url <template>',
        'recording_url of live-ingested records, e.g. https://pbx/rec/{yyyy}/{mm}/{dd}/{file}',
      ).env('BRANCHGATE_RECORDING_URL'),
    )
    .addOption(
      new Option(
        '--ingest-ami <url>',
        'store the Cdr events of an Asterisk manager (repeatable; ami://USER:SECRET@HOST:5038?tz=Zone)',
      )
        .env('BRANCHGATE_INGEST_AMI')
        .argParser(repeat),
    )
    .addOption(
      new Option(
        '--ingest-csv <path>',
        'follow an Asterisk Master.csv as it grows (repeatable; PATH?columns=a,b&tz=Zone for its layout)',
      )
        .env('BRANCHGATE_INGEST_CSV')
        .argParser(repeat),
    )
    .addOption(
      new Option(
        '--ingest-sql <url>',
        'poll an existing CDR table read-only (repeatable; mysql://USER:PASS@HOST:3306/asteriskcdrdb or postgres://...)',
      )
        .env('BRANCHGATE_INGEST_SQL')
        .argParser(repeat),
    )
    .addOption(
      new Option('--ingest-sql-table <name>', 'the table --ingest-sql reads (default cdr)').env(
        'BRANCHGATE_INGEST_SQL_TABLE',
      ),
    )
    .addOption(
      new Option(
        '--config <file>',
        'YAML file of these flags by long name (default /etc/branchgate/config.yaml when present)',
      ).env('BRANCHGATE_CONFIG'),
    )
    .action(async (_flags: ServeFlags & { config?: string }, cmd: Command) => {
      await applyConfigFile(cmd, cmd.opts().config, existsSync);
      const flags = cmd.opts() as ServeFlags;
      const { resolveServeConfig, startServer } = await import('../server/index.js');
      const server = await startServer(resolveServeConfig(flags));
      const stop = (signal: string) => {
        process.stdout.write(`branchgate: ${signal}, shutting down\n`);
        server.close().then(
          () => process.exit(0),
          (err: unknown) => {
            process.stderr.write(`branchgate: shutdown failed: ${String(err)}\n`);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      // SIGHUP reloads what can be reloaded without a restart: the geo files.
      process.on('SIGHUP', () => {
        process.stdout.write('branchgate: SIGHUP, reloading the geo files\n');
        server.reload();
      });
    });
}
