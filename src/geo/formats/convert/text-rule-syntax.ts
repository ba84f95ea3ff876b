// The `text` format's line syntax for a site rule, as `geo dump` prints it and build-site reads it:
// `type:value` (a bare value is a domain rule) and ` @key`, ` @key=N` or ` @key=false` attributes.
// Shared by the reader and the writer so that whatever is written reads back the same.
import { DomainType, type SiteRule } from '../../model.js';
import { re2SyntaxError } from '../../site/site-source.js';

/** Rule type names of the syntax, by wire number. */
export const TEXT_RULE_TYPES: Readonly<Record<string, DomainType>> = {
  keyword: DomainType.Plain,
  regexp: DomainType.Regex,
  domain: DomainType.RootDomain,
  full: DomainType.Full,
};

const NAME_CHARS = /^[a-z0-9.-]+$/;
const ATTR_KEY = /^[a-z0-9!]+$/;

/** Why a rule value cannot be written in the syntax (undefined: it can). */
export function textValueProblem(type: DomainType, value: string): string | undefined {
  if (value === '') return 'is empty';
  if (type === DomainType.Regex) {
    if (/[\s#]/.test(value)) return 'holds white space or "#", which end a value in the text syntax';
    const problem = re2SyntaxError(value);
    return problem === undefined ? undefined : `is not a valid regexp: ${problem}`;
  }
  if (type === DomainType.Plain || type === DomainType.RootDomain || type === DomainType.Full) {
    return NAME_CHARS.test(value) ? undefined : 'holds characters other than a-z, 0-9, "." and "-"';
  }
  return `has rule type ${type}, which has no name in the text syntax`;
}

/** Why an attribute key cannot be written in the syntax (undefined: it can). */
export function textAttributeProblem(key: string): string | undefined {
  return ATTR_KEY.test(key) ? undefined : `attribute "${key}" holds characters other than a-z, 0-9 and "!"`;
}

/** The rule a text attribute token stands for (`@ads`, `@level=3`, `@x=false`), or a problem. */
export function parseTextAttribute(
  token: string,
): SiteRule['attributes'][number] | { readonly problem: string } {
  const eq = token.indexOf('=');
  const key = (eq === -1 ? token.slice(1) : token.slice(1, eq)).toLowerCase();
  const keyProblem = textAttributeProblem(key);
  if (keyProblem !== undefined) return { problem: keyProblem };
  if (eq === -1) return { key, value: true };
  const text = token.slice(eq + 1);
  if (text === 'false') return { key, value: false };
  if (text === 'true') return { key, value: true };
  if (!/^-?[0-9]{1,19}$/.test(text))
    return { problem: `attribute value "${text}" is not true, false or an integer` };
  const value = BigInt(text);
  if (value < -(1n << 63n) || value >= 1n << 63n)
    return { problem: `attribute value ${text} is out of int64 range` };
  return { key, value };
}
