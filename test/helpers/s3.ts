import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { S3Client, CreateBucketCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { freePort } from './quire.js';
import { atExit, scratchEnv } from './scratch.js';

export interface S3Server {
  endpoint: string;
  region: string;
  /** AWS_* variables for a Quire process (the SDK's default credential chain reads them). */
  env: NodeJS.ProcessEnv;
  /** Creates a bucket and returns its QUIRE_STORAGE_URL (`prefix` adds a key prefix). */
  createBucket: (name: string, prefix?: string) => Promise<string>;
  /** Every object key in a bucket. */
  listKeys: (bucket: string) => Promise<string[]>;
  /** Keys of the multipart uploads in progress (or abandoned) in a bucket. */
  listMultipartUploads: (bucket: string) => Promise<string[]>;
  client: S3Client;
  stop: () => Promise<void>;
}

/** Why S3 tests cannot run here, or null when moto's server is importable. */
export function s3Unavailable(): string | null {
  const r = spawnSync('python3', ['-c', 'import moto.server'], { stdio: 'pipe' });
  if (r.error) return 'python3 is not installed (the S3 tests use moto: pip install "moto[server]")';
  if (r.status !== 0) return 'moto is not installed (pip install "moto[server]")';
  return null;
}

const REGION = 'us-east-1';

/** Starts a throwaway moto S3 server on a free loopback port (state is in memory: gone at stop). */
export async function startS3(): Promise<S3Server> {
  const why = s3Unavailable();
  if (why) throw new Error(why);
  const port = await freePort();
  const child: ChildProcess = spawn('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...scratchEnv() },
  });
  const forget = atExit(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.once('exit', forget);
  let output = '';
  child.stdout!.on('data', (d) => (output = (output + d).slice(-4000)));
  child.stderr!.on('data', (d) => (output = (output + d).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  let ready = false;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      await fetch(`${endpoint}/moto-api/`);
      ready = true;
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`moto did not start:\n${output}`);
  }
  const env = { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: REGION };
  const client = new S3Client({
    region: REGION,
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  });
  return {
    endpoint,
    region: REGION,
    env,
    client,
    createBucket: async (name, prefix) => {
      await client.send(new CreateBucketCommand({ Bucket: name }));
      const q = new URLSearchParams({ endpoint, region: REGION, forcePathStyle: 'true', ...(prefix ? { prefix } : {}) });
      return `s3://${name}?${q}`;
    },
    listKeys: async (bucket) => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const o of page.Contents ?? []) keys.push(o.Key!);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    listMultipartUploads: async (bucket) => {
      const page = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      return (page.Uploads ?? []).map((u) => u.Key!);
    },
    stop: async () => {
      client.destroy();
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
