// `branchgate ingest status|list|add|remove`: the live CDR sources of a running server, over its
// API (GET /api/ingest/status, /api/ingest/sources). Credentials come from the environment, never
// from argv: an API token with the admin scope (--token-env) or the admin password (--password-env,
// logged in as `admin`). `add` takes a source as its serve flag's value, so a manager secret given
// to it travels only in the request body.
import type { Command } from 'commander';
import { AppError } from '../shared/errors.js';
import { addConnectionOptions, type ConnectionFlags, connection, fromEnv } from './client.js';

interface ApiFlags extends ConnectionFlags {
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

interface EntryJson {
  id: string;
  kind: string;
  target: string;
  origin: string;
}

/** Calls the server's API once with the credentials of the flags; returns the parsed body (or null). */
async function call(flags: ApiFlags, method: string, path: string, body?: unknown): Promise<unknown> {
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
  if (body !== undefined) headers['content-type'] = 'application/json';
  const base = parseBaseUrl(flags.url);
  const url = new URL(path, base);
  const http = new HttpExchange(base, options);
  try {
    const answer = await http.send(
      method,
      url,
      headers,
      body === undefined ? undefined : JSON.stringify(body),
    );
    if (answer.status < 200 || answer.status > 299) throw statusError(answer, describeRequest(method, url));
    return answer.status === 204 ? null : jsonBody(answer, describeRequest(method, url));
  } finally {
    http.close();
  }
}

function withApiOptions(cmd: Command): Command {
  return addConnectionOptions(
    cmd
      .option('--token-env <VAR>', 'read an API token (admin scope) from this environment variable')
      .option('--password-env <VAR>', 'read the admin password from this environment variable'),
  );
}

/** Adds the `ingest` command group. */
export function registerIngest(program: Command): void {
  const group = program.command('ingest').description('live CDR sources of a running server');

  withApiOptions(
    group
      .command('status')
      .description('state, records stored, lag and last error of every live source')
      .option('--json', 'print the JSON answer'),
  ).action(async (flags: ApiFlags) => {
    const body = (await call(flags, 'GET', 'api/ingest/status')) as { sources: SourceJson[] };
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
  });

  withApiOptions(
    group
      .command('list')
      .description('the sources, from serve flags and added ones')
      .option('--json', 'JSON output'),
  ).action(async (flags: ApiFlags) => {
    const body = (await call(flags, 'GET', 'api/ingest/sources')) as { sources: EntryJson[] };
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(body)}\n`);
      return;
    }
    for (const s of body.sources) process.stdout.write(`${s.id}\t${s.kind}\t${s.target}\t${s.origin}\n`);
  });

  withApiOptions(
    group
      .command('add <kind>')
      .description(
        'add and start a source (kind ami, csv or sql), kept across restarts; the source (as its serve flag takes it) is read from --source-env or stdin',
      )
      .option('--source-env <VAR>', 'read the source (e.g. ami://user:secret@pbx:5038) from this variable'),
  ).action(async (kind: string, flags: ApiFlags & { sourceEnv?: string }) => {
    let source: string;
    if (flags.sourceEnv !== undefined) source = fromEnv('--source-env', flags.sourceEnv);
    else {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      source = Buffer.concat(chunks).toString('utf8').trim();
      if (!source) throw new AppError('bad_option', 'give the source in --source-env VAR or on stdin');
    }
    const entry = (await call(flags, 'POST', 'api/ingest/sources', { kind, source })) as EntryJson;
    process.stdout.write(`added ${entry.id} (${entry.target})\n`);
  });

  withApiOptions(group.command('remove <id>').description('stop and forget an added source')).action(
    async (id: string, flags: ApiFlags) => {
      await call(flags, 'DELETE', `api/ingest/sources/${encodeURIComponent(id)}`);
      process.stdout.write(`removed ${id}\n`);
    },
  );
}
