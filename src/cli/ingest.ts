// `branchgate ingest status`: the live CDR sources of a running server (GET /api/ingest/status),
// as a table or JSON. Credentials come from the environment, never from argv: an API token with
// the admin scope (--token-env) or the admin password (--password-env, logged in as `admin`).
import type { Command } from 'commander';
import { AppError } from '../shared/errors.js';
import { addConnectionOptions, type ConnectionFlags, connection, fromEnv } from './client.js';

interface StatusFlags extends ConnectionFlags {
  url: string;
  tokenEnv?: string;
  passwordEnv?: string;
  json?: boolean;
}

interface SourceJson {
  id: string;
  state: string;
  records_stored: number;
  rejected: number;
  last_record_at: string | null;
  lag_seconds: number | null;
  last_error: { message: string; at: string } | null;
}

/** Adds the `ingest` command group. */
export function registerIngest(program: Command): void {
  const group = program.command('ingest').description('live CDR sources of a running server');
  addConnectionOptions(
    group
      .command('status')
      .description('state, records stored, lag and last error of every live source')
      .option('--token-env <VAR>', 'read an API token (admin scope) from this environment variable')
      .option('--password-env <VAR>', 'read the admin password from this environment variable')
      .option('--json', 'print the JSON answer'),
  ).action(async (flags: StatusFlags) => {
    const { HttpExchange, jsonBody, parseBaseUrl, statusError, describeRequest } = await import(
      '../client/http-exchange.js'
    );
    const { loginAdminSession } = await import('../client/index.js');
    if ((flags.tokenEnv === undefined) === (flags.passwordEnv === undefined))
      throw new AppError('bad_option', 'give exactly one of --token-env VAR or --password-env VAR');
    const options = connection(flags);
    const headers: Record<string, string> = {};
    if (flags.tokenEnv !== undefined)
      headers.authorization = `Bearer ${fromEnv('--token-env', flags.tokenEnv)}`;
    else {
      const password = fromEnv('--password-env', flags.passwordEnv as string);
      headers.cookie = await loginAdminSession({ ...options, url: flags.url, username: 'admin', password });
    }
    const base = parseBaseUrl(flags.url);
    const url = new URL('api/ingest/status', base);
    const http = new HttpExchange(base, options);
    try {
      const answer = await http.send('GET', url, headers);
      if (answer.status !== 200) throw statusError(answer, describeRequest('GET', url));
      const body = jsonBody(answer, describeRequest('GET', url)) as { sources: SourceJson[] };
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(body)}\n`);
        return;
      }
      for (const s of body.sources) {
        const lag = s.lag_seconds === null ? '-' : `${s.lag_seconds}s`;
        const error = s.last_error ? `\tlast error ${s.last_error.at}: ${s.last_error.message}` : '';
        process.stdout.write(
          `${s.id}\t${s.state}\tstored ${s.records_stored}\trejected ${s.rejected}\tlast record ${s.last_record_at ?? '-'}\tlag ${lag}${error}\n`,
        );
      }
    } finally {
      http.close();
    }
  });
}
