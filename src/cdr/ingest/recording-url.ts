// recording_url from a configurable template (serve --recording-url), e.g.
// `https://pbx.example/recordings/{yyyy}/{mm}/{dd}/{file}` for FreePBX's monitor directory layout.
// {file} is the recordingfile CDR variable, else userfield (where some dialplans put it); the date
// placeholders are the call's start in UTC. A record with no file gets ''.
import { AppError } from '../../shared/errors.js';

/** Builds a record's recording_url. */
export type RecordingUrlBuilder = (row: {
  recordingfile: string;
  userfield: string;
  start: number;
  uniqueid: string;
}) => string;

const PLACEHOLDER = /\{([a-z]+)\}/g;
const KNOWN = new Set(['file', 'uniqueid', 'yyyy', 'mm', 'dd']);

// Each path segment %-encoded, the slashes between them kept.
const encodePath = (value: string) => value.split('/').map(encodeURIComponent).join('/');

/** Checks a template; throws bad_config naming an unknown placeholder or a missing {file}. */
export function parseRecordingUrlTemplate(template: string): RecordingUrlBuilder {
  const used = [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
  const unknown = used.filter((p) => !KNOWN.has(p));
  if (unknown.length > 0)
    throw new AppError(
      'bad_config',
      `--recording-url: unknown placeholder {${unknown[0]}} (known: {file}, {uniqueid}, {yyyy}, {mm}, {dd})`,
    );
  if (!used.includes('file')) throw new AppError('bad_config', '--recording-url: the template needs {file}');
  return (row) => {
    const file = row.recordingfile || row.userfield;
    if (file === '') return '';
    const d = new Date(row.start * 1000);
    const values: Record<string, string> = {
      file: encodePath(file),
      uniqueid: encodeURIComponent(row.uniqueid),
      yyyy: String(d.getUTCFullYear()),
      mm: String(d.getUTCMonth() + 1).padStart(2, '0'),
      dd: String(d.getUTCDate()).padStart(2, '0'),
    };
    return template.replace(PLACEHOLDER, (_m, name: string) => values[name] ?? '');
  };
}
