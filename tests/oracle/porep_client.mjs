// PoRep C2 (POREP_SEAL_COMMIT) through cuzk-daemon from Node, as Curio sends
// it: @grpc/grpc-js with @grpc/proto-loader reading
// proto/cuzk/v1/proving.proto at run time (nothing shared with the daemon or
// the Python client).  vanilla_proof is Curio's wrapper {"SectorNum": n,
// "Phase1Out": "<standard base64 of the C1 JSON>", "SectorSize": bytes} or
// the raw C1 JSON.  Run by tests/oracle/run_porep_grpc.sh:
//
//   node porep_client.mjs submit-await TARGET OUTDIR SPEC...
//       SubmitProof of every SPEC (each twice with its request id: one
//       job; nobody else may submit meanwhile), prints "submitted", then
//       AwaitProof of all of them at once; proofs to OUTDIR/ID.bin
//   node porep_client.mjs refusals TARGET C1 SECTOR
//       bad requests refused INVALID_ARGUMENT, naming what is wrong
//
// SPEC: ID:C1FILE:SECTOR:wrap|raw[:PRIORITY], the miner always 1000.  Every
// check prints "PASS: ..." or "FAIL: ...: expected ..., got ..."; exit
// status 0 when all passed.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { Engine, grpc } from './proving_proto.mjs';

const ME = 'porep_client.mjs';
const MINER = 1000;
const SIZE = 2048;
const V1_1 = 5; // RegisteredSealProof StackedDrg2KiBV1_1

const C = grpc.status;

const failures = [];
function ok(cond, what, expected, got) {
  if (cond) {
    console.log(`${ME}: PASS: ${what}`);
  } else {
    failures.push(what);
    console.log(`${ME}: FAIL: ${what}${expected === undefined ? ''
      : `: expected ${expected}, got ${got}`}`);
  }
  return cond;
}

const client = (target) => new Engine(target, grpc.credentials.createInsecure(),
  { 'grpc.max_receive_message_length': 64 << 20, 'grpc.use_local_subchannel_pool': 1 });
function call(cl, method, req, ms = 120000) {
  return new Promise((resolve, reject) => {
    cl[method](req, { deadline: Date.now() + ms }, (err, resp) => (err ? reject(err) : resolve(resp)));
  });
}
const codeName = (c) => (c === null ? 'success' : Object.keys(C).find((k) => C[k] === c) ?? c);
// [code, details] of a call that must fail ([null, ''] if it succeeded)
async function failure(p) {
  try {
    await p;
  } catch (e) {
    return [e.code, e.details ?? ''];
  }
  return [null, ''];
}
async function metric(cl, name) {
  const t = (await call(cl, 'GetMetrics', {})).prometheus_text ?? '';
  const m = t.match(new RegExp(`^${name}(?:\\{\\})? (\\d+)$`, 'm'));
  return m ? Number(m[1]) : null;
}

const wrap = (c1, sector) => Buffer.from(JSON.stringify(
  { SectorNum: sector, Phase1Out: c1.toString('base64'), SectorSize: SIZE }));
function request(c1, sector, { raw = false, id = '', priority = undefined, ...kw } = {}) {
  return {
    request_id: id, proof_kind: 'POREP_SEAL_COMMIT', registered_proof: V1_1, sector_size: SIZE,
    sector_number: sector, miner_id: MINER, priority, vanilla_proof: raw ? c1 : wrap(c1, sector),
    ...kw,
  };
}
function parseSpec(s) {
  const f = s.split(':');
  if ((f.length !== 4 && f.length !== 5) || !['wrap', 'raw'].includes(f[3])) {
    console.error(`${ME}: bad SPEC ${s} (ID:C1FILE:SECTOR:wrap|raw[:PRIORITY])`);
    process.exit(2);
  }
  return {
    id: f[0], c1: fs.readFileSync(f[1]), sector: Number(f[2]), raw: f[3] === 'raw',
    priority: f[4] ? f[4].toUpperCase() : undefined,
  };
}

