"""Two independent implementations of the arithmetic contract must agree bit for bit.

Stage 00 (C++) is one. The other is the numpy int8 reference in assets/recipe/train/bxm.py
(exact mode: every ordered sum is a left-to-right float32 cumsum), written separately from the
contract text. Its only deliberate difference is exp and erf (float64, rounded); here they are
replaced by our bx_expf / bx_erff through a small shared library, and then every one of the
256 x 81 logits of a window must have the same bits as stage 00's.

    /usr/bin/python3 common/harness/contract/contract_check.py MODEL.bxm LOGITS.f32 LIBBXMATHS.so ID,ID,...
(`make check-contract` runs it; LOGITS.f32 comes from `cli logits --ids ...`.)
"""
import sys

import numpy as np

sys.path.insert(0, "assets/recipe/train")
import bxm  # noqa: E402


def main():
    model_path, logits_path, lib_path, ids_text = sys.argv[1:5]
    bxm.use_bx_maths(lib_path)
    ids = [int(t) for t in ids_text.split(",")]
    window = np.array(ids + [bxm.PAD] * (bxm.WINDOW - len(ids)))
    ref = bxm.Int8Model(model_path).forward(window, exact=True)
    ours = np.fromfile(logits_path, dtype="<f4").reshape(bxm.WINDOW, len(bxm.LABELS))
    same = ref.view(np.uint32) == ours.view(np.uint32)
    print(f"contract-check: {same.sum()} of {same.size} logits bit-identical between stage 00 and "
          f"the numpy reference (max |dlogit| {np.abs(ref - ours).max():.2e})")
    sys.exit(0 if same.all() else 1)


if __name__ == "__main__":
    main()
