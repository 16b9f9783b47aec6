#!/usr/bin/env python3
# The block's forward at 50 significant digits in mpmath (Debian's python3-mpmath), for
# bench/forward_vs_mpmath.sh: a second, independent implementation of docs/block-case.md's block
# (pre-norm RMSNorm, rotary positions with no scaling, causal attention with its KV heads,
# SwiGLU), timed beside `blockcheck forward --precision 50` on the same case. Cases with a cache,
# post-norm or RoPE scaling are refused. Prints the output rows, one number a line, 50 digits.
#   python3 bench/mpmath_forward.py CASE.json
import json
import sys

import mpmath
from mpmath import mp, mpf


def refuse(why):
    sys.exit(f"mpmath_forward.py: {sys.argv[1]}: {why}")


def matrix(rows):
    return [[mpf(v) for v in row] for row in rows]


# RMSNorm(x)_i = g_i x_i / sqrt(mean_j x_j^2 + eps)
def rms_norm(x, g, eps):
    inv = 1 / mpmath.sqrt(mpmath.fsum(v * v for v in x) / len(x) + eps)
    return [gi * xi * inv for gi, xi in zip(g, x)]


# y = x W, W: [in, out]
def times(x, w):
    return [mpmath.fdot(x, col) for col in w]


# interleaved pairs (2i, 2i+1) turned by pos * theta^(-2i/d)
def rope(head, pos, theta):
    d = len(head)
    out = list(head)
    for i in range(0, d, 2):
        angle = pos * theta ** (mpf(-i) / d)
        c, s = mpmath.cos(angle), mpmath.sin(angle)
        out[i], out[i + 1] = head[i] * c - head[i + 1] * s, head[i] * s + head[i + 1] * c
    return out


def silu(z):
    return z / (1 + mpmath.exp(-z))


def forward(case):
    c, w = case["config"], case["weights"]
    if case.get("cached") or not c.get("pre_norm", True) or c.get("rope_layout", "interleaved") != "interleaved":
        refuse("only a pre-norm, interleaved case with no cache")
    scaling = c.get("rope_scaling") or {}
    if (scaling.get("type") or scaling.get("rope_type") or "none") not in ("none", "default"):
        refuse("only a case without RoPE scaling")
    hq, d = c["query_heads"], c["head_dim"]
    hkv = c.get("kv_heads", hq)
    eps, theta = mpf(str(c["rms_norm_eps"])), mpf(str(c["rope_theta"]))
    start = case.get("start_position", 0)
    x = matrix(case["input"])  # x: [T, C]
    tr = {k: [list(col) for col in zip(*matrix(w[k]))] for k in ("q", "k", "v", "o", "gate", "up", "down")}
    g1, g2 = [mpf(v) for v in w["attn_norm"]], [mpf(v) for v in w["ffn_norm"]]
    n = [rms_norm(row, g1, eps) for row in x]
    q = [times(row, tr["q"]) for row in n]
    k = [times(row, tr["k"]) for row in n]
    v = [times(row, tr["v"]) for row in n]
    q = [sum((rope(row[h * d:(h + 1) * d], start + t, theta) for h in range(hq)), []) for t, row in enumerate(q)]
    k = [sum((rope(row[h * d:(h + 1) * d], start + t, theta) for h in range(hkv)), []) for t, row in enumerate(k)]
    scale = 1 / mpmath.sqrt(d)
    out = []
    for t in range(len(x)):
        heads = []
        for h in range(hq):
            kh = h // (hq // hkv)
            qh = q[t][h * d:(h + 1) * d]
            scores = [mpmath.fdot(qh, k[s][kh * d:(kh + 1) * d]) * scale for s in range(t + 1)]
            top = max(scores)
            e = [mpmath.exp(z - top) for z in scores]
            total = mpmath.fsum(e)
            heads += [mpmath.fsum(e[s] * v[s][kh * d + j] for s in range(t + 1)) / total for j in range(d)]
        r = [xi + ai for xi, ai in zip(x[t], times(heads, tr["o"]))]
        m = rms_norm(r, g2, eps)
        hidden = [silu(a) * b for a, b in zip(times(m, tr["gate"]), times(m, tr["up"]))]
        out.append([ri + fi for ri, fi in zip(r, times(hidden, tr["down"]))])
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: mpmath_forward.py CASE.json")
    mp.dps = 50
    with open(sys.argv[1]) as f:
        case = json.load(f, parse_float=str, parse_int=str)
    case["config"] = {k: (int(v) if isinstance(v, str) and v.lstrip("-").isdigit() else v)
                      for k, v in case["config"].items()}
    case["start_position"] = int(case.get("start_position", 0))
    for row in forward(case):
        for value in row:
            print(mpmath.nstr(value, 50, min_fixed=-5, max_fixed=5))


if __name__ == "__main__":
    main()
