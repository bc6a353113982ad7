"""The .bxm model file in numpy: writer, reader, and an int8 reference forward pass.

The file format is assets/model/FORMAT.md; the arithmetic is the section THE ARITHMETIC of
common/README.md. This module is the Python side of both: the exporters write through
`write_bxm`, the evaluation reads through `read_bxm` and runs `Int8Model.forward`.

Two modes of the forward pass:
  exact=True   every sum the contract orders (LayerNorm, the q.k dot products, the softmax
               denominator, p.v) is taken left to right from 0 in float32, as stage 00 does:
               cumulative sums, or one vectorised add per term. With our exp and erf loaded
               (`use_bx_maths`, the shared library built from common/maths) the logits are
               stage 00's, bit for bit: `make check-contract` and `make recipe-agree` show it.
               Without it, exp and erf are computed in float64 and rounded to float32.
               About half a second a window; the evaluation (evaluate.py) uses this mode.
  exact=False  the same operations, but sums in whatever order BLAS / numpy choose, and
               float32 exp and erf kernels (numpy, torch). Faster, and NOT stage 00: a last-bit
               difference can move an activation across an int8 rounding boundary
               (`make recipe-agree` shows how many labels move on the eval corpus).
In both modes the integer dot products are exact: a float32 matrix product of the integer
values is exact whenever every partial sum stays below 2^24 (checked per row through the bound
127 * sum|q|); rows over it are redone in float64, exact for any int8 row of 1536 terms.
Either way the result equals the int32 accumulator, much faster than numpy's integer matmul.
"""
import math
import struct

import numpy as np

MAGIC = b"BXM1"
VERSION = 1
HEADER_SIZE = 64
TABLE_ENTRY = 64
ALIGN = 64
DT_F32, DT_I8 = 0, 1

ENTITY_TYPES = [
    "GIVEN_NAME", "SURNAME", "EMAIL", "PHONE", "URL", "IP_ADDRESS", "CREDIT_CARD",
    "BANK_ACCOUNT", "ROUTING_NUMBER", "SSN", "TAX_ID", "GOVERNMENT_ID", "PASSPORT",
    "DRIVERS_LICENSE", "BUILDING_NUMBER", "STREET_NAME", "SECONDARY_ADDRESS", "CITY",
    "STATE", "ZIP_CODE",
]
LABELS = ["O"] + [f"{p}-{t}" for t in ENTITY_TYPES for p in "BIES"]
assert len(LABELS) == 81

# The fixed shape of the model (FORMAT.md header fields other than vocab / type_vocab).
HIDDEN, LAYERS, HEADS, FFN, MAX_POS, N_LABELS = 384, 6, 12, 1536, 256, 81
HEAD_DIM = HIDDEN // HEADS
LN_EPS = np.float32(1e-12)
ATT_SCALE = np.float32(0.17677669529663687)
GELU_K = np.float32(0.70710678118654752)
PAD, BOS, EOS = 1, 0, 2
WINDOW = 256


def tensor_specs(vocab, type_vocab):
    """(name, dtype, rows, cols) for every tensor, in file order (FORMAT.md's table)."""
    s = [("emb.word.w", DT_I8, vocab, HIDDEN), ("emb.word.scale", DT_F32, 1, vocab),
         ("emb.pos", DT_F32, MAX_POS, HIDDEN), ("emb.type", DT_F32, type_vocab, HIDDEN),
         ("emb.ln.gamma", DT_F32, 1, HIDDEN), ("emb.ln.beta", DT_F32, 1, HIDDEN)]
    for l in range(LAYERS):
        for m in "qkvo":
            s += [(f"L{l}.{m}.w", DT_I8, HIDDEN, HIDDEN), (f"L{l}.{m}.scale", DT_F32, 1, HIDDEN),
                  (f"L{l}.{m}.bias", DT_F32, 1, HIDDEN)]
        s += [(f"L{l}.attn_ln.gamma", DT_F32, 1, HIDDEN), (f"L{l}.attn_ln.beta", DT_F32, 1, HIDDEN),
              (f"L{l}.ffn_in.w", DT_I8, FFN, HIDDEN), (f"L{l}.ffn_in.scale", DT_F32, 1, FFN),
              (f"L{l}.ffn_in.bias", DT_F32, 1, FFN),
              (f"L{l}.ffn_out.w", DT_I8, HIDDEN, FFN), (f"L{l}.ffn_out.scale", DT_F32, 1, HIDDEN),
              (f"L{l}.ffn_out.bias", DT_F32, 1, HIDDEN),
              (f"L{l}.ffn_ln.gamma", DT_F32, 1, HIDDEN), (f"L{l}.ffn_ln.beta", DT_F32, 1, HIDDEN)]
    s += [("cls.w", DT_I8, N_LABELS, HIDDEN), ("cls.scale", DT_F32, 1, N_LABELS),
          ("cls.bias", DT_F32, 1, N_LABELS)]
    return s


