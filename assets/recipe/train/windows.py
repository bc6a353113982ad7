"""The service's windows, in Python: the recipe must cut and stitch texts exactly as
common/service/windows.cpp does, or its F1 is not the shipped service's F1.

A text of n content tokens gets windows of up to 254 tokens starting at 0, 190, 380, ...; a
window is added only while the previous one stops short of the last token, so the last window
may be short. A token covered by two windows takes its logits from the one where it sits
farther from a cut (a window side at the text's own start or end is no cut); on a tie the
earlier window keeps it.
"""
CONTENT = 254    # content tokens per window: 256 positions minus <s> and </s>
STRIDE = 190     # 64 tokens of overlap
NO_CUT = 1 << 30


def plan_windows(n):
    """[(first, count)] for n content tokens; [] for none."""
    out, first = [], 0
    while n > 0:
        count = min(CONTENT, n - first)
        out.append((first, count))
        if first + count >= n:
            break
        first += STRIDE
    return out


def distance_from_cut(first, count, token, n):
    left = token - first if first > 0 else NO_CUT
    right = first + count - 1 - token if first + count < n else NO_CUT
    return min(left, right)


def owners(windows, n):
    """For each content token, the index of the window its logits come from."""
    owner, best = [-1] * n, [-1] * n
    for w, (first, count) in enumerate(windows):
        for t in range(first, first + count):
            d = distance_from_cut(first, count, t, n)
            if d > best[t]:
                best[t], owner[t] = d, w
    return owner


def text_windows(ids):
    """[(first, content ids)] for a text's content ids (no <s> / </s>)."""
    return [(first, ids[first:first + count]) for first, count in plan_windows(len(ids))]
