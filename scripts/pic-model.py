#!/usr/bin/env python3
"""An independent model of the pic workload, written from docs/design.md section 5 alone with numpy's
random numbers, to check our counts against something that shares no code with the sim:
step-synchronous, children appended and moving from the step after their birth. Its counts
differ from ours by the spread of different random numbers only (docs/performance.md).
Usage: .venv/bin/python scripts/pic-model.py INIT_N PHASES STEPS SEED   (prints per phase)"""
import sys, math
import numpy as np

N0 = int(float(sys.argv[1])); PH = int(sys.argv[2]); M = int(sys.argv[3]); SEED = int(sys.argv[4])
h = 1e-2; dt = 1e-12; NC = 512; NL = 10000
e = 1.602176487e-19; me = 9.1093837015e-31; eps0 = 8.8541878176e-12
K = e * e / (4 * math.pi * eps0 * h * h * me)
i = np.arange(NL, dtype=np.float64)
chance = (np.sin(i ** 2.6 / 5e7) + 1.01) * i ** 0.1
chance[0] = 0.0
rng = np.random.default_rng(SEED)

lo, hi = (256 - 30) * h, (256 + 32) * h
x = lo + (hi - lo) * rng.random((N0, 3))
v = np.zeros((N0, 3))
a = np.zeros((N0, 3))
tot_sp = tot_rm = tot_steps = 0
for ph in range(PH):
    cell = np.floor(x / h).astype(np.int64)
    cmin = cell.min(0) - 1; cmax = cell.max(0) + 1
    size = cmax - cmin + 1
    lc = cell - cmin
    flat = (lc[:, 2] * size[1] + lc[:, 1]) * size[0] + lc[:, 0]
    cnt = np.bincount(flat, minlength=size.prod()).reshape(size[2], size[1], size[0]).astype(np.float64)
    # central differences, missing neighbours count 0 (halo is zero already)
    g = np.zeros((3,) + cnt.shape)
    g[0][:, :, 1:-1] = cnt[:, :, 2:] - cnt[:, :, :-2]
    g[1][:, 1:-1, :] = cnt[:, 2:, :] - cnt[:, :-2, :]
    g[2][1:-1, :, :] = cnt[2:, :, :] - cnt[:-2, :, :]
    acc = (K * g).astype(np.float32)
    a = np.stack([acc[0][lc[:, 2], lc[:, 1], lc[:, 0]], acc[1][lc[:, 2], lc[:, 1], lc[:, 0]],
                  acc[2][lc[:, 2], lc[:, 1], lc[:, 0]]], axis=1).astype(np.float64)
    sp = rm = oob = 0
    for s in range(M):
        tot_steps += len(x)
        v -= a * (dt / 2)
        x += v * dt
        v -= a * (dt / 2)
        out = ((x < 0) | (x >= NC * h)).any(1)
        E = (v * v).sum(1)
        with np.errstate(divide='ignore'):
            lv = np.trunc((np.log10(E) + 6) * NL / 22)
        lv = np.where(E > 0, lv, 0)
        lv = np.clip(lv, 0, NL - 1).astype(np.int64)
        c = chance[lv]
        r = rng.random(len(x)) * 100
        split = (r < c) & ~out
        die = ((r >= c) & (r < 2 * c)) | out
        nsp = split.sum(); ndie = die.sum()
        oob += out.sum()
        if nsp:
            cx, cv, ca = x[split].copy(), v[split].copy(), a[split].copy()
            v[split] = -v[split]
        keep = ~die
        x, v, a = x[keep], v[keep], a[keep]
        if nsp:
            x = np.concatenate([x, cx]); v = np.concatenate([v, cv]); a = np.concatenate([a, ca])
        sp += nsp; rm += ndie
    tot_sp += sp; tot_rm += rm
    E = (v * v).sum(1)
    print(f"phase {ph}: n={len(x)} spawned={sp} removed={rm} oob={oob} "
          f"median|v|={np.median(np.sqrt(E)):.3e} max|v|={np.sqrt(E.max()):.3e} "
          f"|a| median={np.median(np.linalg.norm(a,axis=1)):.3e}", flush=True)
print(f"final={len(x)} spawned={tot_sp} removed={tot_rm} particle_steps={tot_steps}")
