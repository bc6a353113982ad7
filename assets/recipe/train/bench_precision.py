"""One training step of the real model, fp32 vs bf16 autocast, side by side.

Batch 8 x 256 random ids, forward + loss + backward + AdamW step, 2 threads; each precision
alternates with the other (fp32, bf16, fp32, bf16: one warm-up step, then the mean of 3) so
that a change in the machine's load hits both. Prints one line per round and a header with
the machine, and is how the recipe chose bf16 (README.md). Writes nothing else.

    /usr/bin/python3 assets/recipe/train/bench_precision.py > assets/model/precision-bench.txt
"""
import os
import platform
import sys
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import TokenClassifier  # noqa: E402


def main():
    torch.set_num_threads(2)
    torch.manual_seed(0)
    model = TokenClassifier(31000)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randint(3, 31000, (8, 256))
    y = torch.randint(0, 81, (8, 256))

    def step(bf16):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            logits = model(x)
        loss = F.cross_entropy(logits.float().view(-1, 81), y.view(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"# {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}, torch {torch.__version__}, python "
          f"{platform.python_version()}, {cpu} x{os.cpu_count()}, load {os.getloadavg()[0]:.2f}")
    for bf16 in (False, True, False, True):
        step(bf16)
        t0 = time.time()
        for _ in range(3):
            step(bf16)
        print(f"{'bf16' if bf16 else 'fp32'}: {(time.time() - t0) / 3:.2f} s per step (8 windows of 256)", flush=True)
    print(f"# load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
