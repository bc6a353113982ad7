"""Train the token classifier exactly the way it runs.

Every example is one window: <s> + up to 254 content ids of ONE text + </s> + <pad> to 256,
no attention mask (the pads take part in attention, as in the int8 stages). The loss is taken
on the content tokens only. Long texts are cut into the service's windows (windows.py: 254
content tokens, stride 190, the last one possibly short), the same windows inference uses.

The budget is wall-clock time (--minutes, summed over resumed runs), so the learning-rate
schedule is a function of the fraction of the budget spent: linear warm-up, then cosine decay
to 10% of the peak. Every window costs the same compute (256 positions), so windows are drawn
with probability proportional to their number of content tokens: the run sees as many labelled
tokens per second as possible while every text can still be drawn.

Checkpoints (model, optimiser, step, tokens, elapsed time, RNG states) go to
assets/work/ckpt/last.pt every --ckpt-minutes and at the end; a run started again resumes
from there. Run with Debian's /usr/bin/python3 (python3-torch 1.13, CPU).
"""
import argparse
import json
import math
import os
import random
import signal
import sys
import time

# Set before torch starts its OpenMP pool: on shared cores, threads that spin while waiting
# for a descheduled partner waste most of the CPU (measured here: 62 tokens per CPU-second with
# the default policy and 2 threads under load, 600-800 with PASSIVE).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import TokenClassifier, n_params, N_LABELS  # noqa: E402
import bxm  # noqa: E402
from windows import text_windows  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
WORK = os.path.join(ROOT, "assets", "work")
IGNORE = -100


def log(msg, path):
    line = time.strftime("%H:%M:%S ") + msg
    print(line, flush=True)
    with open(path, "a") as f:
        f.write(line + "\n")


def label_index(x):
    return x if isinstance(x, int) else bxm.LABELS.index(x)


def read_texts(path, limit=None):
    texts = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            ids, labels = r["ids"], [label_index(x) for x in r["labels"]]
            assert len(ids) == len(labels), "ids and labels differ in length"
            texts.append((ids, labels, r.get("lang", "?"), r.get("kind", "?")))
            if limit and len(texts) >= limit:
                break
    return texts


def make_windows(texts):
    """-> (ids int64 [N,256], labels int64 [N,256] with IGNORE off-content, content counts [N])."""
    win_ids, win_lab, counts = [], [], []
    for ids, labels, _, _ in texts:
        for s, c in text_windows(ids):
            l = labels[s:s + len(c)]
            row = bxm.window_ids(c)
            lab = [IGNORE] + l + [IGNORE] * (bxm.WINDOW - 1 - len(l))
            win_ids.append(row)
            win_lab.append(lab)
            counts.append(len(c))
    return (torch.tensor(win_ids, dtype=torch.long), torch.tensor(win_lab, dtype=torch.long),
            np.array(counts, dtype=np.float64))


def cpu_has_bf16():
    """Whether the CPU multiplies bfloat16 natively (AVX512-BF16): torch's bf16 autocast is fast only there."""
    try:
        with open("/proc/cpuinfo") as f:
            return any(line.startswith("flags") and "avx512_bf16" in line.split() for line in f)
    except OSError:
        return False


def load_bxm_weights(model, path):
    """The weights of an int8 .bxm, dequantised (w = q * row scale), into `model`: the inverse of
    export_bxm.quantize_all under model.float_tensors' names. Every tensor must be there."""
    from model import linear_names
    _, _, t = bxm.read_bxm(path)
    deq = lambda p: t[p + ".w"].astype(np.float32) * t[p + ".scale"].astype(np.float32)[:, None]
    f = {"word.weight": deq("emb.word"), "pos.weight": t["emb.pos"], "tok_type.weight": t["emb.type"],
         "emb_ln.weight": t["emb.ln.gamma"], "emb_ln.bias": t["emb.ln.beta"]}
    for ours, bx in linear_names():
        f[ours + ".weight"], f[ours + ".bias"] = deq(bx), t[bx + ".bias"]
    for l in range(bxm.LAYERS):
        for ln in ("attn_ln", "ffn_ln"):
            f[f"layers.{l}.{ln}.weight"], f[f"layers.{l}.{ln}.bias"] = t[f"L{l}.{ln}.gamma"], t[f"L{l}.{ln}.beta"]
    sd = model.state_dict()
    assert set(f) == set(sd), f"names differ: {set(f) ^ set(sd)}"
    model.load_state_dict({k: torch.from_numpy(np.array(v, dtype=np.float32).reshape(sd[k].shape)) for k, v in f.items()})