# ---------------------------------------------------------------- scalar helpers, vectorised

def _rha(x):
    x = np.asarray(x, dtype=np.float32)
    a = np.abs(x)
    r = np.floor(a)
    r = r + (a - r >= np.float32(0.5)).astype(np.float32)   # a - r is exact for a < 2^23
    return np.copysign(r, x).astype(np.float32)


def round_half_away(x):
    """Round to nearest, ties away from zero (C's roundf), elementwise, float32.
    floor(|x|) + (|x| - floor(|x|) >= 0.5): exact, unlike floor(|x| + 0.5), which sends
    0.49999997f to 1."""
    return _rha(x)


def quantize_weight_rows(w):
    """Per output row: scale = max|w| / 127 (f32), q = round_half_away(w / scale) clamped to
    +-127. An all-zero row gets scale 1 and zeros. Returns (int8 rows x cols, f32 scales)."""
    w = np.asarray(w, dtype=np.float32)
    amax = np.max(np.abs(w), axis=1)
    scale = (amax / np.float32(127.0)).astype(np.float32)
    scale[amax == 0] = np.float32(1.0)
    q = _rha(w / scale[:, None])
    q = np.clip(q, -127, 127).astype(np.int8)
    return q, scale


def quantize_activations(x):
    """Per row (token): amax from 0 with NaN never winning, s_in = amax / 127,
    inv = 127 / amax (0 if amax == 0), q = clamp(round_half_away(x * inv), -127, 127),
    NaN -> 0. Returns (q as float64 integers, s_in float32 per row)."""
    x = np.asarray(x, dtype=np.float32)
    a = np.abs(x)
    amax = np.max(np.where(np.isnan(a), np.float32(0), a), axis=-1).astype(np.float32)
    s_in = (amax / np.float32(127.0)).astype(np.float32)
    with np.errstate(divide="ignore"):
        inv = np.where(amax > 0, np.float32(127.0) / np.where(amax > 0, amax, 1), 0).astype(np.float32)
    t = x * inv[..., None]
    q = np.clip(_rha(t), -127, 127)
    q = np.where(np.isnan(q), 0, q)
    return q.astype(np.float64), s_in


def erf32(x):
    """float32 erf for exact mode: float64 erf rounded, until use_bx_maths replaces it."""
    x = np.asarray(x, dtype=np.float32)
    try:
        import torch  # float64 erf, correctly rounded to f32 in practice
        return torch.erf(torch.from_numpy(x.astype(np.float64))).numpy().astype(np.float32)
    except ImportError:
        return np.vectorize(math.erf, otypes=[np.float64])(x.astype(np.float64)).astype(np.float32)


def erf32_fast(x):
    """float32 erf (torch's vectorised kernel, within about an ulp) for exact=False."""
    try:
        import torch
        return torch.erf(torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))).numpy()
    except ImportError:
        return erf32(x)


def exp32(x):
    """float32 exp for exact mode: float64 exp rounded, until use_bx_maths replaces it."""
    return np.exp(np.asarray(x, dtype=np.float64)).astype(np.float32)


