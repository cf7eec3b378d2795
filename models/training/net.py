"""The policy-value network (torch) and its ONNX export.

Inputs (the ONNX graph has the same three):

* ``states``: float32 ``[B, state_dim]``, one row per information state (encoder features);
* ``moves``: float32 ``[M, move_dim]``, one row per legal move of every state;
* ``move_state``: int64 ``[M]``, the row of ``states`` each move belongs to.

Outputs:

* ``logits``: float32 ``[M]``, one policy logit per move row (softmax within each state);
* ``values``: float32 ``[B, 4]``, expected payoff in bets per *relative* seat (slot 0 = the
  encoded seat, slot r = seat + r); slots beyond the player count are meaningless.
"""

from __future__ import annotations

import io
import warnings

import torch
from torch import nn


class PolicyValueNet(nn.Module):
    """State trunk (2 layers), move embedding (1 layer), a scoring head over (state, move) pairs
    and a value head.  ``value_scale``: bets per unit of the raw value output."""

    def __init__(
        self,
        state_dim: int,
        move_dim: int,
        hidden: int = 256,
        move_hidden: int = 128,
        value_scale: float = 1.0,
        num_values: int = 4,
    ):
        """``heuristic_bonus`` (a buffer, 0 until calibrated): added to the logit of every move
        row times its last feature, the heuristic-choice flag of encoders with
        ``heuristic_feature`` (leave it 0 for other encoders)."""
        super().__init__()
        self.config = dict(
            state_dim=state_dim,
            move_dim=move_dim,
            hidden=hidden,
            move_hidden=move_hidden,
            value_scale=value_scale,
            num_values=num_values,
        )
        self.trunk = nn.Sequential(
            nn.Linear(state_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.move = nn.Sequential(nn.Linear(move_dim, move_hidden), nn.ReLU())
        self.policy = nn.Sequential(
            nn.Linear(hidden + move_hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1)
        )
        self.value = nn.Sequential(nn.Linear(hidden, 128), nn.ReLU(), nn.Linear(128, num_values))
        self.register_buffer("value_scale", torch.tensor(float(value_scale)))
        self.register_buffer("heuristic_bonus", torch.tensor(0.0))

    def forward(self, states: torch.Tensor, moves: torch.Tensor, move_state: torch.Tensor):
        h = self.trunk(states)
        hm = self.move(moves)
        logits = self.policy(torch.cat([h[move_state], hm], dim=1)).squeeze(1)
        logits = logits + self.heuristic_bonus * moves[:, -1]
        values = self.value(h) * self.value_scale
        return logits, values


def segment_log_softmax(logits: torch.Tensor, seg: torch.Tensor, num_segments: int) -> torch.Tensor:
    """Log-softmax of ``logits[M]`` within the groups given by ``seg[M]`` (values < num_segments)."""
    mx = torch.full((num_segments,), -1e30, dtype=logits.dtype)
    mx = mx.scatter_reduce(0, seg, logits.detach(), reduce="amax", include_self=True)
    z = logits - mx[seg]
    s = torch.zeros(num_segments, dtype=logits.dtype).index_add(0, seg, torch.exp(z))
    return z - torch.log(s[seg])


def export_onnx(net: PolicyValueNet, metadata: dict[str, str]) -> bytes:
    """The network as ONNX bytes (opset 17, dynamic B and M) with ``metadata`` props."""
    import onnx

    cfg = net.config
    net = net.eval()
    states = torch.zeros(2, cfg["state_dim"])
    moves = torch.zeros(3, cfg["move_dim"])
    idx = torch.tensor([0, 1, 1], dtype=torch.int64)
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            net,
            (states, moves, idx),
            buf,
            dynamo=False,
            opset_version=17,
            input_names=["states", "moves", "move_state"],
            output_names=["logits", "values"],
            dynamic_axes={
                "states": {0: "B"},
                "moves": {0: "M"},
                "move_state": {0: "M"},
                "logits": {0: "M"},
                "values": {0: "B"},
            },
        )
    model = onnx.load_from_string(buf.getvalue())
    del model.metadata_props[:]
    for k, v in metadata.items():
        p = model.metadata_props.add()
        p.key, p.value = k, str(v)
    onnx.checker.check_model(model)
    return model.SerializeToString()
