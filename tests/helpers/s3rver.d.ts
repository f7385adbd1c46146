declare module '@20minutes/s3rver' {
  import type { Server } from 'node:http';
  export default class S3rver {
    constructor(options: { port?: number; address?: string; directory: string; silent?: boolean; configureBuckets?: Array<{ name: string }>; allowMismatchedSignatures?: boolean });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    httpServer?: Server;
  }
}
