#!/usr/bin/env node
// Runs a WASI preview1 command module (a stage's cli.wasm) under node:wasi.
//
//   node common/host/wasi-run.mjs <module.wasm> [args...]
//
// Preopened: the root of the file system as "/", and the guest is told our
// working directory (BX_HOST_CWD; the harness's main() adopts it), so relative
// and absolute paths anywhere work as they do natively (a corpus need not live
// in the repository). This host runs our own harness on the developer's files;
// the HTTP service never runs under it.
// The module's exit status becomes ours. Node's "WASI is experimental"
// warning is filtered out, so stderr holds only what the module wrote.
import { readFileSync } from 'node:fs';
import path from 'node:path';

// Drop the ExperimentalWarning only; every other warning still prints.
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name !== 'ExperimentalWarning') console.error(`${w.name}: ${w.message}`);
});
// Imported after the filter is in place (a static import would be hoisted).
const { WASI } = await import('node:wasi');

const [modulePath, ...args] = process.argv.slice(2);
if (!modulePath) {
  console.error('usage: wasi-run.mjs <module.wasm> [args...]');
  process.exit(2);
}
const wasi = new WASI({
  version: 'preview1',
  args: [path.basename(modulePath), ...args],
  env: { ...process.env, BX_HOST_CWD: process.cwd() },
  preopens: { '/': '/' },
  returnOnExit: true,
});
const module = await WebAssembly.compile(readFileSync(modulePath));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
