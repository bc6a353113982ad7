#!/usr/bin/env python3
"""What Cranelift makes of a stage's hottest loop, with epoch checks on and off.

    build/venv/bin/python bench/cranelift-loop.py --stage 26 [--function REGEX] [--lines N] [-o FILE]
    make cranelift-loop STAGE=26      (writes bench/results/check-26-cranelift-loop.txt)

For the stage's cli.wasm and each build of its sweep (variants.json), the
module is compiled by wasmtime exactly as common/host/wasmtime-run.py compiles
it (its make_engine(), so the settings cannot drift), once with epoch
interruption and once without, and serialised: the result is an ELF object
whose symbols name every wasm function. objdump (binutils) disassembles the
function matching --function (the GEMM by default) and counts, in each of the
--loops innermost loops with the most --count instructions (vpmaddwd, the
GEMM's integer dot products, by default; vmulps for attention):

  instructions   in the loop, from its head to its back-edge;
  --count        the loop's work: how many of that instruction;
  xmm<->stack    moves between a vector register and a stack slot: values the
                 register allocator keeps in memory across the loop;
  per ...        xmm<->stack moves per unit of work.

Then the stage's first such loop under epoch interruption is printed. Counts
come from the build, never from a paste; the book quotes this file.

    make cranelift-loop STAGE=27 CRANELIFT_LOOP_ARGS="--function '::forward\\(' --count vmulps --loops 2"
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def load_host():
    """common/host/wasmtime-run.py as a module (its name has a dash)."""
    path = os.path.join(ROOT, "common", "host", "wasmtime-run.py")
    spec = importlib.util.spec_from_file_location("wasmtime_run", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled_object(host, wasm, epoch, directory):
    """The serialised machine code of `wasm` (an ELF object) under the host's settings."""
    args = argparse.Namespace(no_epoch=not epoch, tick_ms=None, deadline_ticks=None)
    engine = host.make_engine(args)
    module = host.wasmtime.Module.from_file(engine, wasm)
    path = os.path.join(directory, f"{os.path.basename(wasm)}.{'epoch' if epoch else 'plain'}.cwasm")
    with open(path, "wb") as out:
        out.write(module.serialize())
    return path, host.settings(args)


def function_range(obj, pattern):
    """[start, end) of the one text symbol whose name matches pattern."""
    symbols = []
    for line in subprocess.run(["nm", "-n", obj], check=True, capture_output=True, text=True).stdout.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tT":
            symbols.append((int(parts[0], 16), parts[2]))
    for i, (address, name) in enumerate(symbols):
        if re.search(pattern, name):
            end = symbols[i + 1][0] if i + 1 < len(symbols) else address + (1 << 20)
            return address, end, name
    raise SystemExit(f"cranelift-loop: no function matching {pattern!r} in {obj}")


INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
BRANCH_TARGET = re.compile(r"^([0-9a-f]+)\b")


def disassemble(obj, start, end):
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={start:#x}",
                           f"--stop-address={end:#x}", obj], check=True, capture_output=True, text=True).stdout
    code = []
    for line in text.splitlines():
        m = INSN.match(line)
        if m:
            code.append((int(m.group(1), 16), m.group(2), m.group(3).split("<")[0].strip()))
    return code


def loops(code):
    """(head, last) index pairs: a branch back to an earlier address closes a loop."""
    index = {address: i for i, (address, _, _) in enumerate(code)}
    found = []
    for i, (address, mnemonic, operands) in enumerate(code):
        if mnemonic.startswith("j"):
            m = BRANCH_TARGET.match(operands)
            if m and int(m.group(1), 16) < address and int(m.group(1), 16) in index:
                found.append((index[int(m.group(1), 16)], i))
    return found


def is_xmm_stack_move(mnemonic, operands):
    return mnemonic.startswith(("mov", "vmov")) and "%xmm" in operands and "(%rsp)" in operands


def count(body, mnemonic):
    return {
        "instructions": len(body),
        "work": sum(1 for _, m, _ in body if m == mnemonic),
        "xmm_stack_moves": sum(1 for _, m, o in body if is_xmm_stack_move(m, o)),
    }


