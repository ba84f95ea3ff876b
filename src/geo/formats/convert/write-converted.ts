// Puts a conversion's files where OUTPUT says, atomically per file (temp file + rename) and only
// after every list converted, so a failed run leaves existing files untouched: one file at OUTPUT,
// several into OUTPUT as a directory (created if missing), or one text file's bytes for stdout.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../dat/geo-build.js';
import { GeoError } from '../../errors.js';
import { type ConvertFormat, FORMATS } from './convert-format.js';
import type { ConvertResult } from './convert-lists.js';

/** Where the files went: the paths written, or the bytes for stdout (OUTPUT `-`). */
export interface WrittenOutput {
  readonly paths: readonly string[];
  readonly stdout?: Uint8Array | undefined;
}

/**
 * Writes the files of `result` to `output`. `stdoutIsTerminal` guards binary formats from a
 * terminal: they go to stdout only when it is a pipe or a file.
 */
export function writeConverted(
  result: ConvertResult,
  output: string,
  to: ConvertFormat,
  stdoutIsTerminal: boolean,
): WrittenOutput {
  const format = FORMATS[to];
  const { files } = result;
  const only = files[0];
  if (!only) throw new GeoError('usage', 'no lists to write');
  if (output === '-') {
    if (files.length > 1) {
      throw new GeoError(
        'usage',
        `${files.length} lists, one ${format.title} file each: give a directory as -o, not "-"`,
      );
    }
    if (format.binary && stdoutIsTerminal) {
      throw new GeoError(
        'usage',
        `${format.title} is binary and stdout is a terminal: give -o FILE or redirect stdout`,
      );
    }
    return { paths: [], stdout: only.bytes };
  }
  const isDirectory = existsSync(output) && statSync(output).isDirectory();
  if (format.multi) {
    if (isDirectory) throw new GeoError('usage', `${output} is a directory; a ${format.title} is one file`);
    writeFileAtomic(output, only.bytes);
    return { paths: [output] };
  }
  if (files.length === 1 && !isDirectory && !/[/\\]$/.test(output)) {
    writeFileAtomic(output, only.bytes);
    return { paths: [output] };
  }
  const names = new Set<string>();
  for (const f of files) {
    const key = f.fileName.toLowerCase();
    if (names.has(key))
      throw new GeoError('usage', `two lists would both be written to ${join(output, f.fileName)}`);
    names.add(key);
  }
  try {
    mkdirSync(output, { recursive: true });
  } catch (err) {
    throw new GeoError('file_unreadable', `cannot create the directory ${output}: ${(err as Error).message}`);
  }
  const paths = files.map((f) => {
    const path = join(output, f.fileName);
    writeFileAtomic(path, f.bytes);
    return path;
  });
  return { paths };
}
