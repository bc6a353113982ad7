// Preloaded into jco at build time (NODE_OPTIONS=--import <this file>).
//
// Why: `jco embed --wit DIR` reads the WIT directory through WASI filesystem
// calls, and preview2-shim 0.26 starts with *no* preopened directories, so jco
// panics with ENOENT ("code: 44"). Preopening `/` before jco runs fixes that.
// We resolve preview2-shim from common/node so that we configure the very same
// module instance jco itself loads.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const requireFromTools = createRequire(new URL('../node/package.json', import.meta.url));
const filesystemShim = requireFromTools.resolve('@bytecodealliance/preview2-shim/filesystem');
const { _setPreopens } = await import(pathToFileURL(filesystemShim).href);
_setPreopens({ '/': '/' });
