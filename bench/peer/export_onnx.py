#!/usr/bin/python3
"""Write our trained model (assets/model/model.bxm) as an ONNX graph for the peer runtimes.

The graph computes what stage 00 computes, the way a web developer's toolchain would run it:
the same int8 weights and per-row scales, activations quantised by ONNX Runtime's own dynamic
quantiser (DynamicQuantizeLinear: one uint8 scale and zero point per tensor, not our symmetric
int8 per row), float everywhere else, and ONNX Runtime's own LayerNorm, Softmax and Erf. So its
labels are expected to agree with stage 00's almost everywhere, and its logits not bit for bit.

usage: export_onnx.py MODEL.bxm OUT.onnx      (Debian's python3-onnx; opset 17)
"""
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HEADER = struct.Struct("<4s9If5I")  # magic, version .. labels, eps, n_tensors, names, table, size, reserved
ENTRY = struct.Struct("<40s4IQ")    # name, dtype, rows, cols, reserved, offset
DTYPES = {0: np.float32, 1: np.int8}


def read_bxm(path):
    data = open(path, "rb").read()
    (magic, version, vocab, positions, type_vocab, hidden, layers, heads, ffn, labels, eps,
     n_tensors, _names, table, size, _reserved) = HEADER.unpack_from(data, 0)
    if magic != b"BXM1" or version != 1 or size != len(data):
        sys.exit(f"{path}: not a version-1 .bxm of the size its header says")
    tensors = {}
    for i in range(n_tensors):
        name, dtype, rows, cols, _, offset = ENTRY.unpack_from(data, table + i * ENTRY.size)
        name = name.rstrip(b"\0").decode()
        tensors[name] = np.frombuffer(data, DTYPES[dtype], rows * cols, offset).reshape(rows, cols)
    shape = dict(vocab=vocab, positions=positions, hidden=hidden, layers=layers, heads=heads, ffn=ffn,
                 labels=labels, eps=eps)
    return shape, tensors


class Graph:
    def __init__(self):
        self.nodes, self.inits, self.count = [], [], 0

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def op(self, kind, inputs, outputs=1, **attrs):
        self.count += 1
        names = [f"{kind.lower()}_{self.count}_{i}" for i in range(outputs)]
        self.nodes.append(helper.make_node(kind, inputs, names, **attrs))
        return names[0] if outputs == 1 else names


def build(shape, t):
    g = Graph()
    hidden, heads = shape["hidden"], shape["heads"]
    head_dim = hidden // heads
    eps = float(shape["eps"])
    window = shape["positions"]

    def linear(x, prefix):
        w = t[f"{prefix}.w"]  # rows = outputs
        xq, xs, xz = g.op("DynamicQuantizeLinear", [x], outputs=3)
        acc = g.op("MatMulInteger", [xq, g.const(f"{prefix}.wt", w.T.copy()), xz])
        scale = g.op("Mul", [xs, g.const(f"{prefix}.scale", t[f"{prefix}.scale"][0])])
        y = g.op("Mul", [g.op("Cast", [acc], to=TensorProto.FLOAT), scale])
        return g.op("Add", [y, g.const(f"{prefix}.bias", t[f"{prefix}.bias"][0])])

    def norm(x, prefix):
        return g.op("LayerNormalization", [x, g.const(f"{prefix}.gamma", t[f"{prefix}.gamma"][0]),
                                           g.const(f"{prefix}.beta", t[f"{prefix}.beta"][0])], axis=-1, epsilon=eps)

    split = g.const("split_heads", np.array([1, window, heads, head_dim], np.int64))
    merge = g.const("merge_heads", np.array([1, window, hidden], np.int64))

    # Embeddings: the int8 word row times its scale, plus position and type 0, then LayerNorm.
    word = g.op("Cast", [g.op("Gather", [g.const("emb.word.w", t["emb.word.w"]), "input_ids"])], to=TensorProto.FLOAT)
    word_scale = g.op("Unsqueeze", [g.op("Gather", [g.const("emb.word.scale", t["emb.word.scale"][0]), "input_ids"]),
                                    g.const("last_axis", np.array([-1], np.int64))])
    x = g.op("Add", [g.op("Mul", [word, word_scale]), g.const("emb.pos", t["emb.pos"])])
    x = norm(g.op("Add", [x, g.const("emb.type0", t["emb.type"][0])]), "emb.ln")

    attention_scale = g.const("attention_scale", np.array(1.0 / np.sqrt(head_dim), np.float32))
    for l in range(shape["layers"]):
        p = f"L{l}"
        q = g.op("Transpose", [g.op("Reshape", [linear(x, f"{p}.q"), split])], perm=[0, 2, 1, 3])
        k = g.op("Transpose", [g.op("Reshape", [linear(x, f"{p}.k"), split])], perm=[0, 2, 3, 1])
        v = g.op("Transpose", [g.op("Reshape", [linear(x, f"{p}.v"), split])], perm=[0, 2, 1, 3])
        scores = g.op("Mul", [g.op("MatMul", [q, k]), attention_scale])
        ctx = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        ctx = g.op("Reshape", [g.op("Transpose", [ctx], perm=[0, 2, 1, 3]), merge])
        x = norm(g.op("Add", [x, linear(ctx, f"{p}.o")]), f"{p}.attn_ln")
        h = linear(x, f"{p}.ffn_in")
        erf = g.op("Erf", [g.op("Mul", [h, g.const(f"{p}.gelu_in", np.array(0.70710678118654752, np.float32))])])
        h = g.op("Mul", [g.op("Mul", [h, g.const(f"{p}.half", np.array(0.5, np.float32))]),
                         g.op("Add", [erf, g.const(f"{p}.one", np.array(1.0, np.float32))])])
        x = norm(g.op("Add", [x, linear(h, f"{p}.ffn_out")]), f"{p}.ffn_ln")

    logits = linear(x, "cls")
    g.nodes.append(helper.make_node("Identity", [logits], ["logits"]))
    graph = helper.make_graph(
        g.nodes, "bitexact-encoder",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, window])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, window, shape["labels"]])],
        g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="bitexact")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    shape, tensors = read_bxm(sys.argv[1])
    model = build(shape, tensors)
    onnx.save(model, sys.argv[2])
    print(f"export_onnx: {sys.argv[2]}: {len(model.graph.node)} nodes, {shape['layers']} layers, int8 weights")


if __name__ == "__main__":
    main()
