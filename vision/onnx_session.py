"""One place that opens the shipped ONNX models, with a thread count chosen by the caller."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort

from vision.errors import ModelUnavailable

MODELS_FOLDER = Path(__file__).resolve().parent.parent / "models"


def open_session(path: Path, threads: int, rebuild: str) -> ort.InferenceSession:
    """An onnxruntime CPU session on `threads` intra-op threads that sleep between runs (one inter-op thread:
    graphs are serial).

    A missing file is named with `rebuild`, the command that trains it again."""
    if not path.is_file():
        raise ModelUnavailable(f"{path}: model file not found (rebuild it with `{rebuild}`)")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Several sessions run one after another, each with its own pool of intra-op threads; left spinning
    # after a run, those threads held the cores the next session needed: on two threads the 1280x720 frame
    # of `python bench/bench_vision.py --scenes 0` took 84-88 ms spinning and 34-35 ms not (session 65).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises several unrelated exception types for a bad file
        raise ModelUnavailable(f"{path}: onnxruntime cannot load the model ({error})") from error
