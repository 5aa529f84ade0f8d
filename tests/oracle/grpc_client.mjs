// Independent gRPC client for cuzk-daemon: @grpc/grpc-js with
// @grpc/proto-loader reading proto/cuzk/v1/proving.proto at run time (no
// generated code, nothing shared with the daemon).  Run by
// tests/oracle/run_grpc.sh:
//
//   node tests/oracle/grpc_client.mjs TARGET...
//
// TARGET: host:port or unix:///path.  Every RPC and its error paths on each
// target, the same checks as grpc_client.py suite.  Exit status 0 when all
// passed; each failure is printed as "grpc_client.mjs: FAIL: ...".
import process from 'node:process';
import { Engine, grpc } from './proving_proto.mjs';

// the memory tracker's buffer classes, in order (include/cuzk/mem.h)
const BUFFER_CLASSES = ['params', 'r1cs', 'witness', 'abc', 'density', 'pending', 'scratch',
  'staging', 'input', 'other'];
const ME = 'grpc_client.mjs';
const SERVICE = '/cuzk.v1.ProvingEngine/';
const METHODS = ['SubmitProof', 'AwaitProof', 'Prove', 'CancelProof', 'GetStatus', 'GetMetrics',
  'PreloadSRS', 'EvictSRS'];

const C = grpc.status;

const failures = [];
function check(cond, what) {
  if (!cond) {
    failures.push(what);
    console.log(`${ME}: FAIL: ${what}`);
  }
  return cond;
}

const n = (v) => v ?? 0;
const buf = (v) => v ?? Buffer.alloc(0);
const statusOf = (a) => a.status ?? 'UNKNOWN';

function client(target, privateConn = false) {
  const opts = { 'grpc.max_receive_message_length': 64 << 20 };
  if (privateConn) opts['grpc.use_local_subchannel_pool'] = 1; // a connection of its own
  return new Engine(target, grpc.credentials.createInsecure(), opts);
}

// Promise of a call's response; rejects with the grpc error.
function call(cl, method, req, ms = 60000) {
  return new Promise((resolve, reject) => {
    cl[method](req, { deadline: Date.now() + ms }, (err, resp) => (err ? reject(err) : resolve(resp)));
  });
}

// The status code of a call that must fail (null if it succeeded).
async function errCode(p) {
  try {
    await p;
  } catch (e) {
    return e.code;
  }
  return null;
}
const codeName = (c) => (c === null ? 'success' : Object.keys(C).find((k) => C[k] === c) ?? c);

function raw(cl, method, bytes) {
  return new Promise((resolve, reject) => {
    cl.makeUnaryRequest(SERVICE + method, (b) => b, (b) => b, bytes, new grpc.Metadata(),
      { deadline: Date.now() + 30000 }, (err, resp) => (err ? reject(err) : resolve(resp)));
  });
}

function synthetic(logRows, partitions = 1, pub = 0, seed = 1, requestId = '') {
  return {
    request_id: requestId, proof_kind: 'SYNTHETIC', synthetic_log_rows: logRows,
    partitions, synthetic_public: pub, synthetic_seed: seed,
  };
}

async function metric(cl, name) {
  const t = (await call(cl, 'GetMetrics', {})).prometheus_text ?? '';
  const m = t.match(new RegExp(`^${name}(?:\\{\\})? (\\d+)$`, 'm'));
  return m ? Number(m[1]) : null;
}

function done(a, partitions, what) {
  const proof = buf(a.proof);
  let ok = check(statusOf(a) === 'COMPLETED', `${what}: status ${statusOf(a)} (${a.error_message ?? ''})`);
  ok = check(proof.length === 192 * partitions,
    `${what}: ${proof.length} proof bytes, want ${192 * partitions}`) && ok;
  const chunks = new Set();
  for (let i = 0; i < proof.length; i += 192) chunks.add(proof.subarray(i, i + 192).toString('hex'));
  return check(chunks.size === partitions && !chunks.has('00'.repeat(192)),
    `${what}: proof partitions are zero or repeated`) && ok;
}

