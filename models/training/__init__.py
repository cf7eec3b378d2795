"""Training of the policy-value networks (needs the ``[train]`` extra: torch and onnx).

Nothing outside this package imports torch.  Entry point: :func:`models.training.loop.train`
(``quansu train``).
"""
