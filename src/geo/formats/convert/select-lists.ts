// Picks the lists a conversion writes: every list of the inputs, or those the selectors name
// (`cn`, `google@ads`: the rules carrying every attribute, as `geo dump` and routers select).
import { GeoError } from '../../errors.js';
import { parseListSelector, selectRules } from '../list-text.js';
import type { AnyList } from './any-list.js';
import type { ConvertInput } from './read-input.js';

/** One list to convert: its input, the name its own file takes (`google@ads`), the list. */
export interface SelectedList {
  /** The input file's name. */
  readonly source: string;
  /** The selector in lower case (the code, or `code@attr`): the base of its output file's name. */
  readonly stem: string;
  readonly item: AnyList;
}

/**
 * The selected lists, in selector order (none given: every list of every input, in file order).
 * A selector names a code some input holds (the first that holds it), else code_not_found.
 */
export function selectLists(
  inputs: readonly ConvertInput[],
  selectors?: readonly string[] | undefined,
): SelectedList[] {
  if (!selectors || selectors.length === 0) {
    return inputs.flatMap((input) =>
      input.codes.map((code) => ({ source: input.name, stem: code.toLowerCase(), item: input.read(code) })),
    );
  }
  const out: SelectedList[] = [];
  const seen = new Set<string>();
  for (const text of selectors) {
    const selector = parseListSelector(text);
    const stem = [selector.code, ...selector.attrs].join('@').toLowerCase();
    if (selector.code === '' || seen.has(stem)) continue;
    seen.add(stem);
    const input = inputs.find((i) => i.codes.includes(selector.code.toUpperCase()));
    if (!input) {
      const names = inputs.map((i) => i.name).join(', ');
      throw new GeoError(
        'code_not_found',
        `no list "${selector.code}" in ${names} (run \`branchgate geo info\` on a .dat to list its codes)`,
      );
    }
    const item = input.read(selector.code);
    if (selector.attrs.length === 0) {
      out.push({ source: input.name, stem, item });
    } else if (item.kind === 'ip') {
      throw new GeoError('usage', `${input.name}: ${text}: IP lists have no attributes`);
    } else {
      const rules = selectRules(item.list, selector);
      out.push({ source: input.name, stem, item: { kind: 'site', list: { ...item.list, rules } } });
    }
  }
  return out;
}
