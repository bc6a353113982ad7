#!/usr/bin/env node
// Runs a stage's CLI module (WASI preview1 command) under Node, with the
// current directory as the guest's "." (like `wasmtime run --dir .` in the
// post). Exits with the guest's exit code.
//
//   node [v8 flags] wasi-host.mjs MODULE.wasm [guest args...]
//
// An epoch-instrumented module (bench/epoch/instrument.mjs) imports
// bx_epoch.new_epoch; it is provided here and throws when called, which turns
// into a trap. With the deadline the instrumenter sets by default it is never
// called, so reaching it means something is wrong, and a trap says so loudly.
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { basename } from 'node:path';

const [modulePath, ...guestArgs] = process.argv.slice(2);
if (!modulePath) {
    console.error('usage: wasi-host.mjs MODULE.wasm [args...]');
    process.exit(2);
}

const wasi = new WASI({
    version: 'preview1',
    args: [basename(modulePath), ...guestArgs],
    env: {},
    preopens: { '.': process.cwd() },
    returnOnExit: true,
});

const module = await WebAssembly.compile(readFileSync(modulePath));
const imports = { ...wasi.getImportObject() };
if (WebAssembly.Module.imports(module).some((i) => i.module === 'bx_epoch')) {
    imports.bx_epoch = {
        new_epoch: () => { throw new WebAssembly.RuntimeError('epoch deadline reached'); },
    };
}
const instance = await WebAssembly.instantiate(module, imports);
process.exitCode = wasi.start(instance);
