// Conversion between every list format the geo area reads and writes (`geo convert`, `geo
// export`): detection, the table of formats, reading inputs, the pure conversion with its account
// of what each list lost, and writing the files. See docs/geo.md, "Converting between formats".

export type { AnyList } from './any-list.js';
export {
  CONVERT_FORMATS,
  type ConvertFormat,
  FORMATS,
  type FormatInfo,
  isConvertFormat,
  type ListKind,
} from './convert-format.js';
export {
  type ConvertedFile,
  type ConvertOptions,
  type ConvertResult,
  convertLists,
} from './convert-lists.js';
export { detectFormat, type InputFormat } from './detect-format.js';
export type { DnsmasqOptions } from './dnsmasq-writer.js';
export { describeAccount, type ListAccount, type LossCounts, type LossKind } from './list-account.js';
export { listCodeOfFile } from './list-code-of-file.js';
export type { NftablesOptions } from './nftables-writer.js';
export { type ConvertInput, type ReadInputOptions, readInput } from './read-input.js';
export { MAX_INPUT_BYTES, readInputFile } from './read-input-file.js';
export { type SelectedList, selectLists } from './select-lists.js';
export { formatOfExtension, targetFormat } from './target-format.js';
export { readTextList } from './text-list-reader.js';
export { writeTextList } from './text-list-writer.js';
export { type WrittenOutput, writeConverted } from './write-converted.js';
