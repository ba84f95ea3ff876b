// Opens one input of `geo convert` from its bytes: tells the format (or takes the one given),
// then offers its lists by code. A .dat is indexed and decodes a list only when asked; a one-list
// file (.srs, JSON, .mrs, YAML, text) is read at once, its code taken from its name or given.
import { GeoDat } from '../../dat/geo-dat.js';
import { GeoError } from '../../errors.js';
import { readMrs } from '../mihomo/mrs-reader.js';
import { entriesToList } from '../mihomo/provider-entries.js';
import { textEntries } from '../mihomo/provider-text.js';
import { yamlEntries } from '../mihomo/provider-yaml.js';
import { readRuleSet } from '../singbox/rule-set-reader.js';
import type { AnyList } from './any-list.js';
import { detectFormat, type InputFormat } from './detect-format.js';
import { listCodeOfFile } from './list-code-of-file.js';
import { readTextList } from './text-list-reader.js';

/** An opened input: its format, its list codes and a way to read each list. */
export interface ConvertInput {
  /** The file's name, for messages. */
  readonly name: string;
  readonly format: InputFormat;
  /** List codes, upper case, each once, in file order. */
  readonly codes: readonly string[];
  /** Reads one list by its code (case-insensitive); code_not_found when the file has none. */
  read(code: string): AnyList;
}

/** Options of readInput. */
export interface ReadInputOptions {
  /** The format, when the content should not decide (e.g. bare names as `text` or `list`). */
  readonly from?: InputFormat | undefined;
  /** The code of a one-list file's list (default: listCodeOfFile(name)). */
  readonly code?: string | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Opens the bytes of one input file; `name` is used for codes and in errors. */
export function readInput(bytes: Uint8Array, name: string, options: ReadInputOptions = {}): ConvertInput {
  const format = options.from ?? detectFormat(bytes, name);
  if (format === 'dat') {
    if (options.code !== undefined) {
      throw new GeoError(
        'usage',
        `${name}: --code names the list of a one-list file; a .dat names its lists`,
      );
    }
    const dat = GeoDat.fromBytes(bytes, name);
    return {
      name,
      format,
      codes: [...dat.lists().keys()],
      read(code) {
        const entry = dat.get(code);
        return dat.kind === 'ip'
          ? { kind: 'ip', list: dat.readIp(entry) }
          : { kind: 'site', list: dat.readSite(entry) };
      },
    };
  }
  const code = (options.code ?? listCodeOfFile(name)).toUpperCase();
  const item = readOneList(bytes, name, format, code);
  return {
    name,
    format,
    codes: [code],
    read(asked) {
      if (asked.toUpperCase() !== code) {
        throw new GeoError(
          'code_not_found',
          `${name}: no list "${asked}": the file holds one list, ${code} (named after the file; --code names it otherwise)`,
        );
      }
      return item;
    },
  };
}

function readOneList(bytes: Uint8Array, name: string, format: InputFormat, code: string): AnyList {
  switch (format) {
    case 'srs':
    case 'json': {
      const read = readRuleSet(bytes, name, { code });
      return read.kind === 'ip' ? { kind: 'ip', list: read.list } : { kind: 'site', list: read.list };
    }
    case 'mrs':
      return readMrs(bytes, name, undefined, code);
    case 'yaml': {
      const text = decodeText(bytes, name);
      const entries = yamlEntries(text, name);
      return entriesToList(entries, name, text.split('\n').length, 'yaml', code, emptyAsSite(entries));
    }
    case 'list': {
      const text = decodeText(bytes, name);
      const entries = textEntries(text);
      return entriesToList(entries, name, text.split('\n').length, 'text', code, emptyAsSite(entries));
    }
    case 'text':
      return readTextList(decodeText(bytes, name), name, code);
    case 'dat':
      throw new GeoError('usage', `${name}: a .dat holds many lists`);
  }
}

/** A provider without entries is read as an empty site list, as an empty rule-set is. */
function emptyAsSite(entries: readonly unknown[]): 'domain' | undefined {
  return entries.length === 0 ? 'domain' : undefined;
}

function decodeText(bytes: Uint8Array, name: string): string {
  try {
    return utf8.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new GeoError('source_syntax', `${name}: not valid UTF-8 text`);
  }
}
