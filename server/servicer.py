"""The gRPC servicer: thin glue between gRPC calls and :class:`server.engine.Engine`.

Cheap calls (``LegalMoves``, ``DescribeGames``) run in the server process.  Searches
(``Suggest``, ``SuggestStream``, ``Analyze``) are validated here first, so that a bad request
never occupies a worker, and then run in the worker pool (:class:`server.pool.WorkerPool`);
the call's deadline and cancellation reach the worker's search.  Every exception becomes a
status through :func:`server.errors.abort`.
"""

from __future__ import annotations

import grpc

from quansu.server import errors
from quansu.server.engine import Engine
from quansu.server.pool import WorkerPool
from quansu.server.v1 import service_pb2 as pb
from quansu.server.v1 import service_pb2_grpc

#: Deadlines further away than this are treated as none (gRPC reports "no deadline" as a huge
#: remaining time).
_NO_DEADLINE_S = 10 * 365 * 24 * 3600.0


def seconds_left(context: grpc.ServicerContext) -> float | None:
    """Seconds until the call's deadline, or None when it has none."""
    t = context.time_remaining()
    if t is None or t > _NO_DEADLINE_S:
        return None
    return max(0.0, t)


class QuansuServicer(service_pb2_grpc.QuansuServiceServicer):
    """``engine``: validation and the in-process calls; ``pool``: the search workers."""

    def __init__(self, engine: Engine, pool: WorkerPool):
        self.engine = engine
        self.pool = pool

    def _run(self, kind: str, request, context):
        return self.pool.run(kind, request.SerializeToString(), seconds_left(context),
                             context.is_active)

    def DescribeGames(self, request, context):
        try:
            return self.engine.describe_games(request)
        except Exception as e:
            errors.abort(context, e)

    def LegalMoves(self, request, context):
        try:
            return self.engine.legal_moves(request)
        except Exception as e:
            errors.abort(context, e)

    def Suggest(self, request, context):
        try:
            self.engine.check_suggest(request)
            last = None
            for data in self._run("suggest", request, context):
                last = data
            if last is None:
                raise errors.Unavailable("the search ended without an answer")
            return pb.SuggestResponse.FromString(last)
        except Exception as e:
            errors.abort(context, e)

    def SuggestStream(self, request, context):
        try:
            self.engine.check_suggest_stream(request)
            for data in self._run("suggest_stream", request, context):
                yield pb.SuggestResponse.FromString(data)
        except Exception as e:
            errors.abort(context, e)

    def Analyze(self, request, context):
        try:
            self.engine.check_analyze(request)
            for data in self._run("analyze", request, context):
                yield pb.AnalyzeResponse.FromString(data)
        except Exception as e:
            errors.abort(context, e)