async function submitAwait(target, outdir, specs) {
  const jobs = specs.map(parseSpec);
  const cl = client(target);
  const sub0 = await metric(cl, 'cuzk_jobs_submitted_total');
  const t0 = Date.now();
  for (const j of jobs) {
    const req = request(j.c1, j.sector, { raw: j.raw, id: j.id, priority: j.priority });
    j.job = (await call(cl, 'SubmitProof', req)).job_id;
    const again = (await call(cl, 'SubmitProof', req)).job_id;
    ok(j.job.startsWith('job-') && again === j.job,
      `SubmitProof ${j.id} twice: one job (the handle answered twice)`, `one job-N twice`,
      `${j.job} and ${again}`);
  }
  const sub1 = await metric(cl, 'cuzk_jobs_submitted_total');
  ok(sub1 === sub0 + jobs.length, `${jobs.length} jobs submitted for ${2 * jobs.length} calls`,
    sub0 + jobs.length, sub1);
  console.log('submitted'); // for the script: other clients may submit now
  await Promise.all(jobs.map(async (j) => {
    const what = `SubmitProof+AwaitProof ${j.id} (${j.raw ? 'raw' : 'wrapped'} C1)`;
    let a;
    try {
      a = await call(client(target), 'AwaitProof', { job_id: j.job }, 1500000);
    } catch (e) {
      ok(false, what, 'COMPLETED', `${codeName(e.code)} ${e.details}`);
      return;
    }
    const proof = a.proof ?? Buffer.alloc(0);
    if (ok(a.status === 'COMPLETED' && proof.length === 192 && a.job_id === j.job,
      `${what}: COMPLETED with one 192-byte proof`, 'COMPLETED, 192 bytes',
      `${a.status}, ${proof.length} bytes (${a.error_message ?? ''})`)) {
      fs.writeFileSync(path.join(outdir, `${j.id}.bin`), proof);
      console.log(`${ME}: ${j.id}: ${((Date.now() - t0) / 1000).toFixed(1)} s (queue `
        + `${a.queue_wait_ms ?? 0} ms, synthesis ${a.synthesis_ms ?? 0} ms, proving `
        + `${a.gpu_compute_ms ?? 0} ms)`);
    }
  }));
}

async function refusals(target, c1Path, sector) {
  const cl = client(target);
  const c1 = fs.readFileSync(c1Path);
  const b64 = c1.toString('base64');
  const cut = b64.length >> 1;
  const badB64 = Buffer.from(JSON.stringify({
    SectorNum: sector, Phase1Out: `${b64.slice(0, cut)}%${b64.slice(cut + 1)}`, SectorSize: SIZE,
  }));
  const cases = [
    ['corrupted base64 in Phase1Out', { vanilla_proof: badB64 }, 'base64'],
    ['truncated C1 JSON (raw)', { vanilla_proof: c1.subarray(0, c1.length >> 1) }, 'vanilla_proof'],
    ['registered_proof 99', { registered_proof: 99 }, 'registered_proof 99'],
    ['registered_proof 0 (V1) for a V1_1 C1', { registered_proof: 0 }, 'StackedDrg2KiBV1_1'],
    ['sector_size 1024', { sector_size: 1024 }, 'sector_size 1024'],
    ['miner_id 7', { miner_id: 7 }, 'miner 7'],
    ['a witness (not a PoRep field)', { witness: Buffer.alloc(32, 1) }, 'field witness'],
    ['partitions (not a PoRep field)', { partitions: 1 }, 'field partitions'],
  ];
  const sub0 = await metric(cl, 'cuzk_jobs_submitted_total');
  for (const [what, fields, needle] of cases) {
    const [code, det] = await failure(call(cl, 'SubmitProof', { ...request(c1, sector), ...fields }));
    ok(code === C.INVALID_ARGUMENT && det.includes(needle),
      `SubmitProof, ${what}: INVALID_ARGUMENT naming it`,
      `INVALID_ARGUMENT with '${needle}'`, `${codeName(code)} '${det}'`);
  }
  const s = await call(cl, 'GetStatus', {});
  const sub1 = await metric(cl, 'cuzk_jobs_submitted_total');
  ok((s.memory_budget_bytes ?? 0) > 0 && sub1 === sub0,
    'the daemon serves on and counted no refused request as a job', sub0, sub1);
}

const [cmd, ...args] = process.argv.slice(2);
try {
  if (cmd === 'submit-await' && args.length >= 3) {
    await submitAwait(args[0], args[1], args.slice(2));
  } else if (cmd === 'refusals' && args.length === 3) {
    await refusals(args[0], args[1], Number(args[2]));
  } else {
    console.error('usage: node porep_client.mjs submit-await TARGET OUTDIR SPEC... | '
      + 'refusals TARGET C1 SECTOR');
    process.exit(2);
  }
} catch (e) {
  ok(false, `${cmd}: unexpected RPC error`, 'success', `${codeName(e.code)} ${e.details ?? e.message}`);
}
if (failures.length) {
  console.log(`${ME}: ${cmd}: ${failures.length} check(s) failed`);
  process.exit(1);
}
process.exit(0);
