"""Times the floor kernels (kernels.mjs) under wasmtime, configured as
common/host/wasmtime-run.py configures it (Cranelift, SIMD; epoch interruption
on, with its ticker, unless --no-epoch):
    wasmtime-host.py [--no-epoch] [--only registers|loads|floats|exps] FILE.wasm ROUNDS WINDOW_DOTS WINDOW_FLOAT_PAIRS WINDOW_EXPS
one JSON object on stdout (--only: just that kernel, for an instruction count).
    wasmtime-host.py [--no-epoch] --plan PLAN.json FILE.wasm
runs the calls PLAN.json lists instead (bound.mjs --runtime wasmtime):
{"warmup": [RUN...], "runs": [RUN...]}, each RUN a list of calls [EXPORT, ARG...],
and prints {"warmup_ns": [[ns per call] per run], "ns": [...]}."""
import argparse, importlib.util, json, os, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("wasmtime_run", os.path.join(ROOT, "common", "host", "wasmtime-run.py"))
host = importlib.util.module_from_spec(spec)
spec.loader.exec_module(host)

REGISTER_DOTS_PER_TRIP, LOAD_DOTS_PER_TRIP, FLOAT_PAIRS_PER_TRIP, WEIGHT_BYTES = 48, 32, 48, 2048  # kernels.mjs
EXPS_PER_TRIP, EXP_ARGS_AT, EXP_OUT_AT = 16, 8192, 9216  # kernels.mjs


def instantiate(module, no_epoch):
    """The kernels' instance in a store configured as the stages' are, its memory filled as the V8 host fills it."""
    settings = argparse.Namespace(no_epoch=no_epoch, tick_ms=10.0, deadline_ticks=host.NEVER_TICKS)
    engine = host.make_engine(settings)
    store = host.wasmtime.Store(engine)
    if not no_epoch:
        store.set_epoch_deadline(settings.deadline_ticks)
        host.start_ticker(engine, settings.tick_ms)
    instance = host.wasmtime.Instance(store, host.wasmtime.Module.from_file(engine, module), [])
    exports = instance.exports(store)
    exports["memory"].write(store, bytes(((i * 37) % 255 - 127) & 0xff for i in range(4096)), 0)
    return store, exports, settings


def run_plan(args):
    with open(args.plan) as f:
        plan = json.load(f)
    store, exports, settings = instantiate(args.module, args.no_epoch)

    def timed(run):
        out = []
        for name, *call_args in run:
            t0 = time.perf_counter_ns()
            exports[name](store, *call_args)
            out.append(time.perf_counter_ns() - t0)
        return out
    warmup = [timed(run) for run in plan["warmup"]]
    print(json.dumps({"warmup_ns": warmup, "ns": [timed(run) for run in plan["runs"]], "settings": host.settings(settings)}))
    return 0


def main(argv):
    if "--plan" in argv:
        p = argparse.ArgumentParser()
        p.add_argument("--no-epoch", action="store_true")
        p.add_argument("--plan", required=True)
        p.add_argument("module")
        return run_plan(p.parse_args(argv))
    p = argparse.ArgumentParser()
    p.add_argument("--no-epoch", action="store_true")
    p.add_argument("--only", choices=["registers", "loads", "floats", "exps"])
    p.add_argument("module")
    p.add_argument("rounds", type=int)
    p.add_argument("window_dots", type=int)
    p.add_argument("window_float_pairs", type=int)
    p.add_argument("window_exps", type=int)
    args = p.parse_args(argv)
    store, exports, settings = instantiate(args.module, args.no_epoch)
    registers, loads, floats, exps = exports["registers"], exports["loads"], exports["floats"], exports["exps"]
    reg, load, float_, exp = [], [], [], []
    for round in range(-1, args.rounds):
        t0 = time.perf_counter_ns()
        if args.only in (None, "registers"):
            registers(store, args.window_dots // REGISTER_DOTS_PER_TRIP)
        t1 = time.perf_counter_ns()
        if args.only in (None, "loads"):
            loads(store, args.window_dots // LOAD_DOTS_PER_TRIP, 0, WEIGHT_BYTES)
        t2 = time.perf_counter_ns()
        if args.only in (None, "floats"):
            floats(store, args.window_float_pairs // FLOAT_PAIRS_PER_TRIP)
        t3 = time.perf_counter_ns()
        if args.only in (None, "exps"):
            exps(store, args.window_exps // EXPS_PER_TRIP, EXP_ARGS_AT, EXP_OUT_AT)
        t4 = time.perf_counter_ns()
        if round >= 0:
            reg.append(t1 - t0)
            load.append(t2 - t1)
            float_.append(t3 - t2)
            exp.append(t4 - t3)
    print(json.dumps({"registers_ns": reg, "loads_ns": load, "floats_ns": float_, "exps_ns": exp, "settings": host.settings(settings)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
