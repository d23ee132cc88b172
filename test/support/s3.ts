import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
}

/** A real S3-compatible server on loopback (s3rver), with one bucket. */
export async function startS3(bucket = 'pageblocks-test'): Promise<FakeS3> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
