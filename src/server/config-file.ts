// The serve config file: YAML holding serve's flags under their own long names
// (`listen: 127.0.0.1:8443`, `data-dir: /var/lib/branchgate`, `ingest-ami: [ami://...]`).
// Precedence is flag > environment > file > default: a file value is used only for an option that
// neither the command line nor its BRANCHGATE_* variable set. Unknown keys and wrong types are
// refused naming the key and the file.
import { readFileSync } from 'node:fs';
import type { Command, Option } from 'commander';
import { AppError } from '../shared/errors.js';

/** The argument parser of a repeatable flag (each use adds one value); files may give a list. */
export const repeatable = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

/** Where serve looks for a file when neither --config nor BRANCHGATE_CONFIG names one. */
export const DEFAULT_CONFIG_FILE = '/etc/branchgate/config.yaml';

/** The options a file may set: every long option of the command but --config. */
function settable(cmd: Command): Map<string, Option> {
  const out = new Map<string, Option>();
  for (const o of cmd.options) {
    const name = o.long?.replace(/^--/, '');
    if (name && name !== 'config') out.set(name, o);
  }
  return out;
}

/** Reads and checks a config file against a command's options; returns option values by attribute. */
export async function readConfigFile(file: string, cmd: Command): Promise<Map<string, string | string[]>> {
  // Loaded here, not at start-up: `branchgate --version` and other commands never pay for it.
  const { parse } = await import('yaml');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AppError('bad_config', `${file}: cannot read: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new AppError('bad_config', `${file}: not YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return new Map();
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new AppError('bad_config', `${file}: expected a mapping of option names to values`);
  const options = settable(cmd);
  const out = new Map<string, string | string[]>();
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    const option = options.get(key);
    if (!option)
      throw new AppError(
        'bad_config',
        `${file}: unknown key "${key}" (keys are serve's long flags: ${[...options.keys()].join(', ')})`,
      );
    const many = option.parseArg === repeatable;
    const scalar = (v: unknown): string => {
      if (typeof v === 'string' || typeof v === 'number') return String(v);
      throw new AppError(
        'bad_config',
        `${file}: key "${key}": expected ${many ? 'a text or a list of texts' : 'a text'}`,
      );
    };
    if (Array.isArray(value)) {
      if (!many) throw new AppError('bad_config', `${file}: key "${key}": takes one value, not a list`);
      out.set(option.attributeName(), value.map(scalar));
    } else {
      const v = scalar(value);
      out.set(option.attributeName(), many ? [v] : v);
    }
  }
  return out;
}

/**
 * Fills the command's options from a config file where neither a flag nor the environment set
 * them; returns the file used, or undefined when there was none.
 */
export async function applyConfigFile(
  cmd: Command,
  given: string | undefined,
  exists: (f: string) => boolean,
): Promise<string | undefined> {
  const file = given ?? (exists(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  if (file === undefined) return undefined;
  for (const [attribute, value] of await readConfigFile(file, cmd)) {
    const source = cmd.getOptionValueSource(attribute);
    if (source === 'cli' || source === 'env') continue;
    cmd.setOptionValueWithSource(attribute, value, 'config');
  }
  return file;
}

/** A value as `config print` shows it: passwords in URLs masked. */
export function maskSecrets(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/\s]*:)[^@/\s]*@/i, '$1***@');
}