def runs(labels):
    """[(start, end, is_entity)] of a window's content labels: maximal runs of O and of non-O."""
    out, start = [], 0
    for i in range(1, len(labels) + 1):
        if i == len(labels) or (labels[i] != 0) != (labels[start] != 0):
            out.append((start, i, labels[start] != 0))
            start = i
    return out


def o_run_pool(ids, labels, limit=20000, max_len=24):
    """Runs of O tokens (at most max_len) from the first `limit` windows: contexts to splice in."""
    pool = []
    for w in range(min(limit, len(ids))):
        m = labels[w] != IGNORE
        c_ids, c_lab = ids[w][m].tolist(), labels[w][m].tolist()
        for a, b, ent in runs(c_lab):
            if not ent and b - a <= max_len:
                pool.append(c_ids[a:b])
    return pool


def recontext(ids_row, lab_row, pool, rng):
    """Context augmentation: the window's entities kept, every run of O tokens between them
    replaced by a run drawn from other texts. The model then has to recognise an entity from
    its own tokens too, not only from the template sentence around it (hand-written text uses
    contexts no template has)."""
    m = lab_row != IGNORE
    c_ids, c_lab = ids_row[m].tolist(), lab_row[m].tolist()
    new_ids, new_lab = [], []
    for a, b, ent in runs(c_lab):
        if ent:
            new_ids += c_ids[a:b]
            new_lab += c_lab[a:b]
        else:
            r = pool[rng.integers(len(pool))]
            new_ids += r
            new_lab += [0] * len(r)
    new_ids, new_lab = new_ids[:bxm.WINDOW - 2], new_lab[:bxm.WINDOW - 2]
    lab = [IGNORE] + new_lab + [IGNORE] * (bxm.WINDOW - 1 - len(new_lab))
    return torch.tensor(bxm.window_ids(new_ids)), torch.tensor(lab)


def lr_at(frac, peak, warm):
    if frac < warm:
        return peak * frac / warm
    p = min(1.0, (frac - warm) / max(1e-9, 1.0 - warm))
    return peak * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * p)))


@torch.no_grad()
def dev_eval(model, ids, labels, batch=16):
    model.eval()
    ok = tot = ok_ent = tot_ent = 0
    loss_sum = 0.0
    for i in range(0, len(ids), batch):
        x, y = ids[i:i + batch], labels[i:i + batch]
        lg = model(x)
        m = y != IGNORE
        loss_sum += F.cross_entropy(lg[m], y[m], reduction="sum").item()
        pred = lg.argmax(-1)
        ok += (pred[m] == y[m]).sum().item()
        tot += m.sum().item()
        e = m & (y != 0)
        ok_ent += (pred[e] == y[e]).sum().item()
        tot_ent += e.sum().item()
    model.train()
    return ok / max(tot, 1), ok_ent / max(tot_ent, 1), loss_sum / max(tot, 1)


