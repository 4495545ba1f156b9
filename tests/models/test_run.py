"""What every trainer shares: the bfloat16 switch, and the warning where bfloat16 would crawl. Skipped where
torch (the `train` extra) is not installed."""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

import pytest

pytest.importorskip("torch")

from torch import nn

from models import run
from models.run import add_bfloat16_option, bfloat16_training


def test_bfloat16_is_on_unless_switched_off() -> None:
    parser = argparse.ArgumentParser()
    add_bfloat16_option(parser)
    assert parser.parse_args([]).bfloat16 is True
    assert parser.parse_args(["--no-bfloat16"]).bfloat16 is False


def test_a_trainer_keeps_its_own_flag_and_default() -> None:
    parser = argparse.ArgumentParser()
    add_bfloat16_option(parser, "--reader-bfloat16", default=False)
    assert parser.parse_args([]).reader_bfloat16 is False
    assert parser.parse_args(["--reader-bfloat16"]).reader_bfloat16 is True


@pytest.mark.parametrize("native", [True, False])
def test_bfloat16_warns_only_where_it_would_crawl(monkeypatch: pytest.MonkeyPatch, native: bool) -> None:
    monkeypatch.setattr(run, "native_bfloat16", lambda: native)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with bfloat16_training(nn.Conv2d(3, 4, 3), enabled=True):
            pass
        with bfloat16_training(nn.Conv2d(3, 4, 3), enabled=False):
            pass
    slow = [w for w in caught if issubclass(w.category, RuntimeWarning) and "bfloat16" in str(w.message)]
    assert len(slow) == (0 if native else 1)


CPU_FLAGS = Path("/proc/cpuinfo")


@pytest.mark.skipif(not CPU_FLAGS.is_file(), reason="the CPU's flags are read from Linux's /proc/cpuinfo")
def test_native_bfloat16_follows_the_cpu() -> None:
    """The check leans on a private torch op (a torch that drops it fails here, not hours into a run).
    oneDNN's fast bfloat16 path needs AVX-512 BW, VL and DQ, or a newer bfloat16 extension: with the three
    it is native; with none of them, nor AVX-512 at all, it is not."""
    flags = set(CPU_FLAGS.read_text().split())
    if {"avx512bw", "avx512vl", "avx512dq"} <= flags:
        assert run.native_bfloat16()
    elif not flags & {"avx512f", "avx512_bf16", "amx_bf16", "avx_ne_convert"}:
        assert not run.native_bfloat16()
    else:
        pytest.skip("a CPU between the two cases: torch's rule for it is not pinned here")