async function suite(target) {
  const tag = `[${target}] `;
  console.log(`${ME}: suite on ${target}`);
  const cl = client(target);
  const uniq = `${process.pid}-${Date.now()}`;

  // GetStatus
  let s = await call(cl, 'GetStatus', {});
  for (const f of ['memory_budget_bytes', 'rss_bytes', 'buffer_classes', 'queues']) {
    check(s[f] !== undefined, `${tag}GetStatus: field ${f} missing`);
  }
  check(n(s.memory_budget_bytes) > 0, `${tag}GetStatus: memory_budget_bytes is 0`);
  const classes = s.buffer_classes ?? [];
  const names = classes.map((b) => b.name ?? '');
  check(names.join(',') === BUFFER_CLASSES.join(','), `${tag}GetStatus: buffer classes ${names}`);
  check((s.queues ?? []).length >= 1, `${tag}GetStatus: no queue entry`);

  // GetMetrics
  const text = (await call(cl, 'GetMetrics', {})).prometheus_text ?? '';
  check(text.includes('# TYPE cuzk_') && (await metric(cl, 'cuzk_jobs_submitted_total')) !== null,
    `${tag}GetMetrics: no cuzk_ metrics in ${JSON.stringify(text.slice(0, 200))}`);
  const bad = text.split('\n').filter((l) => l && !l.startsWith('#')
    && !/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? [-+0-9.eEInfNa]+$/.test(l));
  check(bad.length === 0, `${tag}GetMetrics: not Prometheus text: ${bad.slice(0, 3)}`);

  // SubmitProof + AwaitProof
  const done0 = n(s.total_proofs_completed);
  const r = await call(cl, 'SubmitProof', synthetic(10, 2, 2, 21));
  check(Boolean(r.job_id), `${tag}SubmitProof: empty job_id`);
  let a = await call(cl, 'AwaitProof', { job_id: r.job_id }, 120000);
  check(a.job_id === r.job_id, `${tag}AwaitProof: job_id ${a.job_id} != ${r.job_id}`);
  done(a, 2, `${tag}SubmitProof/AwaitProof`);

  // Prove
  const p = await call(cl, 'Prove', { submit: synthetic(10, 1, 2, 22) }, 120000);
  done(p.result ?? {}, 1, `${tag}Prove`);
  s = await call(cl, 'GetStatus', {});
  check(n(s.total_proofs_completed) >= done0 + 2,
    `${tag}GetStatus: total_proofs_completed ${n(s.total_proofs_completed)} (was ${done0})`);

  // idempotency, TIMEOUT, CancelProof, CANCELLED on one slow job
  const sub0 = await metric(cl, 'cuzk_jobs_submitted_total');
  const cancelled0 = n(s.total_proofs_cancelled);
  const big = synthetic(14, 4, 0, 23, `js-idem-${uniq}`);
  const j1 = (await call(cl, 'SubmitProof', big)).job_id;
  const j2 = (await call(cl, 'SubmitProof', big)).job_id;
  check(j1 === j2 && j1, `${tag}idempotency: job ids ${j1} and ${j2}`);
  const sub1 = await metric(cl, 'cuzk_jobs_submitted_total');
  check(sub1 === sub0 + 1, `${tag}idempotency: submitted ${sub0} -> ${sub1}, want +1`);
  a = await call(cl, 'AwaitProof', { job_id: j1, timeout_ms: 1 });
  check(statusOf(a) === 'TIMEOUT', `${tag}AwaitProof timeout_ms 1: ${statusOf(a)}`);
  check(buf(a.proof).length === 0, `${tag}AwaitProof TIMEOUT carries a proof`);
  await call(cl, 'CancelProof', { job_id: j1 });
  a = await call(cl, 'AwaitProof', { job_id: j1 });
  check(statusOf(a) === 'CANCELLED', `${tag}AwaitProof after cancel: ${statusOf(a)}`);
  s = await call(cl, 'GetStatus', {});
  check(n(s.total_proofs_cancelled) === cancelled0 + 1,
    `${tag}total_proofs_cancelled ${cancelled0} -> ${n(s.total_proofs_cancelled)}`);

  // unknown ids, empty ids
  let c = await errCode(call(cl, 'CancelProof', { job_id: `no-such-job-${uniq}` }));
  check(c === C.NOT_FOUND, `${tag}CancelProof unknown id: ${codeName(c)}`);
  c = await errCode(call(cl, 'AwaitProof', { job_id: `no-such-job-${uniq}` }));
  check(c === C.NOT_FOUND, `${tag}AwaitProof unknown id: ${codeName(c)}`);
  c = await errCode(call(cl, 'AwaitProof', { job_id: '' }));
  check(c === C.INVALID_ARGUMENT, `${tag}AwaitProof empty id: ${codeName(c)}`);

  // PreloadSRS / EvictSRS
  let pr = await call(cl, 'PreloadSRS', { circuit_id: 'synthetic-10-2' });
  check(pr.already_loaded === true, `${tag}PreloadSRS synthetic-10-2: already_loaded false`);
  pr = await call(cl, 'PreloadSRS', { circuit_id: 'synthetic-11-0' }, 120000);
  check(!pr.already_loaded, `${tag}PreloadSRS synthetic-11-0: already_loaded true`);
  s = await call(cl, 'GetStatus', {});
  const srs = new Map((s.loaded_srs ?? []).map((x) => [x.circuit_id, x]));
  check(srs.has('synthetic-11-0') && n(srs.get('synthetic-11-0').size_bytes) > 0,
    `${tag}GetStatus: loaded_srs [${[...srs.keys()]}] lacks synthetic-11-0`);
  pr = await call(cl, 'PreloadSRS', { circuit_id: 'synthetic-11-0' });
  check(pr.already_loaded === true, `${tag}PreloadSRS synthetic-11-0 twice: already_loaded false`);
  let ev = await call(cl, 'EvictSRS', { circuit_id: 'synthetic-11-0' });
  check(ev.was_loaded === true && n(ev.freed_bytes) > 0,
    `${tag}EvictSRS synthetic-11-0: was_loaded ${ev.was_loaded} freed ${n(ev.freed_bytes)}`);
  ev = await call(cl, 'EvictSRS', { circuit_id: 'synthetic-11-0' });
  check(!ev.was_loaded && n(ev.freed_bytes) === 0,
    `${tag}EvictSRS again: was_loaded ${ev.was_loaded} freed ${n(ev.freed_bytes)}`);
  s = await call(cl, 'GetStatus', {});
  check(!(s.loaded_srs ?? []).some((x) => x.circuit_id === 'synthetic-11-0'),
    `${tag}GetStatus: synthetic-11-0 still listed after eviction`);
  c = await errCode(call(cl, 'PreloadSRS', { circuit_id: 'no-such-circuit' }));
  check(c === C.NOT_FOUND, `${tag}PreloadSRS unknown circuit: ${codeName(c)}`);
  c = await errCode(call(cl, 'PreloadSRS', { circuit_id: '' }));
  check(c === C.INVALID_ARGUMENT, `${tag}PreloadSRS empty id: ${codeName(c)}`);

  // proof kinds
  try {
    await call(cl, 'SubmitProof', { proof_kind: 77 });
    check(false, `${tag}SubmitProof kind 77: success`);
  } catch (e) { // the 77 must reach the daemon (not be mapped to 0 here)
    check(e.code === C.INVALID_ARGUMENT && /77/.test(e.details),
      `${tag}SubmitProof kind 77: ${codeName(e.code)} ${e.details}`);
  }
  c = await errCode(call(cl, 'Prove', { submit: { proof_kind: 77 } }));
  check(c === C.INVALID_ARGUMENT, `${tag}Prove kind 77: ${codeName(c)}`);
  c = await errCode(call(cl, 'SubmitProof', { proof_kind: 'WINDOW_POST_PARTITION' }));
  check(c === C.INVALID_ARGUMENT, `${tag}SubmitProof WINDOW_POST_PARTITION: ${codeName(c)}`);
  c = await errCode(call(cl, 'SubmitProof', { proof_kind: 'POREP_SEAL_COMMIT' }));
  check(c === C.INVALID_ARGUMENT, `${tag}SubmitProof POREP_SEAL_COMMIT without a C1: ${codeName(c)}`);
  c = await errCode(call(cl, 'Prove', {}));
  check(c === C.INVALID_ARGUMENT, `${tag}Prove without submit: ${codeName(c)}`);
  c = await errCode(call(cl, 'SubmitProof',
    { proof_kind: 'GROTH16_GENERIC', circuit_id: 'x', witness: Buffer.alloc(33) }));
  check(c === C.INVALID_ARGUMENT, `${tag}GROTH16_GENERIC 33-byte witness: ${codeName(c)}`);
  c = await errCode(call(cl, 'SubmitProof', synthetic(9)));
  check(c === C.INVALID_ARGUMENT, `${tag}SYNTHETIC log_rows 9: ${codeName(c)}`);

  // malformed protobuf on every method, an unknown method; still serving
  for (const m of METHODS) {
    c = await errCode(raw(cl, m, Buffer.from([0xff, 0xff, 0xff])));
    check(c === C.INVALID_ARGUMENT, `${tag}${m} with malformed bytes: ${codeName(c)}`);
  }
  c = await errCode(raw(cl, 'NoSuchMethod', Buffer.alloc(0)));
  check(c === C.UNIMPLEMENTED, `${tag}unknown method: ${codeName(c)}`);
  s = await call(cl, 'GetStatus', {});
  check(n(s.memory_budget_bytes) > 0, `${tag}GetStatus after malformed requests`);

  // a 64 MiB message goes through (answered by the method: vanilla_proof is
  // not a WindowPoSt field; not size-rejected)
  c = await errCode(call(cl, 'SubmitProof',
    { proof_kind: 'WINDOW_POST_PARTITION', vanilla_proof: Buffer.alloc(64 << 20, 0x5a) }));
  check(c === C.INVALID_ARGUMENT, `${tag}64 MiB SubmitProof: ${codeName(c)}`);

  // 64 concurrent clients, each on its own connection
  const res = await Promise.all(Array.from({ length: 64 }, async (_, i) => {
    const cc = client(target, true);
    try {
      return (await call(cc, 'Prove', { submit: synthetic(10, 1, 0, 2000 + i) }, 170000)).result ?? {};
    } catch (e) {
      return { status: `error ${codeName(e.code)}` };
    } finally {
      cc.close();
    }
  }));
  const ok = res.filter((x) => statusOf(x) === 'COMPLETED' && buf(x.proof).length === 192).length;
  check(ok === 64, `${tag}64 concurrent Prove: ${ok} COMPLETED`);
  cl.close();
}

const targets = process.argv.slice(2);
if (targets.length === 0) {
  console.error('usage: node tests/oracle/grpc_client.mjs TARGET...');
  process.exit(2);
}
for (const t of targets) {
  try {
    await suite(t);
  } catch (e) {
    check(false, `[${t}] unexpected RPC error ${codeName(e.code)}: ${e.details ?? e.message}`);
  }
}
if (failures.length) {
  console.log(`${ME}: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log(`${ME}: suite passed`);