def hottest_loops(code, mnemonic, how_many):
    """The innermost loops (no loop inside) with the most `mnemonic`, most first,
    ties to the shorter; in the order they appear in the code."""
    spans = loops(code)
    innermost = [(h, l) for h, l in spans if not any(h <= h2 and l2 <= l and (h2, l2) != (h, l) for h2, l2 in spans)]
    ranked = []
    for head, last in innermost:
        c = count(code[head:last + 1], mnemonic)
        if c["work"]:
            ranked.append(((-c["work"], c["instructions"]), head, last, c))
    if len(ranked) < how_many:
        raise SystemExit(f"cranelift-loop: fewer than {how_many} innermost loops with {mnemonic} in the function")
    return sorted((r[1:] for r in sorted(ranked)[:how_many]), key=lambda r: r[0])


def builds(build_dir, stage):
    stages = os.path.join(ROOT, build_dir, "stages")
    name = next((d for d in sorted(os.listdir(stages)) if d.startswith(f"{stage}-")), None)
    if name is None:
        raise SystemExit(f"cranelift-loop: no {build_dir}/stages/{stage}-*")
    with open(os.path.join(stages, name, "variants.json")) as f:
        variants = json.load(f)
    out = [(variants.get("sweep_base") or "stage", os.path.join(stages, name, "cli.wasm"))]
    for label in variants.get("sweep", {}):
        out.append((label, os.path.join(stages, name, f"cli-{label}.wasm")))
    return name, out


def provenance():
    # The header every capture carries (bench/lib/capture-header.mjs): one writer for all tools.
    objdump = subprocess.run(["objdump", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return subprocess.run(["node", os.path.join(ROOT, "bench/lib/capture-header.mjs"), "--tool", "bench/cranelift-loop.py", objdump],
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--stage", required=True)
    p.add_argument("--build", default="build/wasm")
    p.add_argument("--function", default=r"::gemm\(")
    p.add_argument("--count", default="vpmaddwd", help="the instruction that marks the loop's work")
    p.add_argument("--loops", type=int, default=1, help="how many loops to count (the most --count first)")
    p.add_argument("--lines", type=int, default=60)
    p.add_argument("-o", dest="out")
    args = p.parse_args(argv)

    host = load_host()
    name, todo = builds(args.build, args.stage)
    lines = [provenance()]
    rows, listing = [], None
    with tempfile.TemporaryDirectory() as tmp:
        for label, wasm in todo:
            for epoch in (True, False):
                obj, settings = compiled_object(host, wasm, epoch, tmp)
                start, end, symbol = function_range(obj, args.function)
                code = disassemble(obj, start, end)
                found = hottest_loops(code, args.count, args.loops)
                for n, (head, last, c) in enumerate(found):
                    rows.append((label, epoch, n + 1, c))
                if listing is None and epoch:
                    listing = (symbol, code[found[0][0]:found[0][1] + 1])
    lines.append(f"# wasmtime {settings['wasmtime']}, Cranelift opt level {settings['cranelift_opt_level']}, "
                 f"wasm SIMD on; epoch interruption on and off")
    what = "the loop" if args.loops == 1 else f"the {args.loops} innermost loops"
    lines.append(f"stage {name}: {what} with the most {args.count} in {listing[0].split('::', 2)[-1][:60]}...")
    lines.append("")
    loop_column = args.loops > 1
    lines.append(f"{'build':<8} {'epoch':<6} {'loop':>4} " if loop_column else f"{'build':<8} {'epoch':<6} ")
    lines[-1] += f"{'instructions':>12} {args.count:>9} {'xmm<->stack':>12} {'per ' + args.count:>13}"
    for label, epoch, n, c in rows:
        per = c["xmm_stack_moves"] / c["work"]
        line = f"{label:<8} {'on' if epoch else 'off':<6} " + (f"{n:>4} " if loop_column else "")
        lines.append(line + f"{c['instructions']:>12} {c['work']:>9} {c['xmm_stack_moves']:>12} {per:>13.2f}")
    lines.append("")
    symbol, body = listing
    first = "loop" if args.loops == 1 else "first loop"
    lines.append(f"The stage's {first} with epoch interruption on ({len(body)} instructions"
                 f"{', first ' + str(args.lines) if len(body) > args.lines else ''}):")
    for address, mnemonic, operands in body[:args.lines]:
        lines.append(f"  {address:6x}  {mnemonic:<10} {operands}")
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
