/**
 * Quire's layers (docs/architecture.md), checked by `npm test` before any test runs
 * (`npx depcruise src web --config .dependency-cruiser.cjs`). Type-only imports count: a layer
 * that needs another's types depends on it as much as one that calls it.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycles, type-only imports included: put what two modules share in a module below both.',
      from: { path: '^(src|web)/' },
      to: { circular: true },
    },
    {
      name: 'model-imports-nothing',
      severity: 'error',
      comment: 'src/model/ (records, lifecycle, job and event names, ids, partition keys, project types) is the leaf: it imports nothing of the project.',
      from: { path: '^src/model/' },
      to: { path: '^(src|web)/', pathNot: '^src/model/' },
    },
    {
      name: 'runtime-imports-only-model',
      severity: 'error',
      comment: 'src/runtime/ (configuration, version, JIT tuning, metrics registry, thread entries) sits just above model/.',
      from: { path: '^src/runtime/' },
      to: { path: '^(src|web)/', pathNot: '^src/(model|runtime)/' },
    },
    {
      name: 'store-imports-only-model',
      severity: 'error',
      comment: 'src/store/ (database, blobs, queue) knows records, not rules: it imports model/ (and runtime/ for its configuration and threads) only.',
      from: { path: '^src/store/' },
      to: { path: '^(src|web)/', pathNot: '^src/(model|runtime|store)/' },
    },
    {
      name: 'document-imports-only-model',
      severity: 'error',
      comment: 'src/document/ (the structure model and its writers) is below the domain and the pipeline that use it.',
      from: { path: '^src/document/' },
      to: { path: '^(src|web)/', pathNot: '^src/(model|runtime|document)/' },
    },
    {
      name: 'only-app-imports-http-and-app',
      severity: 'error',
      comment: 'http/ and app/ are the top: only app/ (and main.ts) import them; http/ imports its own modules.',
      from: { pathNot: '^src/(app/|http/|main\\.ts$)' },
      to: { path: '^src/(http|app)/' },
    },
    {
      name: 'http-does-not-import-app',
      severity: 'error',
      comment: 'Routes get their services handed in (http/context.ts); they do not reach into the composition root.',
      from: { path: '^src/http/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'domain-below-ingest-reports-http',
      severity: 'error',
      comment: 'The rules (src/domain/) do not depend on the pipeline, the report generators, the webhooks sender or the transport; those depend on the domain, or are handed in by app/.',
      from: { path: '^src/domain/' },
      to: { path: '^src/(ingest|reports|http|app|webhooks|cli)/' },
    },
    {
      name: 'web-talks-http-only',
      severity: 'error',
      comment: 'The console (web/) talks to Quire over HTTP only; it may import the API shapes in src/api/ (types).',
      from: { path: '^web/' },
      to: { path: '^src/', pathNot: '^src/api/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve is a broken import.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], mainFields: ['module', 'main', 'types'], extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.json'] },
    skipAnalysisNotInRules: false,
  },
};
