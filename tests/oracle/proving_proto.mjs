// proto/cuzk/v1/proving.proto loaded at run time by @grpc/proto-loader (no
// generated code, nothing shared with the daemon), for the Node clients
// grpc_client.mjs and porep_client.mjs.  Defaults false keeps "absent on
// the wire" visible (undefined).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const def = protoLoader.loadSync('cuzk/v1/proving.proto', {
  includeDirs: [path.join(ROOT, 'proto')],
  keepCase: true, longs: Number, enums: String, bytes: Buffer, defaults: false,
});
export const Engine = grpc.loadPackageDefinition(def).cuzk.v1.ProvingEngine;
export { grpc };
