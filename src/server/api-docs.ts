// Building blocks for the routes' schemas: what OpenAPI shows (tags, summaries, security) and open
// object shapes for answers. Answer schemas also drive serialization, so objects stay open
// (additionalProperties: true: a field a route adds is never dropped) and only fields whose type
// is certain are typed.

/** Security requirements by who may call. */
export const ADMIN = [{ session: [] }, { token: [] }];
export const PULL = [{ session: [] }, { token: [] }, { extensionBasic: [] }, { extensionKey: [] }];
export const NONE: Array<Record<string, string[]>> = [];

/** An open object with these properties (none required unless named). */
export function open(properties: Record<string, unknown>, required: string[] = []): Record<string, unknown> {
  return { type: 'object', properties, additionalProperties: true, ...(required.length ? { required } : {}) };
}

/** The error body of the CDR and admin APIs. */
export const ERROR = open({ error: open({ code: { type: 'string' }, message: { type: 'string' } }) });

/** The error answers most admin routes share. */
export const ADMIN_ERRORS = { 400: ERROR, 401: ERROR, 403: ERROR };

/** Docs of one route: its group, a one-line summary, who may call, and optionally more words. */
export function doc(
  tag: string,
  summary: string,
  security: Array<Record<string, string[]>>,
  description?: string,
): Record<string, unknown> {
  return { tags: [tag], summary, security, ...(description ? { description } : {}) };
}
