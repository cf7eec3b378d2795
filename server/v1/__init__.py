"""Generated gRPC/protobuf code of the quansu v1 API (``proto/quansu/v1``).

Do not edit: regenerate with ``python scripts/gen_proto.py``.
"""
