"""Policy-value networks: per-game encoders (versioned), the onnxruntime evaluator, the shipped
``models/<game>.onnx`` files with their model cards, and the training pipeline
(``models.training``, needs the ``[train]`` extra; nothing else here imports torch).

Public surface::

    default_evaluator(game)  -> NetworkEvaluator for the shipped model (ModelError if none)
    has_model(game_name)     -> whether models/<game>.onnx is shipped
    load_model(game, path)   -> PolicyValueModel (checks game and encoder version)
"""

from __future__ import annotations

from quansu.models.evaluator import (
    ModelError,
    NetworkEvaluator,
    PolicyValueModel,
    default_model_path,
    load_model,
)


def has_model(game_name: str) -> bool:
    """Whether a model for ``game_name`` is shipped in ``models/``."""
    return default_model_path(game_name).is_file()


def default_evaluator(game, **kwargs) -> NetworkEvaluator:
    """A :class:`NetworkEvaluator` on the shipped model of ``game`` (raises
    :class:`ModelError` when none is shipped or its encoder version differs)."""
    return NetworkEvaluator(game, load_model(game), **kwargs)


__all__ = [
    "ModelError",
    "NetworkEvaluator",
    "PolicyValueModel",
    "default_evaluator",
    "default_model_path",
    "has_model",
    "load_model",
]
