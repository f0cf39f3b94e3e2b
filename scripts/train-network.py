#!/usr/bin/env python3
"""Trains the 8x8 network evaluation with PyTorch on the CPU and writes it
in the engine's format (src/search/pattern/network.rs documents it).

The positions come from `reversi train --export` (WTHOR games, self-play
sets, labelled by search or solved near the end; the file format is
documented in src/tools/train/export.rs). The network:

- every feature index of a position (the pattern layout's 46 regions and
  its 4 scalar terms: mobility and potential mobility) selects a learned
  vector of D numbers, and the vectors are summed with a bias (an
  embedding bag: the accumulator);
- the accumulator, clipped to [0, 1], goes through a fully connected
  layer of H units (clipped to [0, 1]) and one output, in discs for the
  side to move; each game phase (4 empty squares, as the pattern tables'
  phases) has its own two layers.

The engine computes it in integers (see QA, QW, QO below); the exported
file is checked against the trainer's own scores by a test
(`tests/data/network-fixture.txt`, written here).

    scripts/train-network.py EXPORT [EXPORT ...] --out data/network.bin
        [--epochs 8] [--fixture FILE] [--seed 1]

Several export files are trained on together; each one's held-out
positions are held out.
"""
import argparse
import math
import struct
import sys
import time
import zlib

import numpy as np
import torch
from torch import nn

EXPORT_MAGIC = b"RVNNDAT1"
NETWORK_MAGIC = b"RVNNET01"
# Game phases, each with its own layers: as the pattern tables' phases,
# one for every 4 empty squares (56-59 first).
PHASES = 15
# Integer scales of the engine's arithmetic: the accumulator and the
# hidden units in 1/QA, the hidden layer's weights in 1/QW, the output
# layer's weights in 1/QO discs.
QA, QW, QO = 256, 256, 64
# The accumulator's and the hidden layer's sizes, fixed in the engine.
DIM, HIDDEN = 32, 32


def phase(empties):
    """The phase of positions with `empties` empty squares (a numpy array)."""
    return (59 - np.minimum(empties, 59)) // 4


def read_export(path):
    """The positions of an export file: features (int64, N x F), targets
    (float32, discs), empties (int64), boards (player, opponent as
    uint64) and how many at the end are held out; the file's rows."""
    data = open(path, "rb").read()
    if not data.startswith(EXPORT_MAGIC):
        sys.exit(f"{path}: not a `reversi train --export` file (no {EXPORT_MAGIC.decode()} header)")
    body, crc = data[:-4], struct.unpack("<I", data[-4:])[0]
    if zlib.crc32(body) != crc:
        sys.exit(f"{path}: damaged (its checksum fails)")
    features, rows, count, held = struct.unpack_from("<IIQQ", data, 8)
    dtype = np.dtype(
        [("player", "<u8"), ("opponent", "<u8"), ("target", "i1"), ("empties", "u1"),
         ("features", "<u4", (features,))]
    )
    records = np.frombuffer(data, dtype=dtype, count=count, offset=8 + 24)
    return records, rows, held


class Network(nn.Module):
    def __init__(self, rows, dim, hidden):
        super().__init__()
        self.embedding = nn.EmbeddingBag(rows, dim, mode="sum", sparse=True)
        nn.init.normal_(self.embedding.weight, 0.0, 0.02)
        self.bias = nn.Parameter(torch.full((dim,), 0.5))
        self.w1 = nn.Parameter(torch.randn(PHASES, hidden, dim) / math.sqrt(dim))
        self.b1 = nn.Parameter(torch.zeros(PHASES, hidden))
        self.w2 = nn.Parameter(torch.randn(PHASES, hidden) * 4.0)
        self.b2 = nn.Parameter(torch.zeros(PHASES))

    def forward(self, features, phases):
        acc = self.embedding(features) + self.bias
        x = acc.clamp(0.0, 1.0)
        # Every phase's layer at once (one matrix product), then each
        # position's own phase: far faster than a product per position.
        every = (x @ self.w1.reshape(-1, x.shape[1]).T).view(len(x), PHASES, -1)
        h = every[torch.arange(len(x)), phases] + self.b1[phases]
        h = h.clamp(0.0, 1.0)
        return (h * self.w2[phases]).sum(-1) + self.b2[phases]


def quantised(model):
    """The model's parameters as the engine reads them (numpy integers),
    and the largest accumulator magnitude they allow per unit."""
    q = lambda t, s, dt: np.clip(np.rint(t.detach().numpy() * s), np.iinfo(dt).min, np.iinfo(dt).max).astype(dt)
    return {
        "embedding": q(model.embedding.weight, QA, np.int16),
        "bias": q(model.bias, QA, np.int16),
        "w1": q(model.w1, QW, np.int16),
        "b1": q(model.b1, QA * QW, np.int32),
        "w2": q(model.w2, QO, np.int16),
        "b2": q(model.b2, QA * QO, np.int32),
    }


