import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's own serializer factory (fast-json-stringify), building one serializer per distinct
 * response schema instead of one per route and status. Every route lists the same Problem responses,
 * so a server built 515 serializers of only 37 distinct schemas; sharing them took a server's start
 * from 3.3-3.5 s to 2.7 s (bench/README.md). A serializer is a pure function of its schema and the
 * shared schemas, so routes can share one.
 */
export function sharedSerializers(build: SerializerFactory = SerializerSelector()): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const built = new Map<string, ReturnType<typeof compile>>();
    return (route) => {
      const key = JSON.stringify(route.schema);
      let serializer = built.get(key);
      if (!serializer) built.set(key, (serializer = compile(route)));
      return serializer;
    };
  };
}
