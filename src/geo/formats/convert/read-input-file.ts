// Opens an input file of `geo convert` from disk: checks its size against a cap before reading
// it whole (a .dat is then indexed in memory), then hands the bytes to readInput.
import { readFileSync, statSync } from 'node:fs';
import { GeoError } from '../../errors.js';
import { type ConvertInput, type ReadInputOptions, readInput } from './read-input.js';

/** The largest input read (bytes): far above any real geo file (a full geoip.dat is ~20 MB). */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

/** Reads and opens one input file. */
export function readInputFile(path: string, options: ReadInputOptions = {}): ConvertInput {
  let bytes: Uint8Array;
  try {
    const size = statSync(path).size;
    if (size > MAX_INPUT_BYTES) {
      throw new GeoError(
        'file_unreadable',
        `${path}: ${size} bytes, more than the ${MAX_INPUT_BYTES} bytes read`,
      );
    }
    bytes = readFileSync(path);
  } catch (err) {
    if (err instanceof GeoError) throw err;
    throw new GeoError('file_unreadable', `cannot read ${path}: ${(err as Error).message}`);
  }
  return readInput(bytes, path, options);
}
