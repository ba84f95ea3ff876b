// `--ingest-ami ami://USER:SECRET@HOST[:5038][?tz=Zone]`: one AMI source, checked before the server
// starts. The secret stays in the spec only; ids, targets and messages never carry it.
import { AppError } from '../../../../shared/errors.js';
import { createTimeParser } from '../../asterisk-time.js';

/** One AMI source's configuration. */
export interface AmiSourceSpec {
  /** `ami:HOST:PORT`. */
  id: string;
  /** `ami://USER@HOST:PORT`: where, without the secret. */
  target: string;
  host: string;
  port: number;
  username: string;
  secret: string;
  /** IANA zone of the event times: the exchange's zone, or UTC when cdr.conf has usegmtime=yes. */
  timezone: string;
}

/** Parses one --ingest-ami value; errors name the value without its secret. */
export function parseAmiSourceSpec(text: string): AmiSourceSpec {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('bad_config', '--ingest-ami: expected ami://USER:SECRET@HOST[:5038][?tz=Zone]');
  }
  const shown = `ami://${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}`;
  if (url.protocol !== 'ami:')
    throw new AppError('bad_config', `--ingest-ami ${shown}: the scheme must be ami://`);
  if (!url.hostname) throw new AppError('bad_config', `--ingest-ami ${shown}: a host is required`);
  if (!url.username || !url.password)
    throw new AppError('bad_config', `--ingest-ami ${shown}: a manager user and secret are required`);
  const unknown = [...url.searchParams.keys()].filter((k) => k !== 'tz' && k !== 'time-zone');
  if (unknown.length > 0)
    throw new AppError(
      'bad_config',
      `--ingest-ami ${shown}: unknown option ${unknown.join(', ')} (known: tz)`,
    );
  const timezone = url.searchParams.get('tz') ?? url.searchParams.get('time-zone') ?? 'UTC';
  try {
    createTimeParser(timezone);
  } catch (err) {
    throw new AppError('bad_config', `--ingest-ami ${shown}: ${(err as Error).message}`);
  }
  const port = url.port ? Number(url.port) : 5038;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const hostPort = `${url.hostname}:${port}`;
  return {
    id: `ami:${hostPort}`,
    target: `ami://${decodeURIComponent(url.username)}@${hostPort}`,
    host,
    port,
    username: decodeURIComponent(url.username),
    secret: decodeURIComponent(url.password),
    timezone,
  };
}
