// The text form of a mihomo rule provider: one entry a line; blank lines and lines starting with
// `#` or `//` are skipped, every other line (trimmed) is an entry. Also the shared line type.

/** An entry as written in a text or YAML provider, with its 1-based line number. */
export interface ProviderLine {
  readonly text: string;
  readonly line: number;
}

/** The entries of a text provider with their line numbers. */
export function textEntries(text: string): ProviderLine[] {
  const out: ProviderLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const t = (lines[i] as string).trim();
    if (t === '' || t.startsWith('#') || t.startsWith('//')) continue;
    out.push({ text: t, line: i + 1 });
  }
  return out;
}

/** Entries as a text provider: one a line, each line ended by a newline. */
export function plainText(entries: readonly string[]): string {
  return entries.map((e) => `${e}\n`).join('');
}
