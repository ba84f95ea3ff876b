// The geo lookup service: lookups over a site and an IP file (the CLI's `geo lookup` and the
// server's POST /api/geo/lookup), with reloading when the files change.
export { GeoLookup, type GeoLookupFiles, isIpQuery, type LoadedGeoFile } from './geo-lookup.js';
export {
  GEO_FILES_SETTINGS_KEY,
  type GeoFileChoice,
  type GeoLog,
  GeoService,
  type GeoServiceOptions,
  type GeoServiceStatus,
} from './geo-service.js';
export { answerLines, formatAnswer, type LookupFormat, lookupLines } from './lookup-stream.js';
