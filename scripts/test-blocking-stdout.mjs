// Preloaded into every test process (scripts/run-tests.mjs). Each test file runs in a child process
// that streams its results to the runner over its stdout, a pipe, and writes to a pipe are
// asynchronous on Linux: under --test-force-exit the child could exit with its last results still
// buffered, and the runner then reported fewer tests than ran, with exit 0 (nodejs/node#64833, open).
// Blocking writes make every result reach the runner before the child exits.
for (const stream of [process.stdout, process.stderr]) stream._handle?.setBlocking?.(true);
