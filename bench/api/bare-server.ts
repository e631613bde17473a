// The baseline of the API benchmark: a bare Fastify 5 server, one route, no hooks, no schema, no
// logging, answering a fixed JSON object. Run as its own process so it never shares an event loop
// with the load generator:
//
//   node --import tsx bench/api/bare-server.ts <port> <body.json>
//
// It serves GET /bare with the object read from body.json (serialised by Fastify on every request,
// as a real handler's return value is) and prints "ready" once listening.
import fs from 'node:fs';
import Fastify from 'fastify';

const [portArg, bodyFile] = process.argv.slice(2);
const port = Number(portArg ?? process.env.PORT);
if (!Number.isInteger(port) || port <= 0 || !bodyFile) {
  console.error('usage: bare-server.ts <port> <body.json>');
  process.exit(2);
}
const body = JSON.parse(fs.readFileSync(bodyFile, 'utf8')) as Record<string, unknown>;

const app = Fastify({ logger: false });
app.get('/bare', async () => body);

await app.listen({ port, host: '127.0.0.1' });
console.log('ready');

const stop = () => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
