"""Times the floor kernels (kernels.mjs) under wasmtime, configured as
common/host/wasmtime-run.py configures it (Cranelift, SIMD; epoch interruption
on, with its ticker, unless --no-epoch):
    wasmtime-host.py [--no-epoch] [--only registers|loads] FILE.wasm ROUNDS WINDOW_DOTS
one JSON object on stdout (--only: just that kernel, for an instruction count)"""
import argparse, importlib.util, json, os, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("wasmtime_run", os.path.join(ROOT, "common", "host", "wasmtime-run.py"))
host = importlib.util.module_from_spec(spec)
spec.loader.exec_module(host)

REGISTER_DOTS_PER_TRIP, LOAD_DOTS_PER_TRIP, WEIGHT_BYTES = 48, 32, 2048  # kernels.mjs


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--no-epoch", action="store_true")
    p.add_argument("--only", choices=["registers", "loads"])
    p.add_argument("module")
    p.add_argument("rounds", type=int)
    p.add_argument("window_dots", type=int)
    args = p.parse_args(argv)
    settings = argparse.Namespace(no_epoch=args.no_epoch, tick_ms=10.0, deadline_ticks=host.NEVER_TICKS)
    engine = host.make_engine(settings)
    store = host.wasmtime.Store(engine)
    if not args.no_epoch:
        store.set_epoch_deadline(settings.deadline_ticks)
        host.start_ticker(engine, settings.tick_ms)
    instance = host.wasmtime.Instance(store, host.wasmtime.Module.from_file(engine, args.module), [])
    exports = instance.exports(store)
    memory = exports["memory"]
    memory.write(store, bytes(((i * 37) % 255 - 127) & 0xff for i in range(4096)), 0)
    registers, loads = exports["registers"], exports["loads"]
    reg, load = [], []
    for round in range(-1, args.rounds):
        t0 = time.perf_counter_ns()
        if args.only != "loads":
            registers(store, args.window_dots // REGISTER_DOTS_PER_TRIP)
        t1 = time.perf_counter_ns()
        if args.only != "registers":
            loads(store, args.window_dots // LOAD_DOTS_PER_TRIP, 0, WEIGHT_BYTES)
        t2 = time.perf_counter_ns()
        if round >= 0:
            reg.append(t1 - t0)
            load.append(t2 - t1)
    print(json.dumps({"registers_ns": reg, "loads_ns": load, "settings": host.settings(settings)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
