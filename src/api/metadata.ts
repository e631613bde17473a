import Type from 'typebox';

const Entry = Type.Object({ key: Type.String({ pattern: '^\\w{1,100}$' }), value: Type.String({ maxLength: 4096 }) });

export const MetadataBody = Type.Object(
  { metadata: Type.Array(Entry, { maxItems: 10 }) },
  {
    additionalProperties: true,
    description:
      'A document holds at most 10 entries in all: PUT replaces them (at most 10), POST merges (a merge that would pass 10 is a 400 and changes nothing). Keys of 1 to 100 word characters.',
  },
);

export const MetadataResponse = Type.Object({
  metadata: Type.Array(Entry),
  document: Type.Object({ id: Type.String(), url: Type.String({ format: 'uri' }) }),
});