def use_bx_maths(lib_path):
    """Make exact mode use bx_expf / bx_erff (common/maths, the functions every stage runs)
    through the shared library `make recipe-maths` builds (common/harness/contract/maths_capi.cpp)."""
    import ctypes
    lib = ctypes.CDLL(lib_path)

    def array_fn(fn):
        def apply(x):
            x = np.ascontiguousarray(np.asarray(x, dtype=np.float32))
            y = np.empty_like(x)
            fn(x.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(x.size))
            return y
        return apply

    global exp32, erf32
    exp32 = array_fn(lib.bx_expf_array)
    erf32 = array_fn(lib.bx_erff_array)


def seqsum(x, axis=-1):
    """Left-to-right float32 sum (cumsum is sequential; np.sum is pairwise)."""
    return np.cumsum(x, axis=axis, dtype=np.float32).take(-1, axis=axis)


# ---------------------------------------------------------------- writer

def _pad_to(buf, align=ALIGN):
    buf.extend(b"\0" * ((-len(buf)) % align))


def write_bxm(path, tensors, vocab, type_vocab=1, labels=LABELS):
    """tensors: dict name -> numpy array (int8 or float32) with the FORMAT.md shapes
    (vectors may be 1-D). Writes the file and returns its size."""
    specs = tensor_specs(vocab, type_vocab)
    missing = [s[0] for s in specs if s[0] not in tensors]
    extra = sorted(set(tensors) - {s[0] for s in specs})
    if missing or extra:
        raise ValueError(f"tensor set mismatch: missing {missing[:5]} extra {extra[:5]}")
    buf = bytearray(HEADER_SIZE)
    label_off = len(buf)
    for name in labels:
        b = name.encode("utf-8")
        buf += struct.pack("<H", len(b)) + b
    _pad_to(buf)
    table_off = len(buf)
    buf += b"\0" * (TABLE_ENTRY * len(specs))
    _pad_to(buf)
    for i, (name, dt, rows, cols) in enumerate(specs):
        a = np.asarray(tensors[name])
        want = np.int8 if dt == DT_I8 else np.float32
        if a.dtype != want:
            raise ValueError(f"{name}: dtype {a.dtype}, want {np.dtype(want)}")
        if a.size != rows * cols or (a.ndim == 2 and a.shape != (rows, cols)):
            raise ValueError(f"{name}: shape {a.shape}, want {(rows, cols)}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name}: non-finite values")
        off = len(buf)
        buf += np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
        _pad_to(buf)
        nb = name.encode("ascii")
        assert len(nb) < 40
        struct.pack_into("<40sIIIIQ", buf, table_off + TABLE_ENTRY * i, nb, dt, rows, cols, 0, off)
    total = len(buf)
    struct.pack_into("<4sIIIIIIIIIfIIIII", buf, 0, MAGIC, VERSION, vocab, MAX_POS, type_vocab,
                     HIDDEN, LAYERS, HEADS, FFN, len(labels), float(LN_EPS), len(specs),
                     label_off, table_off, total, 0)
    with open(path, "wb") as f:
        f.write(buf)
    return total


# ---------------------------------------------------------------- reader

class BxmError(Exception):
    pass


