/**
 * What `quire help`, `quire --help` and `quire COMMAND --help` print: every command with its
 * sub-commands and every flag described. One text per command, for the server's commands
 * (src/app/) and the client's (src/cli/) alike.
 */

const CONNECTION = `connection (client commands):
  --url URL        the service, default $QUIRE_URL or http://127.0.0.1:8080
  --key KEY        an API key, default $QUIRE_API_KEY (quire keys create makes one)
  --json           print JSON for scripts instead of tables and messages`;

export const COMMAND_HELP: Record<string, string> = {
  serve: `quire serve [--no-worker]
  Runs the API (and the console at /) and, in the same process, is a worker too: consumes the job
  queues (ingestion, reports).
  --no-worker      run the API only (start \`quire worker\` processes separately)
  Configuration comes from the environment (README: Configuration; .env.example lists it all).`,
  worker: `quire worker
  A worker: consumes the job queues (ingestion, reports) only (no HTTP); as many processes as you
  like, on the same database and blob store as the API.`,
  migrate: `quire migrate
  Applies the database migrations and exits (serve and worker also apply them at start).`,
  workspaces: `quire workspaces create NAME [--type TYPE] [--json]
  quire workspaces list [--json]
  quire workspaces set-quota NAME [--pages N] [--pages-per-document N] [--users N] [--json]
  quire workspaces set-expiry NAME WHEN [--json]
  --type TYPE                  the workspace's type as the API reports it (default: Trial)
  --pages N                    pages the workspace may hold in all
  --pages-per-document N       pages a single document may have
  --users N                    users the workspace may have
  WHEN                         an ISO 8601 date (UTC midnight) or date-time with a zone, or never;
                               once past, the workspace's keys get 403 everywhere
  --json                       print the workspace(s) as JSON`,
  keys: `quire keys create --workspace NAME --scopes a,b [--name N] [--json]
  quire keys list [--workspace NAME] [--json]
  quire keys revoke ID [--json]
  --workspace NAME   the workspace the key acts in (list: only its keys)
  --scopes a,b       what the key may do: admin, read:documents, write:documents, … (comma-separated)
  --name N           a name to recognise the key by in lists
  --json             print the key (create: with its secret, shown only once) as JSON`,
  secrets: `quire secrets rotate [--json]
  Seals every stored webhook secret again with QUIRE_SECRET_KEY (those stored in plain text too).
  To rotate the key: set the new key as QUIRE_SECRET_KEY and the previous one in QUIRE_SECRET_KEY_OLD
  on every process, run this, then remove QUIRE_SECRET_KEY_OLD.
  --json             print the count and the key id as JSON`,
  blobs: `quire blobs sweep [--grace DURATION] [--json]
  Removes the stored blobs no database row points to (left by a crash between a blob's write and its
  row's commit, or a power loss); serve also does this at start and daily. Blobs younger than the
  grace are kept (they may belong to a write still in progress).
  --grace DURATION   keep blobs younger than this (500ms, 30s, 5m, 2h, 1d; default 1h)
  --json             print the counts as JSON`,
  upload: `quire upload PATH… [--docset NAME|ID | --classify A,B,…] [--metadata K=V]… [--wait]
                [--wait-timeout SECONDS] [--chunk-threshold BYTES] [--parallel N]
  Uploads files and folders (recursively: PDF, DOCX, DOC, TXT, HTML, ZIP; hidden files skipped).
  --docset NAME|ID       add the documents to this docset
  --classify A,B,…       let Quire put each document into the most similar of these docsets
  --metadata K=V         a metadata entry for every uploaded document (repeatable)
  --wait                 wait until every document is Ready (or failed); exit 1 if one failed
  --wait-timeout S       give up waiting after S seconds (default 3600)
  --chunk-threshold B    files above B bytes (64K, 8M…; default 8M) go in resumable chunks; a
                         killed upload run again sends only the chunks still missing
  --parallel N           files in flight at once, 1 to 16 (default 3)`,
  docs: `quire docs ls [--name N] [--prefix P] [--status S] [--docset NAME|ID] [--min-pages N]
                [--max-pages N] [--limit N | --all]
  quire docs get ID
  quire docs rm ID
  quire docs download ID [--out FILE]
  ls:  --name N exact file name, --prefix P names starting with P, --status S (Ready, Error, …),
       --docset a docset's documents, --min-pages/--max-pages page counts, --limit N at most N
       (default 30), --all every one
  download: the file exactly as uploaded; --out FILE writes it there (default: its own name in
       the current folder; - writes it to stdout)`,
  text: `quire text ID [--markdown] [--out FILE]
  The document as Quire understood it, as plain text (reading order, page headers and footers
  left out) or with --markdown as Markdown (headings, lists, tables). Waits for nothing: a document
  not Ready yet is refused (exit 1). --out FILE writes it there instead of stdout.`,
  dgml: `quire dgml ID [--docset NAME|ID] [--out FILE]
  The document's DGML (XML) on stdout or into FILE.
  --docset NAME|ID   through the docset's route (as the Docugami loaders read it)`,
  pages: `quire pages ID --out DIR [--dpi N]
  One PNG per page into DIR (page-001.png, …).
  --dpi N            resolution, 36 to 300 (default 300)`,
  docsets: `quire docsets ls [--name NAME] [--samples] | get NAME|ID | create NAME | rename NAME|ID NEW-NAME | rm NAME|ID
  --name NAME        only the docset of this name
  --samples          the sample docsets of the catalogue too`,
  props: `quire props ls DOCSET                          the docset's properties
  quire props add DOCSET LABEL                    a property; Quire finds its value in every document
  quire props rm DOCSET PROPERTY-ID|LABEL
  quire props get DOCSET DOCUMENT                 a document's values, with source and confidence
  quire props set DOCSET DOCUMENT LABEL VALUE     a value set by hand (wins over the found one)
  quire props unset DOCSET DOCUMENT LABEL`,
  projects: `quire projects ls [--name N] [--type T] [--docset NAME|ID] | get ID | publish ID | rm ID
  quire projects create --name N --type T --docset NAME|ID [--item LABEL]… [--no-auto-confirm]
  --type T           the report kind: TabularReport, Abstract, ExcelExport, …
  --item LABEL       a property the report carries (repeatable)
  --no-auto-confirm  documents joining the docset wait for \`projects publish\` before a version
                     includes them (default: included at once)`,
  export: `quire export PROJECT [--version latest|N] --out DIR [--wait SECONDS]
  Every artifact of a project version into DIR (per-document ones under DIR/DOCUMENT-ID/).
  --version          latest (default) or a version number
  --wait SECONDS     wait up to SECONDS for a first version when there is none yet`,
  webhooks: `quire webhooks ls [--target T] [--target-id ID] | get ID | rm ID | test ID
  quire webhooks create RECEIVER-URL --target Documents|Docset|Project [--target-id ID] [--event E]… [--secret S]
  quire webhooks deliveries ID [--limit N] | retry ID DELIVERY
  --target T         what the webhook watches; --target-id ID which docset or project
  --event E          an event to deliver (repeatable; default all of the target's)
  --secret S         signs each delivery (Standard Webhooks headers)
  --limit N          deliveries listed (newest first)`,
  ping: `quire ping
  Checks the URL and the key: prints the key's workspace (name, id, type, pages used) and how long
  the service took to answer, exit 0; exit 1 with the reason when it cannot be reached or refuses
  the key.`,
};

