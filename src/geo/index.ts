// The geo area's public surface: compilers (site, IP), the .dat reader, text forms, exports and
// the matchers.
// Other areas (server routes, the matcher) import from here only.

export { type ByteSource, fileSource, memorySource } from './byte-source.js';
export { CidrSet } from './cidr-set.js';
export { GeoError, type GeoErrorCode } from './errors.js';
export {
  type BuildProgress,
  type BuildResult,
  buildIpDat,
  buildSiteDat,
  writeFileAtomic,
} from './geo-build.js';
export { type DatEntry, type DatKind, GeoDat } from './geo-dat.js';
export { type ExportFormat, type ExportOptions, type ExportResult, exportList } from './geo-export.js';
export { type DatInfo, datDiff, datInfo, type ListDiff, type ListInfo } from './geo-info.js';
export { formatCidr, type ParsedCidr, parseCidr } from './ip-address.js';
export { compileIpLists } from './ip-compiler.js';
export { decodeGeoIp } from './ip-decoder.js';
export { encodeGeoIpList } from './ip-encoder.js';
export { IpMatcher } from './ip-matcher.js';
export {
  cidrToText,
  type ListSelector,
  parseListSelector,
  selectRules,
  siteRuleToText,
} from './list-text.js';
export { type DatMatcher, loadMatcher, matchQueries, type QueryMatch } from './matcher-loader.js';
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
export { compileSites } from './site-compiler.js';
export { decodeGeoSite } from './site-decoder.js';
export { encodeGeoSiteList } from './site-encoder.js';
export { normalizeDomain, SiteMatcher } from './site-matcher.js';
export { compileSiteRegex, type SiteRegex } from './site-regex.js';
export { parseSiteSource } from './site-source.js';
