// The list code a one-list file stands for: the file holds no code, so it comes from the name, as
// sing-geosite, meta-rules-dat and domain-list-community name their files.

/** Base name less its extension and a `geosite-`/`geoip-` prefix, upper case (geosite-cn.srs -> CN). */
export function listCodeOfFile(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).replace(/^(?:geosite|geoip)-/i, '').toUpperCase();
}