def read_bxm(path):
    """Returns (header dict, labels list, tensors dict name -> numpy view). Checks like the C++
    reader: magic, version, names, dtypes, shapes, alignment, bounds."""
    data = open(path, "rb").read()
    if len(data) < HEADER_SIZE:
        raise BxmError("file shorter than the header")
    f = struct.unpack_from("<4sIIIIIIIIIfIIIII", data, 0)
    keys = ["magic", "version", "vocab", "max_positions", "type_vocab", "hidden", "layers",
            "heads", "ffn", "labels", "layer_norm_eps", "n_tensors", "label_off", "table_off",
            "size", "reserved"]
    h = dict(zip(keys, f))
    if h["magic"] != MAGIC:
        raise BxmError(f"bad magic {h['magic']!r}")
    if h["version"] != VERSION:
        raise BxmError(f"version {h['version']}")
    fixed = dict(max_positions=MAX_POS, hidden=HIDDEN, layers=LAYERS, heads=HEADS, ffn=FFN,
                 labels=N_LABELS)
    for k, v in fixed.items():
        if h[k] != v:
            raise BxmError(f"header {k} = {h[k]}, want {v}")
    if h["type_vocab"] not in (1, 2):
        raise BxmError(f"type_vocab {h['type_vocab']}")
    if h["size"] != len(data):
        raise BxmError(f"header size {h['size']} != file size {len(data)}")
    labels, p = [], h["label_off"]
    for _ in range(h["labels"]):
        if p + 2 > len(data):
            raise BxmError("label block out of bounds")
        (n,) = struct.unpack_from("<H", data, p)
        labels.append(data[p + 2:p + 2 + n].decode("utf-8"))
        p += 2 + n
    specs = tensor_specs(h["vocab"], h["type_vocab"])
    if h["n_tensors"] != len(specs):
        raise BxmError(f"n_tensors {h['n_tensors']}, want {len(specs)}")
    if h["table_off"] + TABLE_ENTRY * len(specs) > len(data):
        raise BxmError("tensor table out of bounds")
    tensors = {}
    for i, (name, dt, rows, cols) in enumerate(specs):
        nb, fdt, frows, fcols, _, off = struct.unpack_from("<40sIIIIQ", data, h["table_off"] + 64 * i)
        fname = nb.rstrip(b"\0").decode("ascii", "replace")
        if fname != name:
            raise BxmError(f"tensor {i}: name {fname!r}, want {name!r}")
        if (fdt, frows, fcols) != (dt, rows, cols):
            raise BxmError(f"{name}: dtype/shape {(fdt, frows, fcols)}, want {(dt, rows, cols)}")
        if off % ALIGN:
            raise BxmError(f"{name}: offset {off} not 64-aligned")
        nbytes = rows * cols * (1 if dt == DT_I8 else 4)
        if off + nbytes > len(data):
            raise BxmError(f"{name}: out of bounds")
        a = np.frombuffer(data, dtype=np.int8 if dt == DT_I8 else np.dtype("<f4"),
                          count=rows * cols, offset=off).reshape(rows, cols)
        tensors[name] = a if rows > 1 or name in ("emb.type",) else a[0]
    return h, labels, tensors


# ---------------------------------------------------------------- int8 forward pass

