// The keys of sing-box's domain matcher (sing's domain.NewMatcher): each name reversed (by code
// point, then UTF-8), `domain_suffix` entries marked with a leading root label '\n' (version 2 on)
// or written as the name plus '\r' + '.' + name (version 1's legacy layout, where '\r' marks "any
// name ending here"), duplicates skipped as sing-box skips them, then sorted bytewise.

/** sing-box's prefix label: the key matches any name that ends with what follows it. */
export const PREFIX_LABEL = '\r';
/** sing-box's root label: the key matches the name that follows it and its subdomains. */
export const ROOT_LABEL = '\n';

const encoder = new TextEncoder();

/**
 * The sorted, distinct keys sing-box's matcher stores for these `domain` and `domain_suffix`
 * values; `legacy` gives version 1's layout.
 */
export function domainMatcherKeys(
  domains: readonly string[],
  suffixes: readonly string[],
  legacy: boolean,
): Uint8Array[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const suffix of suffixes) {
    if (seen.has(suffix)) continue;
    seen.add(suffix);
    if (suffix.startsWith('.')) keys.push(PREFIX_LABEL + suffix);
    else if (legacy) {
      keys.push(suffix);
      const dotted = `.${suffix}`;
      if (!seen.has(dotted)) {
        seen.add(dotted);
        keys.push(PREFIX_LABEL + dotted);
      }
    } else keys.push(ROOT_LABEL + suffix);
  }
  for (const domain of domains) {
    if (seen.has(domain)) continue;
    seen.add(domain);
    keys.push(domain);
  }
  const bytes = keys.map((key) => encoder.encode(Array.from(key).reverse().join('')));
  return bytes.sort(compareBytes);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