/** The overview's line for each command, in the order it lists them. */
const SERVER: Record<string, string> = {
  serve: 'run the API, the console and the job consumers',
  worker: 'consume the job queues only (no HTTP)',
  migrate: 'apply the database migrations and exit',
  workspaces: 'create, list, set quotas and expiry of workspaces',
  keys: 'create, list and revoke API keys',
  secrets: 'seal webhook secrets again with the current QUIRE_SECRET_KEY',
  blobs: 'remove stored blobs no row points to (left by a crash)',
};
const CLIENT: Record<string, string> = {
  ping: 'check the URL and the key',
  upload: 'upload files and folders (resumable chunks for large ones)',
  docs: 'list, show, delete and download documents',
  text: 'a document as text or Markdown',
  dgml: "a document's DGML",
  pages: 'page images as PNG files',
  docsets: 'list, create, rename and delete docsets',
  props: "a docset's properties and a document's values",
  projects: 'reports over a docset: create, publish, delete',
  export: "download a project version's artifacts",
  webhooks: 'register receivers, see and retry deliveries',
};

const lines = (commands: Record<string, string>) => Object.entries(commands).map(([c, what]) => `  ${c.padEnd(12)}${what}`).join('\n');

/** `quire help`: every command with what it does. */
export function overview(version: string): string {
  return `quire ${version}: a self-hostable document understanding service speaking the Docugami API

usage: quire COMMAND [ARGS]   (quire COMMAND --help describes its sub-commands and flags)

server commands (configured by environment variables; npm start runs serve):
${lines(SERVER)}

client commands (talk to a running Quire over its REST API):
${lines(CLIENT)}

${CONNECTION}

  quire --version      prints the version
  quire help COMMAND   the same as quire COMMAND --help`;
}

/** `quire COMMAND --help`: its usage with every flag, or undefined for an unknown command. */
export function commandHelp(command: string): string | undefined {
  const given = COMMAND_HELP[command];
  if (!given) return undefined;
  // Usage lines flush left, descriptions indented under them.
  const text = given.replace(/^ {2}quire /gm, 'quire ');
  return Object.hasOwn(CLIENT, command) ? `${text}\n\n${CONNECTION}` : text;
}

/** `--help` or `-h` anywhere among the arguments (before a `--`). */
export function asksForHelp(args: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}
