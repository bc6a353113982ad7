// Paths the Node tests share. CTest passes them in the environment; the
// defaults let a test also run by hand from the repository root.
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = process.env.BX_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const wasmBuild = process.env.BX_WASM_BUILD ?? path.join(root, 'build/wasm');
export const nodeTools = process.env.BX_NODE_TOOLS ?? path.join(root, 'common/node');
export const jcoJs = path.join(nodeTools, 'node_modules/@bytecodealliance/jco/dist/jco.js');

// Stage directory names (NN-name), from the stages/ directory, in order.
export function stageNames() {
  return readdirSync(path.join(root, 'stages'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^\d\d-/.test(d.name))
    .map((d) => d.name)
    .sort();
}

export const firstStage = process.env.BX_FIRST_STAGE || stageNames()[0];

// "03" (or "03-simd-attention") -> "03-simd-attention"; throws for no such stage.
export function stageByNumber(nn) {
  const dir = stageNames().find((d) => d.startsWith(`${nn}-`) || d === nn);
  if (!dir) throw new Error(`no stage directory stages/${nn}-*`);
  return dir;
}

// The Python of the venv `make setup-wasmtime` made (wasmtime-py, pinned), and
// our wasmtime host (common/host/wasmtime-run.py).
export const wasmtimePython = process.env.BX_WASMTIME_PY ?? path.join(root, 'build/venv/bin/python');
export const wasmtimeHost = path.join(root, 'common/host/wasmtime-run.py');
