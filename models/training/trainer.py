"""Gradient steps on a :class:`~models.training.data.Buffer` (torch, CPU)."""

from __future__ import annotations

import numpy as np
import torch

from models.training.data import Buffer
from models.training.net import PolicyValueNet, segment_log_softmax


class Trainer:
    """Adam on ``policy cross-entropy + value_weight * value MSE`` (the value error measured in
    units of the net's ``value_scale``; only the first ``num_players`` value slots count)."""

    def __init__(self, net: PolicyValueNet, num_players: int, lr: float = 1e-3,
                 weight_decay: float = 1e-5, value_weight: float = 1.0, seed: int = 0):
        self.net = net
        self.n = num_players
        self.opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
        self.value_weight = value_weight
        self.rng = np.random.default_rng(seed)
        self.steps = 0

    def losses(self, batch) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``(total, policy, value)`` losses of one gathered batch (see ``Buffer.batch``)."""
        st, va, mv, tg, ms = (torch.from_numpy(np.ascontiguousarray(a)) for a in batch)
        logits, values = self.net(st, mv, ms)
        b = st.shape[0]
        logp = segment_log_softmax(logits, ms, b)
        policy = -(tg * logp).sum() / b
        scale = self.net.value_scale
        err = (values[:, :self.n] - va[:, :self.n]) / scale
        value = (err * err).mean()
        return policy + self.value_weight * value, policy, value

    def step(self, buffer: Buffer, batch_size: int = 256) -> tuple[float, float]:
        """One gradient step on a uniform batch; returns ``(policy loss, value loss)``."""
        self.net.train()
        idx = self.rng.integers(0, buffer.size, size=min(batch_size, buffer.size))
        total, pol, val = self.losses(buffer.batch(idx))
        self.opt.zero_grad()
        total.backward()
        pol, val = pol.detach(), val.detach()
        self.opt.step()
        self.steps += 1
        return pol.item(), val.item()

    @torch.no_grad()
    def evaluate(self, buffer: Buffer, max_states: int = 4096) -> tuple[float, float, float]:
        """``(policy loss, value loss, top-1 agreement with the target's argmax)`` on up to
        ``max_states`` states of ``buffer`` (a held-out buffer)."""
        self.net.eval()
        idx = np.arange(min(buffer.size, max_states))
        batch = buffer.batch(idx)
        _, pol, val = self.losses(batch)
        st, va, mv, tg, ms = batch
        logits, _ = self.net(torch.from_numpy(st), torch.from_numpy(mv), torch.from_numpy(ms))
        logits = logits.numpy()
        hits = 0
        _, _, _, _, start, cnt = buffer.arrays()
        pos = 0
        for c in cnt[idx]:
            if np.argmax(logits[pos:pos + c]) == np.argmax(tg[pos:pos + c]):
                hits += 1
            pos += c
        return float(pol), float(val), hits / max(1, len(idx))
