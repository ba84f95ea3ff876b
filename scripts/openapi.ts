// Writes (`npm run openapi`) or checks (`npm run openapi:check`, in CI) docs/openapi.json: the
// description @fastify/swagger generates from the routes' own schemas. The check fails when the
// committed file differs from a fresh one, when the description is not valid OpenAPI 3.1
// (@apidevtools/swagger-parser), or when an API route has no summary or no response schema,
// except the routes listed in UNDESCRIBED below (a list that only shrinks: a new route must come
// with its schema).
//   node bin/run-ts.js scripts/openapi.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { buildApp } from '../src/server/app.js';
import { openStore } from '../src/store/index.js';

/** API routes not yet described (issue 16): each still needs a summary and a response schema. */
const UNDESCRIBED = new Set<string>([]);

const file = resolve(import.meta.dirname, '../docs/openapi.json');
const check = process.argv.includes('--check');

const store = await openStore({ db: ':memory:' });
const { app } = await buildApp({ store, logLevel: 'silent' });
await app.ready();
const spec = app.swagger() as {
  paths: Record<
    string,
    Record<string, { summary?: string; responses?: Record<string, { content?: unknown }> }>
  >;
};
const text = `${JSON.stringify(spec, null, 2)}\n`;
await app.close();
await store.close();

const problems: string[] = [];
for (const [path, ops] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(ops)) {
    const key = `${method.toUpperCase()} ${path}`;
    const described =
      Boolean(op.summary) && Object.values(op.responses ?? {}).some((r) => r.content !== undefined);
    if (!described && !UNDESCRIBED.has(key)) problems.push(`${key}: no summary or no response schema`);
    if (described && UNDESCRIBED.has(key))
      problems.push(`${key}: described now; take it off UNDESCRIBED in scripts/openapi.ts`);
  }
}
await SwaggerParser.validate(JSON.parse(text)).catch((err: unknown) => {
  problems.push(`not valid OpenAPI: ${String(err)}`);
});

if (check) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    problems.push('docs/openapi.json is missing: run `npm run openapi` and commit it');
  }
  if (committed && committed !== text)
    problems.push('docs/openapi.json differs from the routes: run `npm run openapi` and commit it');
} else {
  writeFileSync(file, text);
  console.log(`wrote ${file}: ${Object.keys(spec.paths).length} paths`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
if (check) console.log('docs/openapi.json is up to date and valid; every API route is described');
