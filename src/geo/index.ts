// The geo area's public surface: compilers (site, IP), the .dat reader, text forms, exports and
// the matchers.
// Other areas (server routes, the matcher) import from here only.

export {
  type BuildProgress,
  type BuildResult,
  buildIpDat,
  buildSiteDat,
  writeFileAtomic,
} from './dat/geo-build.js';
export { type DatEntry, type DatKind, GeoDat } from './dat/geo-dat.js';
export { type DatInfo, datDiff, datInfo, type ListDiff, type ListInfo } from './dat/geo-info.js';
export { type DatMatcher, loadMatcher, matchQueries, type QueryMatch } from './dat/matcher-loader.js';
export { GeoError, type GeoErrorCode } from './errors.js';
export {
  type AnyList,
  CONVERT_FORMATS,
  type ConvertedFile,
  type ConvertFormat,
  type ConvertInput,
  type ConvertOptions,
  type ConvertResult,
  convertLists,
  describeAccount,
  detectFormat,
  FORMATS,
  type FormatInfo,
  formatOfExtension,
  type InputFormat,
  isConvertFormat,
  type ListAccount,
  type ListKind,
  type LossCounts,
  type LossKind,
  listCodeOfFile,
  MAX_INPUT_BYTES,
  readInput,
  readInputFile,
  readTextList,
  type SelectedList,
  selectLists,
  targetFormat,
  type WrittenOutput,
  writeConverted,
  writeTextList,
} from './formats/convert/index.js';
export {
  type ExportFormat,
  type ExportOptions,
  type ExportResult,
  exportList,
} from './formats/geo-export.js';
export {
  cidrToText,
  type ListSelector,
  parseListSelector,
  selectRules,
  siteRuleToText,
} from './formats/list-text.js';
export {
  type ReadRuleSetOptions,
  type ReadRuleSetResult,
  type RuleSetList,
  type RuleSetVersion,
  readRuleSet,
  ruleSetCode,
  type WriteRuleSetSourceOptions,
  type WriteSrsOptions,
  writeRuleSetSource,
  writeSrs,
} from './formats/singbox/index.js';
export { CidrSet } from './ip/cidr-set.js';
export { formatCidr, type ParsedCidr, parseCidr } from './ip/ip-address.js';
export { compileIpLists } from './ip/ip-compiler.js';
export { decodeGeoIp } from './ip/ip-decoder.js';
export { encodeGeoIpList } from './ip/ip-encoder.js';
export { IpMatcher } from './ip/ip-matcher.js';
export {
  type Cidr,
  DomainType,
  type IpList,
  type SiteAttribute,
  type SiteList,
  type SiteRule,
} from './model.js';
export {
  formatAnswer,
  GeoLookup,
  type GeoLookupFiles,
  GeoService,
  type GeoServiceStatus,
  isIpQuery,
  type LoadedGeoFile,
  lookupLines,
} from './service/index.js';
export { compileSites } from './site/site-compiler.js';
export { decodeGeoSite } from './site/site-decoder.js';
export { encodeGeoSiteList } from './site/site-encoder.js';
export { normalizeDomain, SiteMatcher } from './site/site-matcher.js';
export { compileSiteRegex, type SiteRegex } from './site/site-regex.js';
export { parseSiteSource } from './site/site-source.js';
export { type ByteSource, fileSource, memorySource } from './wire/byte-source.js';
