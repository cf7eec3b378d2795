"""Gradient steps on a :class:`~models.training.data.Buffer` (torch, CPU)."""

from __future__ import annotations

import numpy as np
import torch

from quansu.models.training.data import Buffer
from quansu.models.training.net import PolicyValueNet, segment_log_softmax


class Trainer:
    """Adam on ``policy loss + value_weight * value MSE`` (the value error measured in units of
    the net's ``value_scale``; only the first ``num_players`` value slots count).

    Policy loss: with ``advantage_scale`` None, the cross-entropy of the move distribution
    against the target distribution; with ``advantage_scale`` (bets per logit unit), targets are
    move advantages in bets (NaN = no target) and the loss is the mean squared error between
    the logits centred over the moves with a target and ``advantage / advantage_scale``: the
    logits learn advantages, their softmax is a policy, their argmax the best move."""

    def __init__(
        self,
        net: PolicyValueNet,
        num_players: int,
        lr: float = 1e-3,
        weight_decay: float = 1e-5,
        value_weight: float = 1.0,
        seed: int = 0,
        advantage_scale: float | None = None,
    ):
        self.net = net
        self.advantage_scale = advantage_scale
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
        if self.advantage_scale is None:
            logp = segment_log_softmax(logits, ms, b)
            policy = -(tg * logp).sum() / b
        else:
            w = (~torch.isnan(tg)).to(logits.dtype)
            t = torch.nan_to_num(tg) / self.advantage_scale
            cnt = torch.zeros(b, dtype=logits.dtype).index_add(0, ms, w)
            tot = torch.zeros(b, dtype=logits.dtype).index_add(0, ms, logits * w)
            err = (logits - (tot / cnt.clamp(min=1.0))[ms] - t) * w
            policy = (err * err).sum() / w.sum().clamp(min=1.0)
        scale = self.net.value_scale
        err = (values[:, : self.n] - va[:, : self.n]) / scale
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
        ``max_states`` states of ``buffer`` (a held-out buffer); with advantage targets, agreement with
        the best rolled-out move."""
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
            t = np.nan_to_num(tg[pos : pos + c], nan=-np.inf)
            if np.argmax(logits[pos : pos + c]) == np.argmax(t):
                hits += 1
            pos += c
        return float(pol), float(val), hits / max(1, len(idx))
