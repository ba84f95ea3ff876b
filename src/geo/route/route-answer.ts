// One line of `geo route` output per query: `query<TAB>tag<TAB>rule N`, or for no match
// `query<TAB>-<TAB>no rule matched: v2ray uses its first outbound` (naming it when the rules came in a
// config with outbounds); with --json one object a line,
// {"query","kind","outboundTag","rule"} (null tag and rule when no rule matched).
import type { RouteDecision } from './route-table.js';

/** Output format of `geo route`. */
export type RouteFormat = 'text' | 'json';

/** What the text form says when no rule matched. */
export const NO_MATCH_TEXT = 'no rule matched: v2ray uses its first outbound';

/** One answer line for a decision; `firstOutbound` is named in the text when known. */
export function formatDecision(d: RouteDecision, format: RouteFormat, firstOutbound?: string): string {
  if (format === 'json') {
    return `${JSON.stringify({ query: d.query, kind: d.kind, outboundTag: d.outboundTag, rule: d.rule })}\n`;
  }
  if (d.outboundTag === null) {
    const named = firstOutbound === undefined ? '' : ` ("${firstOutbound}")`;
    return `${d.query}\t-\t${NO_MATCH_TEXT}${named}\n`;
  }
  return `${d.query}\t${d.outboundTag}\trule ${d.rule}\n`;
}