class Int8Model:
    def __init__(self, path_or_parts):
        if isinstance(path_or_parts, str):
            self.header, self.labels, t = read_bxm(path_or_parts)
        else:
            self.header, self.labels, t = path_or_parts
        self.t = t
        # weights as float64 integer values, transposed for x @ W^T (exact, see module doc)
        self.w32 = {k[:-2]: t[k].astype(np.float32).T.copy() for k in t
                    if k.endswith(".w") and k != "emb.word.w"}

    def layer_norm(self, x, pre, exact):
        g, b = self.t[pre + ".gamma"], self.t[pre + ".beta"]
        n = np.float32(HIDDEN)
        if exact:
            mean = seqsum(x) / n
            d = x - mean[..., None]
            var = seqsum(d * d) / n
        else:
            mean = (x.sum(-1, dtype=np.float32) / n).astype(np.float32)
            d = x - mean[..., None]
            var = ((d * d).sum(-1, dtype=np.float32) / n).astype(np.float32)
        inv = np.float32(1.0) / np.sqrt(var + LN_EPS)
        return ((d * inv[..., None]) * g + b).astype(np.float32)

    def linear(self, x, pre):
        q, s_in = quantize_activations(x)
        w = self.w32[pre]
        q32 = q.astype(np.float32)
        acc = q32 @ w
        # Exact when every partial sum stays below 2^24 in magnitude: bounded by
        # 127 * sum|q|. Rows over the bound (rare) are redone in float64 (exact below 2^53).
        big = np.abs(q32).sum(-1) * np.float32(127) >= np.float32(2 ** 24)
        if np.any(big):
            acc[big] = (q[big] @ w.astype(np.float64)).astype(np.float32)
        return (self.t[pre + ".bias"] + (acc * s_in[..., None]) * self.t[pre + ".scale"]).astype(np.float32)

    def embed(self, ids):
        wq, ws = self.t["emb.word.w"], self.t["emb.word.scale"]
        x = (wq[ids].astype(np.float32) * ws[ids][..., None]) + self.t["emb.pos"][:ids.shape[-1]]
        x = x + self.t["emb.type"][0]
        return x.astype(np.float32)

    def attention(self, q, k, v, exact):
        # q, k, v: (..., T, 384) -> ctx (..., T, 384)
        T = q.shape[-2]
        sh = q.shape[:-2] + (T, HEADS, HEAD_DIM)
        q, k, v = (a.reshape(sh).swapaxes(-2, -3) for a in (q, k, v))  # (..., H, T, 32)
        if exact:
            # One vectorised add per term, from 0: score[i, j] = (((0 + q_i0 k_j0) + q_i1 k_j1) + ...)
            s = np.zeros(q.shape[:-1] + (T,), np.float32)  # (..., H, T, T)
            qd, kd = (np.ascontiguousarray(a.swapaxes(-1, -2)) for a in (q, k))  # (..., H, 32, T)
            for d in range(HEAD_DIM):
                s += qd[..., d, :, None] * kd[..., d, None, :]
            s = s * ATT_SCALE
        else:
            s = (q @ k.swapaxes(-1, -2)) * ATT_SCALE
        m = np.max(s, axis=-1, keepdims=True)
        e = exp32(s - m) if exact else np.exp(s - m)
        z = seqsum(e) if exact else e.sum(-1, dtype=np.float32)
        p = (e / z[..., None]).astype(np.float32)
        if exact:
            ctx = np.zeros(q.shape, np.float32)  # (..., H, T, 32); keys j in order, from 0
            pj = np.ascontiguousarray(p.swapaxes(-1, -2))  # (..., H, T_key, T_query)
            for j in range(T):
                ctx += pj[..., j, :, None] * v[..., None, j, :]
        else:
            ctx = p @ v
        return ctx.swapaxes(-2, -3).reshape(q.shape[:-3] + (T, HIDDEN)).astype(np.float32)

    def forward(self, ids, exact=False):
        """ids: int array (T,) or (B, T), T = 256 normally. Returns f32 logits (..., T, 81)."""
        ids = np.asarray(ids, dtype=np.int64)
        x = self.layer_norm(self.embed(ids), "emb.ln", exact)
        for l in range(LAYERS):
            p = f"L{l}."
            q, k, v = (self.linear(x, p + m) for m in "qkv")
            ctx = self.attention(q, k, v, exact)
            a = self.layer_norm(x + self.linear(ctx, p + "o"), p + "attn_ln", exact)
            hdn = self.linear(a, p + "ffn_in")
            erf = erf32(hdn * GELU_K) if exact else erf32_fast(hdn * GELU_K)
            hdn = (np.float32(0.5) * hdn) * (np.float32(1.0) + erf)
            x = self.layer_norm(a + self.linear(hdn.astype(np.float32), p + "ffn_out"), p + "ffn_ln", exact)
        return self.linear(x, "cls")


def window_ids(content):
    """<s> + content (<= 254 ids) + </s> + pads to 256."""
    assert len(content) <= WINDOW - 2
    ids = [BOS] + list(content) + [EOS]
    return ids + [PAD] * (WINDOW - len(ids))


if __name__ == "__main__":
    import argparse
    import time
    ap = argparse.ArgumentParser(description="check a .bxm file and run one window")
    ap.add_argument("model")
    ap.add_argument("--exact", action="store_true")
    a = ap.parse_args()
    h, labels, t = read_bxm(a.model)
    print({k: v for k, v in h.items() if k != "magic"})
    m = Int8Model((h, labels, t))
    ids = np.array(window_ids([5 + i % 100 for i in range(20)]))
    t0 = time.time()
    lg = m.forward(ids, exact=a.exact)
    print(f"forward {time.time() - t0:.2f}s logits[1,:4] {lg[1, :4]}")
