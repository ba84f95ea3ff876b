// The format a conversion writes: the one `--to` names, else the one the output file's extension
// stands for (`-o cn.srs`): .dat, .srs, .json, .mrs, .yaml/.yml, .list/.txt (mihomo text).
import { GeoError } from '../../errors.js';
import { CONVERT_FORMATS, type ConvertFormat, isConvertFormat } from './convert-format.js';

const BY_EXTENSION: Readonly<Record<string, ConvertFormat>> = {
  '.dat': 'dat',
  '.srs': 'srs',
  '.json': 'json',
  '.mrs': 'mrs',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.list': 'list',
  '.txt': 'list',
};

/** The format a file name's extension stands for (case-insensitive), or undefined. */
export function formatOfExtension(path: string): ConvertFormat | undefined {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return BY_EXTENSION[base.slice(dot).toLowerCase()];
}

/**
 * The format to write: `to` when given (it must be a format name), else the one OUTPUT's
 * extension stands for; refused when neither tells (a directory, `-`, an unknown extension).
 */
export function targetFormat(to: string | undefined, output: string): ConvertFormat {
  if (to !== undefined) {
    const name = to.toLowerCase();
    if (!isConvertFormat(name)) {
      throw new GeoError('usage', `unknown format "${to}" (expected ${CONVERT_FORMATS.join(', ')})`);
    }
    return name;
  }
  const byExtension = output === '-' ? undefined : formatOfExtension(output);
  if (byExtension === undefined) {
    throw new GeoError(
      'usage',
      `no format for ${output === '-' ? 'stdout' : `"${output}"`}: give --to (the extension tells only .dat, .srs, .json, .mrs, .yaml, .yml, .list and .txt)`,
    );
  }
  return byExtension;
}
