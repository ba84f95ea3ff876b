// The list code a rule-set file stands for: a rule-set stores no code, so it is taken from the
// file's name, as sing-geosite and meta-rules-dat name their files (geosite-google.srs, cn.srs).

/** The list code a rule-set file name stands for: base name, less .srs/.json and geosite-/geoip-, upper case. */
export function ruleSetCode(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  return base
    .replace(/\.(srs|json)$/i, '')
    .replace(/^(geosite|geoip)-/i, '')
    .toUpperCase();
}
