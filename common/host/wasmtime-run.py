#!/usr/bin/env python3
"""Runs a WASI preview1 command module (a stage's cli.wasm) under wasmtime.

    build/venv/bin/python common/host/wasmtime-run.py [options] <module.wasm> [args...]

wasmtime is the runtime Spin and Akamai Functions run our component on, so it
is configured the way a Spin host configures it:

  * Cranelift, optimising for speed; wasm SIMD on (our stages 03 on need it);
  * epoch interruption on: Cranelift compiles a check of the engine's epoch
    against the store's deadline into every function entry and loop back-edge,
    and a ticker thread advances the epoch every --tick-ms. The deadline
    (--deadline-ticks) is far beyond any run of ours, so it never fires in a
    normal run; the checks still cost what they cost in Spin. --deadline-ticks 1
    makes it fire, and the guest traps (tests/host: the deadline test).
  * --no-epoch turns the checks off (the same build without them, to see what
    the checks themselves cost).

Files: by default the current directory is the guest's "." (what
bench/e2e/wasi-host.mjs does, and `wasmtime run --dir .`). --root preopens the
whole file system as "/" and tells the guest our working directory in
BX_HOST_CWD (what common/host/wasi-run.mjs does for the harness), so a corpus
may live anywhere.

The guest's exit status becomes ours. A trap prints its message on stderr and
exits 134 (what a native abort would give), so a check can never mistake a
trap for a pass. --describe prints the settings as JSON (results files record
them) and exits.
"""
import argparse
import json
import os
import sys
import threading
import time

import wasmtime

# Far beyond any run: 2**40 ticks of 10 ms is about 350 years.
NEVER_TICKS = 1 << 40
TRAP_EXIT = 134


def settings(args):
    return {
        "runtime": "wasmtime",
        "wasmtime": wasmtime_version(),
        "strategy": "cranelift",
        "cranelift_opt_level": "speed",
        "wasm_simd": True,
        "epoch_interruption": not args.no_epoch,
        "epoch_tick_ms": None if args.no_epoch else args.tick_ms,
        "epoch_deadline_ticks": None if args.no_epoch else args.deadline_ticks,
    }


def wasmtime_version():
    try:
        from importlib.metadata import version
        return version("wasmtime")
    except Exception:  # not installed as a distribution: say so rather than guess
        return None


# snippet: wasmtime-config
def make_engine(args):
    config = wasmtime.Config()
    config.strategy = "cranelift"
    config.cranelift_opt_level = "speed"
    config.wasm_simd = True
    config.epoch_interruption = not args.no_epoch
    return wasmtime.Engine(config)


def start_ticker(engine, tick_ms):
    """Advances the engine's epoch every tick_ms from a daemon thread. The wasm
    call releases Python's lock (ctypes), so the ticker runs while the guest does."""
    def tick():
        while True:
            time.sleep(tick_ms / 1000.0)
            engine.increment_epoch()
    threading.Thread(target=tick, name="epoch-ticker", daemon=True).start()
# end-snippet


def run(args):
    engine = make_engine(args)
    module = wasmtime.Module.from_file(engine, args.module)

    wasi = wasmtime.WasiConfig()
    wasi.argv = [os.path.basename(args.module), *args.args]
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    wasi.inherit_stdin()
    if args.root:
        wasi.env = [(k, v) for k, v in os.environ.items()] + [("BX_HOST_CWD", os.getcwd())]
        wasi.preopen_dir("/", "/")
    else:
        wasi.preopen_dir(".", ".")

    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    store = wasmtime.Store(engine)
    store.set_wasi(wasi)
    if not args.no_epoch:
        store.set_epoch_deadline(args.deadline_ticks)
        start_ticker(engine, args.tick_ms)

    instance = linker.instantiate(store, module)
    start = instance.exports(store)["_start"]
    try:
        start(store)
    except wasmtime.ExitTrap as e:
        return e.code
    except wasmtime.Trap as e:
        sys.stdout.flush()
        print(f"wasmtime-run: the guest trapped: {e.message}", file=sys.stderr)
        return TRAP_EXIT
    return 0


def main(argv):
    p = argparse.ArgumentParser(description="Run a WASI command module under wasmtime, configured as Spin runs it.")
    p.add_argument("--root", action="store_true", help="preopen / and pass BX_HOST_CWD (the harness's way)")
    p.add_argument("--no-epoch", action="store_true", help="compile without epoch checks")
    p.add_argument("--tick-ms", type=float, default=10.0, help="epoch tick interval (ms)")
    p.add_argument("--deadline-ticks", type=int, default=NEVER_TICKS, help="ticks before the guest traps")
    p.add_argument("--describe", action="store_true", help="print the settings as JSON and exit")
    p.add_argument("module", nargs="?")
    p.add_argument("args", nargs=argparse.REMAINDER)
    args = p.parse_args(argv)
    if args.describe:
        print(json.dumps(settings(args)))
        return 0
    if not args.module:
        p.error("give the module to run")
    return run(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