def save_ckpt(path, model, opt, state):
    tmp = path + ".tmp"
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), **state,
                "rng_torch": torch.get_rng_state(), "rng_numpy": np.random.get_state(),
                "rng_python": random.getstate()}, tmp)
    if os.path.exists(path):
        os.replace(path, path + ".prev")
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(WORK, "data"))
    ap.add_argument("--ckpt-dir", default=os.path.join(WORK, "ckpt"))
    ap.add_argument("--log", default=os.path.join(WORK, "train.log"))
    ap.add_argument("--minutes", type=float, default=85.0)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--warmup", type=float, default=0.06, help="fraction of the budget")
    ap.add_argument("--wd", type=float, default=0.01)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--ckpt-minutes", type=float, default=5.0)
    ap.add_argument("--eval-minutes", type=float, default=10.0)
    ap.add_argument("--dev-windows", type=int, default=96)
    ap.add_argument("--limit", type=int, default=None, help="read only the first N texts (smoke tests)")
    ap.add_argument("--vocab", type=int, default=None, help="default: tokenizer.json size, else max id + 1")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--emb-lr-mult", type=float, default=10.0, help="learning-rate factor for the embeddings")
    ap.add_argument("--pos-init", choices=["normal", "sinusoidal"], default="sinusoidal")
    ap.add_argument("--pos-scale", type=float, default=0.04)
    ap.add_argument("--extra", nargs="*", default=None,
                    help="more training files ({ids, labels} lines); default: o_text.train.tok.jsonl, "
                         "prose.tok.jsonl, numbers.tok.jsonl and negatives.tok.jsonl in --data where they exist "
                         "(o_text.py: fortune cookies, all O; prose.mjs: real prose, some with ordinary numbers or "
                         "PII written in; numbers.mjs: number-heavy prose, some with PII written in; "
                         "mine_negatives.mjs: its texts the previous model marked, all O)")
    ap.add_argument("--recontext", type=float, default=0.25,
                    help="share of drawn windows whose O context is replaced by O runs of other texts")
    ap.add_argument("--init-bxm", default=None,
                    help="start a fresh run (no checkpoint yet) from the weights of an int8 .bxm, dequantised "
                         "(q x row scale); the float checkpoint behind a committed model is not in the repository")
    ap.add_argument("--precision", choices=["bf16", "fp32"], default=None,
                    help="matrix products in bfloat16 (torch CPU autocast; fp32 master weights, LayerNorm, "
                         "softmax and loss) or all fp32. Default: bf16 where the CPU has AVX512-BF16 (steps "
                         "about 5x faster there), else fp32: without it torch emulates bf16 (measured on an "
                         "AVX2-only EPYC: 33 tokens/s in bf16 against 994 in fp32). The exported model is "
                         "fp32 -> int8 either way")
    ap.add_argument("--train-from-layer", type=int, default=0,
                    help="train only layers N.. and the classifier: the embeddings and the layers below N "
                         "keep their (--init-bxm) weights and get no gradient, so a step skips their backward "
                         "pass. A fine-tune on a CPU without AVX512-BF16 affords more steps this way")
    a = ap.parse_args()
    if a.precision is None:
        a.precision = "bf16" if cpu_has_bf16() else "fp32"

    torch.set_num_threads(a.threads)
    os.makedirs(a.ckpt_dir, exist_ok=True)
    os.makedirs(os.path.dirname(a.log), exist_ok=True)
    ckpt_path = os.path.join(a.ckpt_dir, "last.pt")

    train_texts = read_texts(os.path.join(a.data, "train.tok.jsonl"), a.limit)
    extra = a.extra if a.extra is not None else [
        p for p in [os.path.join(a.data, n) for n in ("o_text.train.tok.jsonl", "prose.tok.jsonl", "numbers.tok.jsonl", "negatives.tok.jsonl")] if os.path.exists(p)]
    for path in extra:
        train_texts += read_texts(path, a.limit)
    dev_texts = read_texts(os.path.join(a.data, "dev.tok.jsonl"), a.limit)
    tr_ids, tr_lab, tr_cnt = make_windows(train_texts)
    dv_ids, dv_lab, _ = make_windows(dev_texts)
    # a fixed, spread-out dev subset so the periodic evaluation stays cheap
    sel = np.linspace(0, len(dv_ids) - 1, min(a.dev_windows, len(dv_ids))).round().astype(int)
    dv_ids, dv_lab = dv_ids[sel], dv_lab[sel]

    sys.path.insert(0, os.path.dirname(__file__))
    from export_bxm import tokenizer_vocab_size
    max_id = int(max(tr_ids.max(), dv_ids.max()))
    vocab = a.vocab or tokenizer_vocab_size() or (max_id + 1)
    assert max_id < vocab, f"id {max_id} >= vocab {vocab}"

    random.seed(a.seed)
    np.random.seed(a.seed)
    torch.manual_seed(a.seed)
    model = TokenClassifier(vocab)
    if a.pos_init == "sinusoidal":
        model.init_positions_sinusoidal(a.pos_scale)
    # Three groups: Linear weights (weight decay), biases and LayerNorm (none), embeddings
    # (none, learning rate x --emb-lr-mult). Adam moves a coordinate by about lr per update
    # whatever the gradient, and a rare token's row is updated only when the token is drawn:
    # at the base rate its embedding stays at its random start for the whole budget
    # (measured: word embedding std 0.0200 -> 0.0209 after 319 steps).
    emb_names = ("word.", "pos.", "tok_type.")
    frozen = emb_names + ("emb_ln.",) + tuple(f"layers.{l}." for l in range(a.train_from_layer))
    if a.train_from_layer:
        for n, p in model.named_parameters():
            p.requires_grad_(not n.startswith(frozen))
    named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    groups = {"decay": [n for n, p in named if p.ndim >= 2 and not n.startswith(emb_names)],
              "plain": [n for n, p in named if p.ndim < 2],
              "emb": [n for n, p in named if n.startswith(emb_names)]}
    pmap = dict(named)
    opt = torch.optim.AdamW([{"params": [pmap[n] for n in groups["decay"]], "weight_decay": a.wd, "lr_mult": 1.0},
                             {"params": [pmap[n] for n in groups["plain"]], "weight_decay": 0.0, "lr_mult": 1.0},
                             {"params": [pmap[n] for n in groups["emb"]], "weight_decay": 0.0,
                              "lr_mult": a.emb_lr_mult}],
                            lr=a.lr, betas=(0.9, 0.98), eps=1e-6)
    if a.init_bxm and not os.path.exists(ckpt_path):
        load_bxm_weights(model, a.init_bxm)
        log(f"initialised from {a.init_bxm} (dequantised int8)", a.log)
    state = {"step": 0, "tokens_seen": 0, "content_tokens_seen": 0, "elapsed": 0.0,
             "vocab": vocab, "args": vars(a)}
    if os.path.exists(ckpt_path):
        ck = torch.load(ckpt_path, map_location="cpu")
        model.load_state_dict(ck["model"])
        osd = ck["optimizer"]
        if len(osd["param_groups"]) == 2:
            # a checkpoint from the two-group layout (decay | everything else, embeddings in the
            # second): re-key its Adam state by parameter name into the three groups
            old_order = groups["decay"] + [n for n, p in named if n not in groups["decay"]]
            new_order = groups["decay"] + groups["plain"] + groups["emb"]
            old_idx = {n: i for i, n in enumerate(old_order)}
            cur = opt.state_dict()
            cur["state"] = {j: osd["state"][old_idx[n]] for j, n in enumerate(new_order) if old_idx[n] in osd["state"]}
            osd = cur
        opt.load_state_dict(osd)
        for k in ("step", "tokens_seen", "content_tokens_seen", "elapsed"):
            state[k] = ck[k]
        torch.set_rng_state(ck["rng_torch"])
        np.random.set_state(ck["rng_numpy"])
        random.setstate(ck["rng_python"])
        log(f"resumed from {ckpt_path}: step {state['step']}, {state['elapsed'] / 60:.1f} min done", a.log)

    budget = a.minutes * 60.0
    probs = tr_cnt / tr_cnt.sum()
    pool = o_run_pool(tr_ids, tr_lab) if a.recontext > 0 else []
    aug_rng = np.random.default_rng(a.seed + state["step"])
    log(f"train: {len(train_texts)} texts, {len(tr_ids)} windows, {int(tr_cnt.sum())} content tokens "
        f"(mean {tr_cnt.mean():.1f}/window); dev subset {len(dv_ids)} windows; vocab {vocab}; "
        f"params {n_params(model)}; batch {a.batch}; lr {a.lr}; budget {a.minutes} min; "
        f"threads {torch.get_num_threads()}; precision {a.precision}; recontext {a.recontext} "
        f"({len(pool)} O runs); trained from layer {a.train_from_layer} ({n_params(model, trainable=True)} "
        f"params); extra {extra}", a.log)

    stop = []  # SIGTERM / SIGINT: save a checkpoint, then stop
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    model.train()
    t_start = time.time()
    base_elapsed = state["elapsed"]
    last_ckpt = last_eval = last_log = t_start
    win_tok = cont_tok = 0
    loss_acc, loss_n = 0.0, 0
    t_win = time.time()
    while True:
        elapsed = base_elapsed + (time.time() - t_start)
        frac = elapsed / budget
        if frac >= 1.0 or stop:
            state["elapsed"] = elapsed
            break
        lr = lr_at(frac, a.lr, a.warmup)
        for g in opt.param_groups:
            g["lr"] = lr * g.get("lr_mult", 1.0)
        idx = torch.from_numpy(np.random.choice(len(tr_ids), size=a.batch, p=probs))
        x, y = tr_ids[idx].clone(), tr_lab[idx].clone()
        for b in range(a.batch):
            if aug_rng.random() < a.recontext:
                x[b], y[b] = recontext(x[b], y[b], pool, aug_rng)
        m = y != IGNORE
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=a.precision == "bf16"):
            logits = model(x)
        loss = F.cross_entropy(logits.float()[m], y[m])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        state["step"] += 1
        n_c = int(m.sum())
        state["tokens_seen"] += x.numel()
        state["content_tokens_seen"] += n_c
        win_tok += x.numel()
        cont_tok += n_c
        loss_acc += loss.item()
        loss_n += 1
        now = time.time()
        state["elapsed"] = base_elapsed + (now - t_start)
        if now - last_log >= 60 or state["step"] <= 3:
            dt = now - t_win
            log(f"step {state['step']} min {state['elapsed'] / 60:.1f} lr {lr:.2e} loss {loss_acc / loss_n:.4f} "
                f"tok/s {win_tok / dt:.0f} (content {cont_tok / dt:.0f}) tokens {state['tokens_seen']} "
                f"content {state['content_tokens_seen']}", a.log)
            last_log, t_win, win_tok, cont_tok, loss_acc, loss_n = now, now, 0, 0, 0.0, 0
        if now - last_eval >= a.eval_minutes * 60:
            acc, acc_e, dl = dev_eval(model, dv_ids, dv_lab)
            log(f"dev step {state['step']}: token acc {acc:.4f} entity-token acc {acc_e:.4f} loss {dl:.4f}", a.log)
            last_eval = time.time()
            t_win = last_eval  # keep tokens/s about training only
            win_tok = cont_tok = 0
        if now - last_ckpt >= a.ckpt_minutes * 60:
            save_ckpt(ckpt_path, model, opt, state)
            last_ckpt = time.time()
    save_ckpt(ckpt_path, model, opt, state)
    if stop:
        log(f"stopped by signal at step {state['step']}, {state['elapsed'] / 60:.1f} min; checkpoint saved", a.log)
        return
    acc, acc_e, dl = dev_eval(model, dv_ids, dv_lab)
    log(f"dev final step {state['step']}: token acc {acc:.4f} entity-token acc {acc_e:.4f} loss {dl:.4f}", a.log)
    log(f"done: {state['step']} steps, {state['tokens_seen']} tokens ({state['content_tokens_seen']} content) "
        f"in {state['elapsed'] / 60:.1f} min; mean {state['tokens_seen'] / max(state['elapsed'], 1e-9):.0f} tok/s", a.log)


if __name__ == "__main__":
    main()