def engine_score(p, features, phases):
    """The engine's integer arithmetic on quantised parameters `p`, in
    discs (numpy, for the fixture's check)."""
    acc = p["embedding"][features].astype(np.int64).sum(1) + p["bias"]
    # The engine adds in 16 bits, wrapping: the exporter refuses weights
    # whose sums could wrap, so int64 gives the same.
    x = np.clip(acc, 0, QA)
    dot = np.einsum("nd,nhd->nh", x, p["w1"][phases].astype(np.int64)) + p["b1"][phases]
    h = np.clip(dot // QW, 0, QA)
    out = (h * p["w2"][phases]).sum(-1) + p["b2"][phases]
    return out / (QA * QO)


def write_network(path, p, rows, dim, hidden):
    body = bytearray(NETWORK_MAGIC)
    body += struct.pack("<6I", rows, dim, hidden, PHASES, QA, QW)
    body += struct.pack("<I", QO)
    for name in ["embedding", "bias", "w1", "b1", "w2", "b2"]:
        body += p[name].astype(p[name].dtype.newbyteorder("<")).tobytes()
    body += struct.pack("<I", zlib.crc32(bytes(body)))
    tmp = path + ".partial"
    with open(tmp, "wb") as f:
        f.write(body)
    import os
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("exports", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--rate", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fixture", help="write held-out positions with the trainer's and the engine's scores here")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)

    train_parts, test_parts, rows = [], [], None
    for path in args.exports:
        records, r, held = read_export(path)
        if rows not in (None, r):
            sys.exit(f"{path}: features of another layout ({r} rows, not {rows})")
        rows = r
        split = len(records) - held
        train_parts.append(records[:split])
        test_parts.append(records[split:])
    train = np.concatenate(train_parts)
    test = np.concatenate(test_parts)
    print(f"{len(train)} training positions, {len(test)} held out", file=sys.stderr)

    def tensors(rec):
        return (torch.from_numpy(rec["features"].astype(np.int64)),
                torch.from_numpy(phase(rec["empties"].astype(np.int64))),
                torch.from_numpy(rec["target"].astype(np.float32)))

    model = Network(rows, DIM, HIDDEN)
    sparse = torch.optim.SparseAdam([model.embedding.weight], lr=args.rate)
    dense = torch.optim.Adam([model.bias, model.w1, model.b1, model.w2, model.b2], lr=args.rate)
    test_f, test_p, test_t = tensors(test)

    def held_out_error():
        with torch.no_grad():
            err = []
            for i in range(0, len(test_t), 65536):
                out = model(test_f[i:i + 65536], test_p[i:i + 65536])
                err.append((out - test_t[i:i + 65536]).pow(2))
            return math.sqrt(torch.cat(err).mean().item())

    steps = math.ceil(len(train) / args.batch)
    for epoch in range(args.epochs):
        # The rate falls to a tenth over the run.
        lr = args.rate * (0.1 ** (epoch / max(1, args.epochs - 1)))
        for opt in (sparse, dense):
            for g in opt.param_groups:
                g["lr"] = lr
        order = rng.permutation(len(train))
        start, total = time.time(), 0.0
        for s in range(steps):
            f, ph, t = tensors(train[order[s * args.batch:(s + 1) * args.batch]])
            loss = (model(f, ph) - t).pow(2).mean()
            sparse.zero_grad()
            dense.zero_grad()
            loss.backward()
            sparse.step()
            dense.step()
            total += loss.item()
        print(f"epoch {epoch + 1}: training rms {math.sqrt(total / steps):.3f} discs, "
              f"held out {held_out_error():.3f}, {time.time() - start:.0f} s", file=sys.stderr)

    p = quantised(model)
    # The accumulator is summed in 16 bits: its largest possible magnitude
    # (each feature's largest row entry, over the rows the data used)
    # must stay below 2^15.
    used = np.unique(train["features"])
    worst = np.abs(p["embedding"][used]).max(0).astype(np.int64) * train["features"].shape[1] + np.abs(p["bias"])
    if worst.max() >= 32768:
        print(f"warning: an accumulator of up to {worst.max()} could wrap in 16 bits", file=sys.stderr)
    write_network(args.out, p, rows, DIM, HIDDEN)
    q = engine_score(p, test["features"].astype(np.int64), phase(test["empties"].astype(np.int64)))
    with torch.no_grad():
        f = model(test_f, test_p).numpy()
    print(f"held out: float rms {math.sqrt(((f - test['target']) ** 2).mean()):.3f}, "
          f"integer rms {math.sqrt(((q - test['target']) ** 2).mean()):.3f}, "
          f"largest float-integer difference {np.abs(f - q).max():.3f} discs", file=sys.stderr)
    print(f"network written to {args.out}", file=sys.stderr)
    if args.fixture:
        pick = rng.choice(len(test), size=min(200, len(test)), replace=False)
        with open(args.fixture, "w") as out:
            out.write("# player opponent (hex, side to move first) trainer's score (float) "
                      "engine's score (integer arithmetic), in discs, for the side to move\n")
            for i in sorted(pick):
                out.write(f"{test['player'][i]:016x} {test['opponent'][i]:016x} {f[i]:.4f} {q[i]:.4f}\n")
        print(f"fixture written to {args.fixture}", file=sys.stderr)


if __name__ == "__main__":
    main()
