#!/usr/bin/env node
// One peer measurement in a fresh Node process (bench/peer/peer.mjs starts it):
// ONNX Runtime, one thread, on the windows `cli windows` wrote, printing one
// JSON line. First one pass over every window (it warms up, and it is the pass
// whose labels and logits are compared with stage 00's), then `warmup` more
// runs, then `runs` timed runs cycling over the windows, as `cli bench` does.
//
// usage: node run-ort.mjs web|node MODEL.onnx WINDOWS.json RUNS WARMUP
//   web   onnxruntime-web, wasm backend (SIMD), numThreads 1, no proxy worker:
//         what transformers.js runs in a browser, here under Node's V8
//   node  onnxruntime-node, native CPU provider, intra- and inter-op threads 1
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [runtime, modelPath, windowsPath, runsText, warmupText] = process.argv.slice(2);
const runs = Number(runsText);
const warmup = Number(warmupText);
if (!['web', 'node'].includes(runtime) || !modelPath || !windowsPath || !(runs >= 1) || !(warmup >= 0)) {
    console.error('usage: run-ort.mjs web|node MODEL.onnx WINDOWS.json RUNS WARMUP');
    process.exit(2);
}

const packageName = runtime === 'web' ? 'onnxruntime-web' : 'onnxruntime-node';
const ort = await import(packageName);
const version = createRequire(import.meta.url)(join(here, 'node_modules', packageName, 'package.json')).version;

let options;
if (runtime === 'web') {
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    options = { executionProviders: ['wasm'] };
} else {
    options = { executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1 };
}

// ONNX Runtime adds its own keys to the options object; record what we asked for.
const optionsAsGiven = JSON.parse(JSON.stringify(runtime === 'web' ? { ...options, numThreads: 1, proxy: false } : options));
const windows = JSON.parse(readFileSync(windowsPath, 'utf8'));
const labels = windows.labels;
const window = windows.windows[0].ids.length;
const reference = new Float32Array(readFileSync(`${windowsPath}.f32`).buffer.slice(0));

const sessionStart = performance.now();
const session = await ort.InferenceSession.create(readFileSync(modelPath), options);
const sessionMs = performance.now() - sessionStart;
const inputs = windows.windows.map((w) => ({
    input_ids: new ort.Tensor('int64', BigInt64Array.from(w.ids, (id) => BigInt(id)), [1, window]),
}));

// One window: wall time and this process's CPU time (user + system).
async function timed(i) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const out = await session.run(inputs[i]);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000, logits: out.logits.data };
}

// The first pass: label agreement and logit distance to stage 00, live rows only.
let rows = 0, agree = 0, maxDiff = 0, sumDiff = 0, identical = 0;
const warmupMs = [];
for (let w = 0; w < inputs.length; w++) {
    const { ms, logits } = await timed(w);
    warmupMs.push(ms);
    const { live, argmax } = windows.windows[w];
    for (let t = 0; t < live; t++) {
        let best = 0;
        let sameBits = true;
        for (let c = 0; c < labels; c++) {
            const ours = logits[t * labels + c];
            const ref = reference[(w * window + t) * labels + c];
            if (ours > logits[t * labels + best]) best = c;
            const d = Math.abs(ours - ref);
            if (d > maxDiff) maxDiff = d;
            sumDiff += d;
            if (!Object.is(ours, ref)) sameBits = false;
        }
        rows++;
        if (best === argmax[t]) agree++;
        if (sameBits) identical++;
    }
}
for (let i = 0; i < warmup; i++) warmupMs.push((await timed(i % inputs.length)).ms);

const forwardMs = [], cpuMs = [], live = [];
for (let i = 0; i < runs; i++) {
    const w = i % inputs.length;
    const r = await timed(w);
    forwardMs.push(r.ms);
    cpuMs.push(r.cpuMs);
    live.push(windows.windows[w].live);
}

console.log(JSON.stringify({
    runtime, package: packageName, version, options: optionsAsGiven,
    session_ms: sessionMs, windows: inputs.length, rows, label_agree: agree, rows_bit_identical: identical,
    max_abs_dlogit: maxDiff, mean_abs_dlogit: sumDiff / (rows * labels),
    warmup_ms: warmupMs, forward_ms: forwardMs, forward_cpu_ms: cpuMs, live,
}));
