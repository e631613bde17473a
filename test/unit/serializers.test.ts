import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import Type from 'typebox';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { sharedSerializers } from '../../src/http/serializers.js';

const Problem = Type.Object({ title: Type.String(), status: Type.Integer() }, { $id: 'Problem' });
const Thing = Type.Object({ id: Type.String(), note: Type.Union([Type.String(), Type.Null()]) });

test('sharedSerializers: one serializer per distinct schema, whatever the route and status', () => {
  const compiled: unknown[] = [];
  const build = SerializerSelector();
  const counting: ReturnType<typeof SerializerSelector> = (external, options) => {
    const compile = build(external, options);
    return (route) => (compiled.push(route.schema), compile(route));
  };
  const compile = sharedSerializers(counting)({ Problem }, {});
  const a = compile({ method: 'GET', url: '/a', httpStatus: '200', schema: Thing });
  const b = compile({ method: 'POST', url: '/b', httpStatus: '201', schema: structuredClone(Thing) });
  const problems = ['400', '404', '409'].map((httpStatus) => compile({ method: 'GET', url: '/a', httpStatus, schema: Type.Ref('Problem') }));
  assert.equal(compiled.length, 2, 'Thing (twice, once as a copy) and the Problem reference (three statuses) are built once each');
  assert.equal(a, b);
  assert.equal(new Set(problems).size, 1);
  assert.notEqual(a, problems[0]);
  assert.equal(a({ id: 'x', note: null, extra: 1 }), '{"id":"x","note":null}');
  assert.equal(problems[0]!({ title: 'Gone', status: 404 }), '{"title":"Gone","status":404}');
});

test('sharedSerializers in Fastify: routes that share a schema answer as each would alone', async () => {
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } } });
  app.addSchema(Problem);
  const response = { 200: Thing, 404: Type.Ref('Problem') };
  app.get('/one', { schema: { response } }, async () => ({ id: '1', note: 'kept', dropped: true }));
  app.get('/two', { schema: { response } }, async () => ({ id: '2', note: null }));
  app.get('/missing', { schema: { response } }, async (_req, reply) => reply.code(404).send({ title: 'Not here', status: 404, detail: 'dropped' }));
  try {
    assert.deepEqual((await app.inject('/one')).json(), { id: '1', note: 'kept' });
    assert.deepEqual((await app.inject('/two')).json(), { id: '2', note: null });
    const missing = await app.inject('/missing');
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { title: 'Not here', status: 404 });
  } finally {
    await app.close();
  }
});
